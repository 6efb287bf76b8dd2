//! The renderer draws what the truth says, where the camera says: pieces in
//! their colour family at `Camera::board_to_image`, hands over what they
//! cover, motion blur along the velocity, and the same bytes for the same
//! seed.

use carrom::geometry::Piece;
use carrom::sim::camera::{Camera, Shake};
use carrom::sim::render::{Appearance, Renderer};
use carrom::sim::scene::{FrameTruth, HandTruth, PieceState, PieceTruth};
use nalgebra::{Point2, Vector2};
use opencv::core::{Mat, MatTraitConst, MatTraitConstManual, Vec3b};
use rand::rngs::StdRng;
use rand::SeedableRng;

const WIDTH: u32 = 480;
const HEIGHT: u32 = 360;

fn setup(seed: u64) -> (Camera, Appearance, Renderer) {
    let mut rng = StdRng::seed_from_u64(seed);
    let camera = Camera::random(&mut rng, WIDTH, HEIGHT).expect("camera");
    let look = Appearance::random(&mut rng);
    let renderer = Renderer::new(&look, &camera).expect("renderer");
    (camera, look, renderer)
}

fn piece(id: u8, kind: Piece, x: f64, y: f64) -> PieceTruth {
    PieceTruth {
        id,
        kind,
        x,
        y,
        vx: 0.0,
        vy: 0.0,
        z: 0.0,
        state: PieceState::OnBoard,
        pocket: None,
    }
}

fn frame(pieces: Vec<PieceTruth>, hands: Vec<HandTruth>) -> FrameTruth {
    FrameTruth {
        frame: 7,
        t: 7.0 / 30.0,
        pieces,
        hands,
    }
}

fn pixel(image: &Mat, p: Point2<f64>) -> [f64; 3] {
    let (x, y) = (p.x.round() as i32, p.y.round() as i32);
    let v = image.at_2d::<Vec3b>(y, x).expect("pixel inside the image");
    [f64::from(v[0]), f64::from(v[1]), f64::from(v[2])]
}

/// Mean colour of the 3x3 pixels around an image point.
fn patch(image: &Mat, p: Point2<f64>) -> [f64; 3] {
    let mut sum = [0.0; 3];
    for dy in -1..=1 {
        for dx in -1..=1 {
            let c = pixel(image, p + Vector2::new(f64::from(dx), f64::from(dy)));
            for k in 0..3 {
                sum[k] += c[k] / 9.0;
            }
        }
    }
    sum
}

fn brightness(c: [f64; 3]) -> f64 {
    (c[0] + c[1] + c[2]) / 3.0
}

/// How much redder than the other channels a colour is.
fn redness(c: [f64; 3]) -> f64 {
    c[2] - c[0].max(c[1])
}

/// Pixels that turned clearly red, and darker, from `before` to `image`
/// (the board has printed red circles, plywood is reddish, some tables are
/// red): (count, centroid, the pixels).
fn new_red_pixels(image: &Mat, before: &Mat) -> (usize, Point2<f64>, Vec<Point2<f64>>) {
    let bytes = image.data_bytes().expect("continuous image");
    let old = before.data_bytes().expect("continuous image");
    let width = image.cols() as usize;
    let mut points = Vec::new();
    for (i, (px, was)) in bytes.chunks_exact(3).zip(old.chunks_exact(3)).enumerate() {
        let c = [f64::from(px[0]), f64::from(px[1]), f64::from(px[2])];
        let w = [f64::from(was[0]), f64::from(was[1]), f64::from(was[2])];
        if redness(c) > 40.0 && redness(c) > redness(w) + 30.0 && brightness(c) < brightness(w) {
            points.push(Point2::new((i % width) as f64, (i / width) as f64));
        }
    }
    let n = points.len().max(1) as f64;
    let centroid = points
        .iter()
        .fold(Point2::origin(), |acc: Point2<f64>, p| acc + p.coords / n);
    (points.len(), centroid, points)
}

/// Board positions away from the printed red circles, spread over the surface.
const SPOTS: [(f64, f64); 4] = [
    (120.0, 60.0),
    (-150.0, -90.0),
    (60.0, -200.0),
    (-220.0, 170.0),
];

