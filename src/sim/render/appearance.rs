//! How one simulated club looks: its board, coins, players' hands, lamps and
//! camera sensor. Every choice is drawn from a seeded generator, so a seed
//! fixes the look and different seeds give the variety real footage has.

use rand::{Rng, RngExt};
use serde::{Deserialize, Serialize};

use crate::geometry::spec::{
    CARROMMAN_DIAMETER, CARROMMAN_THICKNESS, FRAME_HEIGHT, FRAME_WIDTH, STRIKER_DIAMETER,
};

/// A colour as blue, green, red in 0–255 (OpenCV's channel order).
pub type Bgr = [f32; 3];

/// Everything that decides how the footage looks, apart from the camera.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Appearance {
    /// Seeds the procedural textures (grain, powder, sensor noise).
    pub seed: u64,
    /// The table or floor around the board.
    pub surroundings: Surroundings,
    /// The playing surface's plywood.
    pub plywood: Plywood,
    /// Boric powder haze on the surface, 0 (clean) to about 1 (heavy).
    pub powder: f32,
    /// The wooden frame.
    pub frame: FrameLook,
    /// The printed markings' inks.
    pub ink: InkLook,
    /// The decorative design inside the outer circle.
    pub decor: Decor,
    /// Made-up brand lettering.
    pub brand: Brand,
    /// The 18 carrommen and the Queen.
    pub carrommen: CarrommenLook,
    /// The striker.
    pub striker: StrikerLook,
    /// The players' hands and forearms.
    pub hands: HandLook,
    /// Lamps, exposure and white balance.
    pub lighting: Lighting,
    /// Sensor noise, sharpness, exposure time and compression.
    pub sensor: Sensor,
}

/// What lies around the board.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum SurroundingsKind {
    /// Floor tiles with grout lines.
    Tiles,
    /// Wooden floor planks.
    Planks,
    /// A cloth over a table (felt, cotton).
    Cloth,
    /// Concrete or a plain painted floor.
    Plain,
}

/// The table or floor around the board.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct Surroundings {
    pub kind: SurroundingsKind,
    pub colour: Bgr,
    /// Grout, plank joints or weave.
    pub accent: Bgr,
    /// Size of a tile or width of a plank, mm.
    pub pattern_mm: f32,
}

/// The plywood of the playing surface.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct Plywood {
    /// Mean colour, from pale birch to honey.
    pub base: Bgr,
    /// How dark the grain lines are (0–1).
    pub grain_contrast: f32,
    /// Mean distance between grain lines, mm.
    pub grain_spacing_mm: f32,
    /// Grain runs east–west (else north–south).
    pub grain_along_x: bool,
    /// How much the grain wanders (0 straight, 1 wild).
    pub waviness: f32,
    /// Strength of the lamp's reflection in the lacquer (0 matte).
    pub gloss: f32,
}

/// The wooden frame around the playing surface.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct FrameLook {
    pub colour: Bgr,
    /// Width of each frame strip, mm (within the ICF range).
    pub width_mm: f64,
    /// Height of the frame's top above the playing surface, mm.
    pub height_mm: f64,
    pub grain_contrast: f32,
}

/// The printed markings' inks.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct InkLook {
    /// Lines and circles (black, or very dark blue or green).
    pub line: Bgr,
    /// The red of base circles and the centre circle.
    pub red: Bgr,
}

/// The decorative design inside the outer circle.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case", tag = "style")]
pub enum DecorStyle {
    /// No design: only the ICF circles.
    None,
    /// A star of alternately coloured points.
    Star { points: u8 },
    /// Petals around the centre circle.
    Rosette { petals: u8 },
    /// Four long and four short points.
    Compass,
}

/// The decorative centre design.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct Decor {
    pub style: DecorStyle,
    /// Outer radius of the design, mm (inside the outer circle).
    pub radius_mm: f64,
    pub primary: Bgr,
    pub secondary: Bgr,
}

/// Made-up brand lettering.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Brand {
    pub name: String,
    /// Printed large on two opposite frame strips.
    pub on_frame: bool,
    pub frame_text: Bgr,
    /// A small script signature on the playing surface.
    pub script_on_surface: bool,
    /// A small "MADE IN ..." line beside a base line.
    pub made_in: Option<String>,
}

