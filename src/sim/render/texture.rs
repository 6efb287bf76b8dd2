//! Procedural texture noise: smooth value noise and its fractal sums, a pure
//! function of a seed and a position, so a board's wood grain and powder are
//! fixed by the appearance seed and need no stored images.

/// A 64-bit mix of a seed and a lattice cell (SplitMix64 finaliser).
fn hash(seed: u64, x: i64, y: i64) -> u64 {
    let mut z = seed
        ^ (x as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15)
        ^ (y as u64).wrapping_mul(0xC2B2_AE3D_27D4_EB4F);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// A uniform value in [0, 1) for a lattice cell.
pub fn cell_value(seed: u64, x: i64, y: i64) -> f32 {
    (hash(seed, x, y) >> 40) as f32 / (1u64 << 24) as f32
}

/// Smooth value noise in [0, 1) with unit lattice spacing.
pub fn value_noise(seed: u64, x: f32, y: f32) -> f32 {
    let (fx, fy) = (x.floor(), y.floor());
    let (ix, iy) = (fx as i64, fy as i64);
    let (tx, ty) = (x - fx, y - fy);
    // Quintic fade: continuous slope, so no lattice creases show.
    let fade = |t: f32| t * t * t * (t * (t * 6.0 - 15.0) + 10.0);
    let (sx, sy) = (fade(tx), fade(ty));
    let a = cell_value(seed, ix, iy);
    let b = cell_value(seed, ix + 1, iy);
    let c = cell_value(seed, ix, iy + 1);
    let d = cell_value(seed, ix + 1, iy + 1);
    let top = a + (b - a) * sx;
    let bottom = c + (d - c) * sx;
    top + (bottom - top) * sy
}

/// Fractal sum of `octaves` value noises, each twice the frequency and half
/// the weight of the one before; in [0, 1).
pub fn fbm(seed: u64, x: f32, y: f32, octaves: u32) -> f32 {
    let (mut sum, mut weight, mut total, mut frequency) = (0.0, 1.0, 0.0, 1.0);
    for octave in 0..octaves {
        sum += weight
            * value_noise(
                seed.wrapping_add(u64::from(octave)),
                x * frequency,
                y * frequency,
            );
        total += weight;
        weight *= 0.5;
        frequency *= 2.03;
    }
    sum / total
}

/// A standard normal sample from two uniforms (Box–Muller).
pub fn normal_from_uniforms(u1: f32, u2: f32) -> f32 {
    let u1 = u1.max(1e-7);
    (-2.0 * u1.ln()).sqrt() * (std::f32::consts::TAU * u2).cos()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn noise_is_deterministic_bounded_and_seed_dependent() {
        let mut differs = false;
        for i in 0..500 {
            let (x, y) = (i as f32 * 0.37, i as f32 * 0.11);
            let v = fbm(3, x, y, 4);
            assert!((0.0..1.0).contains(&v));
            assert_eq!(v, fbm(3, x, y, 4));
            differs |= (v - fbm(4, x, y, 4)).abs() > 1e-3;
        }
        assert!(differs);
    }

    #[test]
    fn value_noise_is_continuous() {
        for i in 0..200 {
            let x = i as f32 * 0.05;
            let step = (value_noise(9, x, 1.3) - value_noise(9, x + 1e-3, 1.3)).abs();
            assert!(step < 0.01, "jump {step} at {x}");
        }
    }

    #[test]
    fn normals_have_unit_spread() {
        let n = 20_000;
        let samples: Vec<f32> = (0..n)
            .map(|i| normal_from_uniforms(cell_value(1, i, 0), cell_value(2, i, 0)))
            .collect();
        let mean = samples.iter().sum::<f32>() / n as f32;
        let var = samples.iter().map(|s| (s - mean) * (s - mean)).sum::<f32>() / n as f32;
        assert!(
            mean.abs() < 0.05 && (var - 1.0).abs() < 0.08,
            "mean {mean} var {var}"
        );
    }
}