#[test]
fn pieces_have_their_colour_family() {
    for seed in 0..6 {
        let (camera, _look, mut renderer) = setup(seed);
        let empty = renderer.render_new(&frame(vec![], vec![])).unwrap();
        let pieces = vec![
            piece(0, Piece::Queen, SPOTS[0].0, SPOTS[0].1),
            piece(10, Piece::Black, SPOTS[1].0, SPOTS[1].1),
            piece(1, Piece::White, SPOTS[2].0, SPOTS[2].1),
        ];
        let image = renderer.render_new(&frame(pieces.clone(), vec![])).unwrap();
        let at = |p: &PieceTruth| camera.board_to_image(Point2::new(p.x, p.y)).unwrap();
        let queen = patch(&image, at(&pieces[0]));
        let black = patch(&image, at(&pieces[1]));
        let white = patch(&image, at(&pieces[2]));
        let board_under_black = patch(&empty, at(&pieces[1]));
        assert!(redness(queen) > 40.0, "seed {seed}: queen {queen:?}");
        assert!(
            brightness(black) < 0.6 * brightness(board_under_black),
            "seed {seed}: black {black:?} on board {board_under_black:?}"
        );
        assert!(brightness(black) < 90.0, "seed {seed}: black {black:?}");
        assert!(
            brightness(white) > brightness(black) + 50.0,
            "seed {seed}: white {white:?} vs black {black:?}"
        );
        // Cream or natural wood: never bluish.
        assert!(white[2] >= white[0], "seed {seed}: white {white:?}");
    }
}

#[test]
fn a_piece_lands_where_the_camera_maps_it() {
    for seed in 10..16 {
        let (camera, _look, mut renderer) = setup(seed);
        let empty = renderer.render_new(&frame(vec![], vec![])).unwrap();
        for &(x, y) in &SPOTS {
            let queen = piece(0, Piece::Queen, x, y);
            let image = renderer.render_new(&frame(vec![queen], vec![])).unwrap();
            let (count, centroid, _) = new_red_pixels(&image, &empty);
            assert!(
                count > 10,
                "seed {seed}: the Queen at ({x}, {y}) shows {count} red pixels"
            );
            // The top of the disc stands a few mm up: the camera sees it a
            // little away from the nadir, so compare with the middle of the
            // disc's height.
            let middle = camera.parallax_on_board(Point2::new(x, y), 4.0);
            let expected = camera.board_to_image(middle).unwrap();
            let error = (centroid - expected).norm();
            assert!(error < 1.0, "seed {seed}: Queen at ({x}, {y}) drawn at {centroid}, camera says {expected} (off {error:.2} px)");
        }
    }
}

#[test]
fn same_seed_gives_the_same_bytes_and_another_seed_does_not() {
    let truth = frame(
        vec![
            piece(0, Piece::Queen, 0.0, 0.0),
            PieceTruth {
                vx: 900.0,
                vy: -400.0,
                ..piece(19, Piece::Striker, 100.0, -200.0)
            },
        ],
        vec![HandTruth {
            x: -100.0,
            y: -250.0,
            arm_angle: -1.2,
        }],
    );
    let render = |seed: u64| {
        let (_, _, mut renderer) = setup(seed);
        renderer
            .render_new(&truth)
            .unwrap()
            .data_bytes()
            .unwrap()
            .to_vec()
    };
    let first = render(21);
    assert_eq!(first, render(21));
    assert_ne!(first, render(22));
}

#[test]
fn a_hand_hides_the_piece_under_it() {
    for seed in 30..34 {
        let (_camera, _look, mut renderer) = setup(seed);
        let arm_angle: f64 = -2.0;
        let tip = Point2::new(160.0, 170.0);
        // Under the palm: a hand's length back from the fingertip, along the arm.
        let under = tip + Vector2::new(arm_angle.cos(), arm_angle.sin()) * 100.0;
        let queen = piece(0, Piece::Queen, under.x, under.y);
        let hand = HandTruth {
            x: tip.x,
            y: tip.y,
            arm_angle,
        };
        let empty = renderer.render_new(&frame(vec![], vec![])).unwrap();
        let bare = renderer.render_new(&frame(vec![queen], vec![])).unwrap();
        let (shown, _, _) = new_red_pixels(&bare, &empty);
        assert!(shown > 10, "seed {seed}: the Queen shows without the hand");
        let hand_only = renderer.render_new(&frame(vec![], vec![hand])).unwrap();
        let covered = renderer
            .render_new(&frame(vec![queen], vec![hand]))
            .unwrap();
        let (red_left, _, _) = new_red_pixels(&covered, &hand_only);
        assert_eq!(
            red_left, 0,
            "seed {seed}: {red_left} red pixels show through the hand"
        );
    }
}