/// How the "white" carrommen look.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum WhiteStyle {
    /// Cream or ivory with engraved rings.
    Cream,
    /// Natural wood: tan with a darker ring and visible grain.
    NaturalWood,
}

/// The carrommen and the Queen.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct CarrommenLook {
    pub white_style: WhiteStyle,
    pub white: Bgr,
    pub black: Bgr,
    pub queen: Bgr,
    pub diameter_mm: f64,
    pub thickness_mm: f64,
    /// Radius of the engraved ring as a fraction of the radius.
    pub ring_fraction: f32,
}

/// The pattern printed on a striker.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum StrikerPrint {
    Plain,
    Star,
    Rings,
    Spokes,
}

/// The striker.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct StrikerLook {
    pub colour: Bgr,
    pub print: StrikerPrint,
    pub print_colour: Bgr,
    pub diameter_mm: f64,
    pub thickness_mm: f64,
}

/// The players' hands and forearms.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct HandLook {
    pub skin: Bgr,
    /// Sleeve colour, when the forearm is covered from the wrist on.
    pub sleeve: Option<Bgr>,
    /// Hand size relative to an average adult's.
    pub scale: f64,
    /// Mirror the hand (thumb on the other side).
    pub left_handed: bool,
}

/// One lamp over the board.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct Lamp {
    /// Position in board mm (z above the board).
    pub position_mm: [f64; 3],
    /// Colour of its light as per-channel gains (its colour temperature).
    pub colour: Bgr,
    /// Relative strength.
    pub power: f32,
}

/// Lamps and the camera's exposure.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Lighting {
    pub lamps: Vec<Lamp>,
    /// Light from everywhere else, relative to the lamps at the board centre.
    pub ambient: f32,
    /// Overall brightness of the image.
    pub exposure: f32,
    /// The camera's (imperfect) white balance, per channel.
    pub white_balance: Bgr,
    /// Darkening towards the image corners (0 none).
    pub vignetting: f32,
}

/// The sensor and the video pipeline.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct Sensor {
    /// Noise independent of brightness, in 8-bit levels.
    pub read_noise: f32,
    /// Photon noise: variance grows by this many levels² per level.
    pub shot_noise: f32,
    /// How much the noise differs between channels (0 grey, 1 independent).
    pub chroma_noise: f32,
    /// Canvas pixels per image pixel at the board centre; below about 1.1
    /// the image is soft, like a cheap webcam.
    pub sharpness: f64,
    /// Exposure time, seconds: moving pieces smear over it.
    pub exposure_s: f64,
    /// A JPEG pass per frame at this quality (webcams that send MJPEG).
    pub jpeg_quality: Option<i32>,
    /// Frame-to-frame brightness flicker of mains lamps (fraction).
    pub flicker: f32,
}

/// Colour of light at a colour temperature, as BGR gains with red = 1.
fn light_colour(kelvin: f32) -> Bgr {
    // A few points of the Planckian locus in sRGB, interpolated; good enough
    // to make tungsten look orange and daylight neutral.
    const TABLE: [(f32, Bgr); 5] = [
        (2700.0, [0.42, 0.71, 1.0]),
        (3500.0, [0.62, 0.83, 1.0]),
        (4500.0, [0.80, 0.92, 1.0]),
        (5500.0, [0.93, 0.97, 1.0]),
        (6500.0, [1.02, 0.99, 0.97]),
    ];
    let k = kelvin.clamp(TABLE[0].0, TABLE[TABLE.len() - 1].0);
    let mut i = 0;
    while i + 2 < TABLE.len() && k > TABLE[i + 1].0 {
        i += 1;
    }
    let (k0, c0) = TABLE[i];
    let (k1, c1) = TABLE[i + 1];
    let t = (k - k0) / (k1 - k0);
    [0, 1, 2].map(|c| c0[c] + (c1[c] - c0[c]) * t)
}

fn mix(a: Bgr, b: Bgr, t: f32) -> Bgr {
    [0, 1, 2].map(|c| a[c] + (b[c] - a[c]) * t)
}

fn jitter<R: Rng + ?Sized>(rng: &mut R, colour: Bgr, amount: f32) -> Bgr {
    colour.map(|v| (v * (1.0 + rng.random_range(-amount..=amount))).clamp(0.0, 255.0))
}