/// Weighted by how much redder each pixel became: the centroid and the
/// variances along and across a direction.
fn red_moments(image: &Mat, before: &Mat, axis: Vector2<f64>) -> (Point2<f64>, f64, f64) {
    let bytes = image.data_bytes().expect("continuous image");
    let old = before.data_bytes().expect("continuous image");
    let width = image.cols() as usize;
    let mut samples = Vec::new();
    for (i, (px, was)) in bytes.chunks_exact(3).zip(old.chunks_exact(3)).enumerate() {
        let c = [f64::from(px[0]), f64::from(px[1]), f64::from(px[2])];
        let w = [f64::from(was[0]), f64::from(was[1]), f64::from(was[2])];
        let weight = (redness(c) - redness(w) - 10.0).max(0.0);
        if weight > 0.0 {
            samples.push((Point2::new((i % width) as f64, (i / width) as f64), weight));
        }
    }
    let total: f64 = samples.iter().map(|s| s.1).sum();
    let centroid = samples
        .iter()
        .fold(Point2::origin(), |acc: Point2<f64>, (p, w)| {
            acc + p.coords * (w / total)
        });
    let across = Vector2::new(-axis.y, axis.x);
    let variance = |dir: Vector2<f64>| {
        samples
            .iter()
            .map(|(p, w)| w * (p - centroid).dot(&dir).powi(2))
            .sum::<f64>()
            / total
    };
    (centroid, variance(axis), variance(across))
}

#[test]
fn moving_pieces_smear_along_their_velocity() {
    let (camera, look, mut renderer) = setup(41);
    let at = Point2::new(-60.0, 120.0);
    // Fast enough to travel 80 mm (two and a half diameters) during this
    // look's exposure.
    let speed = 80.0 / look.sensor.exposure_s;
    let direction = Vector2::new(0.6, 0.8);
    let moving = PieceTruth {
        vx: direction.x * speed,
        vy: direction.y * speed,
        ..piece(0, Piece::Queen, at.x, at.y)
    };
    let still = piece(0, Piece::Queen, at.x, at.y);
    let image_direction = {
        let a = camera.board_to_image(at).unwrap();
        let b = camera.board_to_image(at + direction).unwrap();
        (b - a).normalize()
    };
    let empty = renderer.render_new(&frame(vec![], vec![])).unwrap();
    let still_image = renderer.render_new(&frame(vec![still], vec![])).unwrap();
    let moving_image = renderer.render_new(&frame(vec![moving], vec![])).unwrap();
    let (_, still_along, still_across) = red_moments(&still_image, &empty, image_direction);
    let (centroid, along, across) = red_moments(&moving_image, &empty, image_direction);
    assert!(
        (still_along / still_across - 1.0).abs() < 0.3,
        "a still disc is round: {still_along} x {still_across}"
    );
    assert!(
        along > 3.0 * across,
        "smeared along the motion: {along} x {across}"
    );
    assert!(
        along > 3.0 * still_along,
        "longer than the still disc: {along} vs {still_along}"
    );
    // The smear is centred on the truth position.
    let expected = camera
        .board_to_image(camera.parallax_on_board(at, 4.0))
        .unwrap();
    assert!(
        (centroid - expected).norm() < 1.0,
        "centroid {centroid} vs {expected}"
    );
}

#[test]
fn pocketed_pieces_are_not_drawn() {
    let (_, _, mut renderer) = setup(51);
    let queen = PieceTruth {
        state: PieceState::Pocketed,
        ..piece(0, Piece::Queen, 100.0, 100.0)
    };
    let empty = renderer.render_new(&frame(vec![], vec![])).unwrap();
    let image = renderer.render_new(&frame(vec![queen], vec![])).unwrap();
    assert_eq!(image.data_bytes().unwrap(), empty.data_bytes().unwrap());
}

#[test]
fn camera_shake_moves_the_picture_as_the_camera_json_says() {
    let mut rng = StdRng::seed_from_u64(61);
    let still = Camera::random(&mut rng, WIDTH, HEIGHT).unwrap();
    let look = Appearance::random(&mut rng);
    let shake = Shake {
        seed: 5,
        window_frames: 20,
        probability: 1.0,
        max_amplitude_px: 4.0,
        duration_frames: 10,
    };
    let camera = Camera::new(still.intrinsics(), *still.pose(), shake).unwrap();
    let shaken = (0..200u32)
        .find(|&f| shake.offset(f).norm() > 2.0)
        .expect("a frame with a visible bump");
    let mut renderer = Renderer::new(&look, &camera).unwrap();
    let at = Point2::new(130.0, -70.0);
    let with = |pieces: Vec<PieceTruth>| FrameTruth {
        frame: shaken,
        ..frame(pieces, vec![])
    };
    let empty = renderer.render_new(&with(vec![])).unwrap();
    let image = renderer
        .render_new(&with(vec![piece(0, Piece::Queen, at.x, at.y)]))
        .unwrap();
    let (count, centroid, _) = new_red_pixels(&image, &empty);
    assert!(count > 10);
    let expected = camera
        .board_to_image_at(shaken, camera.parallax_on_board(at, 4.0))
        .unwrap();
    let unshaken = camera
        .board_to_image(camera.parallax_on_board(at, 4.0))
        .unwrap();
    assert!(
        (centroid - expected).norm() < 1.0,
        "drawn at {centroid}, camera says {expected}"
    );
    assert!((centroid - unshaken).norm() > 1.5, "the shake must show");
}