fn pick<R: Rng + ?Sized, T: Copy>(rng: &mut R, choices: &[T]) -> T {
    choices[rng.random_range(0..choices.len())]
}

/// Made-up brand names (no real manufacturer's).
const BRANDS: [&str; 10] = [
    "KARMA CLUB",
    "ROYAL STRIKE",
    "QUEENSWAY",
    "ACE PRO",
    "SILVERLINE",
    "MAHARAJA",
    "TOPSHOT",
    "CLUBHOUSE",
    "GOLDEN ARROW",
    "PRIMA",
];

impl Appearance {
    /// A random look: every figure above drawn from `rng`.
    pub fn random<R: Rng + ?Sized>(rng: &mut R) -> Appearance {
        let seed = rng.random();
        let surroundings = {
            let kind = pick(
                rng,
                &[
                    SurroundingsKind::Tiles,
                    SurroundingsKind::Planks,
                    SurroundingsKind::Cloth,
                    SurroundingsKind::Plain,
                ],
            );
            let colour = match kind {
                SurroundingsKind::Tiles => pick(
                    rng,
                    &[
                        [200.0, 200.0, 205.0],
                        [150.0, 170.0, 190.0],
                        [90.0, 95.0, 100.0],
                    ],
                ),
                SurroundingsKind::Planks => pick(
                    rng,
                    &[
                        [60.0, 100.0, 150.0],
                        [90.0, 130.0, 170.0],
                        [40.0, 60.0, 90.0],
                    ],
                ),
                SurroundingsKind::Cloth => pick(
                    rng,
                    &[
                        [40.0, 110.0, 30.0],
                        [120.0, 60.0, 30.0],
                        [40.0, 40.0, 150.0],
                        [200.0, 200.0, 200.0],
                    ],
                ),
                SurroundingsKind::Plain => pick(
                    rng,
                    &[
                        [120.0, 120.0, 120.0],
                        [70.0, 75.0, 80.0],
                        [160.0, 170.0, 175.0],
                    ],
                ),
            };
            let colour = jitter(rng, colour, 0.15);
            Surroundings {
                kind,
                colour,
                accent: colour.map(|v| v * rng.random_range(0.55..0.85)),
                pattern_mm: match kind {
                    SurroundingsKind::Tiles => rng.random_range(250.0..600.0),
                    SurroundingsKind::Planks => rng.random_range(90.0..200.0),
                    SurroundingsKind::Cloth => rng.random_range(1.5..4.0),
                    SurroundingsKind::Plain => rng.random_range(50.0..300.0),
                },
            }
        };
        let plywood = Plywood {
            base: {
                let honey = rng.random_range(0.0..1.0);
                jitter(
                    rng,
                    mix([160.0, 200.0, 228.0], [95.0, 160.0, 212.0], honey),
                    0.05,
                )
            },
            grain_contrast: rng.random_range(0.05..0.22),
            grain_spacing_mm: rng.random_range(4.0..14.0),
            grain_along_x: rng.random_bool(0.5),
            waviness: rng.random_range(0.1..1.0),
            gloss: if rng.random_bool(0.6) {
                rng.random_range(0.05..0.5)
            } else {
                0.0
            },
        };
        let frame = FrameLook {
            colour: pick(
                rng,
                &[
                    [22.0, 22.0, 24.0],
                    [25.0, 38.0, 55.0],
                    [30.0, 42.0, 85.0],
                    [45.0, 70.0, 105.0],
                    [18.0, 24.0, 30.0],
                ],
            ),
            width_mm: rng.random_range(FRAME_WIDTH.min..=FRAME_WIDTH.max),
            height_mm: rng.random_range(FRAME_HEIGHT.min..=FRAME_HEIGHT.max),
            grain_contrast: rng.random_range(0.05..0.25),
        };
        let ink = InkLook {
            line: pick(
                rng,
                &[
                    [20.0, 20.0, 20.0],
                    [45.0, 25.0, 20.0],
                    [25.0, 35.0, 20.0],
                    [30.0, 30.0, 35.0],
                ],
            ),
            red: {
                let red = pick(
                    rng,
                    &[
                        [30.0, 30.0, 190.0],
                        [40.0, 25.0, 160.0],
                        [50.0, 50.0, 210.0],
                    ],
                );
                jitter(rng, red, 0.1)
            },
        };
        let decor = Decor {
            style: match rng.random_range(0..10) {
                0 => DecorStyle::None,
                1..=4 => DecorStyle::Star {
                    points: pick(rng, &[8, 8, 12, 16]),
                },
                5..=7 => DecorStyle::Rosette {
                    petals: pick(rng, &[6, 8, 12]),
                },
                _ => DecorStyle::Compass,
            },
            radius_mm: rng.random_range(0.55..0.95),
            primary: ink.red,
            secondary: ink.line,
        };
        let brand = Brand {
            name: pick(rng, &BRANDS).to_string(),
            on_frame: rng.random_bool(0.6),
            frame_text: pick(
                rng,
                &[
                    [235.0, 235.0, 235.0],
                    [60.0, 170.0, 210.0],
                    [200.0, 200.0, 200.0],
                ],
            ),
            script_on_surface: rng.random_bool(0.6),
            made_in: if rng.random_bool(0.5) {
                Some(pick(rng, &["MADE IN INDIA", "HANDCRAFTED", "TOURNAMENT GRADE"]).to_string())
            } else {
                None
            },
        };
        let white_style = if rng.random_bool(0.55) {
            WhiteStyle::NaturalWood
        } else {
            WhiteStyle::Cream
        };
        let carrommen = CarrommenLook {
            white_style,
            white: match white_style {
                WhiteStyle::Cream => jitter(rng, [175.0, 215.0, 232.0], 0.06),
                WhiteStyle::NaturalWood => {
                    let dark = rng.random_range(0.0..1.0);
                    jitter(
                        rng,
                        mix([95.0, 150.0, 200.0], [60.0, 110.0, 170.0], dark),
                        0.06,
                    )
                }
            },
            black: pick(
                rng,
                &[
                    [28.0, 28.0, 30.0],
                    [25.0, 35.0, 55.0],
                    [35.0, 30.0, 30.0],
                    [20.0, 28.0, 45.0],
                ],
            ),
            queen: {
                let red = pick(
                    rng,
                    &[
                        [40.0, 35.0, 185.0],
                        [60.0, 50.0, 200.0],
                        [35.0, 30.0, 150.0],
                    ],
                );
                jitter(rng, red, 0.08)
            },
            diameter_mm: rng.random_range(CARROMMAN_DIAMETER.min..=CARROMMAN_DIAMETER.max),
            thickness_mm: rng.random_range(CARROMMAN_THICKNESS.min..=CARROMMAN_THICKNESS.max),
            ring_fraction: rng.random_range(0.5..0.8),
        };
        let striker = {
            let colour = pick(
                rng,
                &[
                    [235.0, 240.0, 242.0],
                    [215.0, 232.0, 240.0],
                    [200.0, 120.0, 40.0],
                    [60.0, 200.0, 230.0],
                    [230.0, 230.0, 230.0],
                ],
            );
            StrikerLook {
                colour: jitter(rng, colour, 0.04),
                print: pick(
                    rng,
                    &[
                        StrikerPrint::Plain,
                        StrikerPrint::Star,
                        StrikerPrint::Rings,
                        StrikerPrint::Spokes,
                    ],
                ),
                print_colour: pick(
                    rng,
                    &[
                        [40.0, 40.0, 190.0],
                        [160.0, 60.0, 20.0],
                        [30.0, 30.0, 30.0],
                        [40.0, 140.0, 40.0],
                    ],
                ),
                diameter_mm: rng.random_range(STRIKER_DIAMETER.min..=STRIKER_DIAMETER.max),
                thickness_mm: rng.random_range(CARROMMAN_THICKNESS.min..=CARROMMAN_THICKNESS.max)
                    * 0.8,
            }
        };
        let hands = HandLook {
            skin: {
                let dark = rng.random_range(0.0f32..1.0).powf(0.8);
                jitter(
                    rng,
                    mix([165.0, 190.0, 230.0], [45.0, 70.0, 110.0], dark),
                    0.05,
                )
            },
            sleeve: if rng.random_bool(0.5) {
                let cloth = pick(
                    rng,
                    &[
                        [40.0, 40.0, 40.0],
                        [150.0, 80.0, 30.0],
                        [220.0, 220.0, 220.0],
                        [40.0, 40.0, 140.0],
                        [60.0, 110.0, 60.0],
                    ],
                );
                Some(jitter(rng, cloth, 0.15))
            } else {
                None
            },
            scale: rng.random_range(0.9..1.1),
            left_handed: rng.random_bool(0.15),
        };
        let lighting = {
            let lamp_count = if rng.random_bool(0.35) { 2 } else { 1 };
            let kelvin = rng.random_range(2700.0..6500.0);
            let lamps: Vec<Lamp> = (0..lamp_count)
                .map(|_| {
                    let reach: f64 = rng.random_range(0.0..450.0);
                    let direction: f64 = rng.random_range(0.0..std::f64::consts::TAU);
                    Lamp {
                        position_mm: [
                            reach * direction.cos(),
                            reach * direction.sin(),
                            rng.random_range(700.0..1600.0),
                        ],
                        colour: light_colour(kelvin + rng.random_range(-300.0..300.0)),
                        power: rng.random_range(0.6..1.0),
                    }
                })
                .collect();
            // Auto white balance removes most, but not all, of the tint.
            let correction = rng.random_range(0.4..0.85);
            let tint = light_colour(kelvin);
            let white_balance = tint.map(|c| 1.0 + (1.0 / c - 1.0) * correction);
            let peak = white_balance.iter().cloned().fold(0.0, f32::max);
            Lighting {
                lamps,
                ambient: rng.random_range(0.1..0.4),
                exposure: rng.random_range(0.8..1.1),
                white_balance: white_balance.map(|c| c / peak),
                vignetting: rng.random_range(0.0..0.45),
            }
        };
        let sensor = Sensor {
            read_noise: rng.random_range(0.8..3.5),
            shot_noise: rng.random_range(0.02..0.2),
            chroma_noise: rng.random_range(0.1..0.6),
            sharpness: rng.random_range(0.8..1.5),
            exposure_s: pick(rng, &[1.0 / 30.0, 1.0 / 60.0, 1.0 / 120.0, 1.0 / 250.0])
                * rng.random_range(0.8..1.0),
            jpeg_quality: if rng.random_bool(0.3) {
                Some(rng.random_range(55..90))
            } else {
                None
            },
            flicker: rng.random_range(0.0..0.015),
        };
        Appearance {
            seed,
            surroundings,
            plywood,
            powder: rng.random_range(0.0f32..1.0).powi(2),
            frame,
            ink,
            decor,
            brand,
            carrommen,
            striker,
            hands,
            lighting,
            sensor,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::rngs::StdRng;
    use rand::SeedableRng;

    #[test]
    fn seed_fixes_the_look_and_seeds_differ() {
        let a = Appearance::random(&mut StdRng::seed_from_u64(1));
        let b = Appearance::random(&mut StdRng::seed_from_u64(1));
        let c = Appearance::random(&mut StdRng::seed_from_u64(2));
        assert_eq!(a, b);
        assert_ne!(a, c);
    }

    #[test]
    fn looks_vary_across_seeds() {
        let looks: Vec<Appearance> = (0..200)
            .map(|s| Appearance::random(&mut StdRng::seed_from_u64(s)))
            .collect();
        let wood = looks
            .iter()
            .filter(|a| a.carrommen.white_style == WhiteStyle::NaturalWood)
            .count();
        assert!(wood > 50 && wood < 150, "natural wood whites in {wood}/200");
        assert!(looks.iter().any(|a| a.lighting.lamps.len() == 2));
        assert!(looks.iter().any(|a| a.hands.sleeve.is_none()));
        assert!(looks.iter().any(|a| a.sensor.jpeg_quality.is_some()));
        for a in &looks {
            assert!(FRAME_WIDTH.admits(a.frame.width_mm));
            assert!(CARROMMAN_DIAMETER.admits(a.carrommen.diameter_mm));
            assert!(STRIKER_DIAMETER.admits(a.striker.diameter_mm));
        }
    }

    #[test]
    fn warm_light_is_orange_and_daylight_neutral() {
        let warm = light_colour(2700.0);
        let day = light_colour(6500.0);
        assert!(warm[0] < 0.5 * warm[2]);
        assert!((day[0] - day[2]).abs() < 0.1);
    }
}
