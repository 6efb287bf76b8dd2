//! The centre design repeats round the board's centre; a piece does not.
//! Boards print a star, a flower or a compass rose under the break
//! arrangement, never seen bare before the break and drawn nowhere in the
//! ICF drawing the empty-board model starts from, and their petals show as
//! discs once the pieces leave them, some with edges sharp enough to pass
//! for a disc's outline. Such designs are symmetric: turned a quarter or
//! half turn round the centre, a patch of print lies over the same print.
//! A piece's face matches nothing there but a twin piece lying exactly
//! where the turn takes it. So a textured patch whose colours repeat, level
//! for level, at a turn of itself round the centre is print.

use nalgebra::{Point2, Rotation2};

use crate::template::TemplateFrame;

/// Radius (mm) of the patch compared: within a carromman's face (15.1–15.9
/// mm), clear of its rim and shadow.
const PATCH_RADIUS_MM: f64 = 13.0;

/// A turn is tried only where it carries the patch clear of itself (its
/// diameter and a little): nearer the centre a patch turned overlaps its
/// own pixels and matches whatever lies there.
const CLEAR_OF_ITSELF_MM: f64 = 2.0 * PATCH_RADIUS_MM + 2.0;

/// The patch must be this textured (its colours' standard deviation, 0–255
/// levels, each channel about its own mean, over the patch's pixels) to be
/// compared: a plain patch matches plain board or a plain piece of the same
/// shade, and the lamp's light, falling off round the centre as the design
/// does, repeats at every turn. Over seven dev clips (3486, 3495, 3558,
/// 3619, 3631, 3649, 3652) the faces of carrommen and the Queen near the
/// centre read 3–14, the design's petals 24–51 (the striker's printed face
/// 59, but the striker is never taken for print).
const MIN_TEXTURE: f64 = 20.0;

/// A turn matches where the mean difference (levels, over the patch's
/// pixels and channels) is at most this fraction of the patch's texture:
/// over those clips eight of ten petals matched some turn within 0.21–0.50
/// of theirs (two within 0.86 and 0.92 only: petals whose turns lay under
/// pieces), the striker's face none nearer than 0.88.
const MATCH_FRACTION: f64 = 0.55;

/// The turns tried (eighths of a turn): designs with four- and eightfold
/// symmetry, and those with only twofold.
const EIGHTHS: [u32; 7] = [1, 2, 3, 4, 5, 6, 7];

/// Whether the patch of the top view `bgr` (rows of `frame`'s `side_px`
/// pixels) round `centre` (board mm) is print repeated by the board's
/// design: textured, and matched at some turn round the board's centre
/// that carries it clear of itself.
pub fn repeats_round_the_centre(frame: &TemplateFrame, bgr: &[u8], centre: Point2<f64>) -> bool {
    let side = frame.side_px() as usize;
    if bgr.len() < 3 * side * side {
        return false;
    }
    let offsets = patch_offsets(frame.px_per_mm);
    let Some(patch) = sample_patch(frame, bgr, side, centre, &offsets, 0.0) else {
        return false;
    };
    let texture = spread(&patch);
    if texture < MIN_TEXTURE {
        return false;
    }
    let distance = centre.coords.norm();
    EIGHTHS.iter().any(|&eighths| {
        let angle = f64::from(eighths) * std::f64::consts::FRAC_PI_4;
        let carried = 2.0 * distance * (angle / 2.0).sin().abs();
        if carried < CLEAR_OF_ITSELF_MM {
            return false;
        }
        sample_patch(frame, bgr, side, centre, &offsets, angle)
            .is_some_and(|turned| mean_difference(&patch, &turned) <= MATCH_FRACTION * texture)
    })
}

/// The board-mm offsets of the patch's samples: one per top-view pixel.
fn patch_offsets(px_per_mm: f64) -> Vec<nalgebra::Vector2<f64>> {
    let step = 1.0 / px_per_mm;
    let reach = (PATCH_RADIUS_MM / step).floor() as i32;
    let mut offsets = Vec::new();
    for dy in -reach..=reach {
        for dx in -reach..=reach {
            let v = nalgebra::Vector2::new(f64::from(dx) * step, f64::from(dy) * step);
            if v.norm() <= PATCH_RADIUS_MM {
                offsets.push(v);
            }
        }
    }
    offsets
}

/// The colours (B, G, R of each sample in turn) of the patch round
/// `centre` turned by `angle` (radians) round the board's centre, sampled
/// bilinearly; `None` where any sample falls off the view.
fn sample_patch(
    frame: &TemplateFrame,
    bgr: &[u8],
    side: usize,
    centre: Point2<f64>,
    offsets: &[nalgebra::Vector2<f64>],
    angle: f64,
) -> Option<Vec<f32>> {
    let turn = Rotation2::new(angle);
    let mut colours = Vec::with_capacity(3 * offsets.len());
    for offset in offsets {
        let px = frame.board_to_px(turn * (centre + offset));
        let (x0, y0) = (px.x.floor(), px.y.floor());
        if x0 < 0.0 || y0 < 0.0 || x0 + 1.0 >= side as f64 || y0 + 1.0 >= side as f64 {
            return None;
        }
        let (fx, fy) = ((px.x - x0) as f32, (px.y - y0) as f32);
        let (x0, y0) = (x0 as usize, y0 as usize);
        let at = |x: usize, y: usize, c: usize| f32::from(bgr[3 * (y * side + x) + c]);
        for c in 0..3 {
            let top = at(x0, y0, c) * (1.0 - fx) + at(x0 + 1, y0, c) * fx;
            let bottom = at(x0, y0 + 1, c) * (1.0 - fx) + at(x0 + 1, y0 + 1, c) * fx;
            colours.push(top * (1.0 - fy) + bottom * fy);
        }
    }
    Some(colours)
}

/// The standard deviation of the patch's colours (B, G, R of each sample
/// in turn), each channel about its own mean.
fn spread(colours: &[f32]) -> f64 {
    let n = (colours.len() / 3).max(1) as f64;
    let variance: f64 = (0..3)
        .map(|c| {
            let channel = || colours.iter().skip(c).step_by(3).map(|&v| f64::from(v));
            let mean = channel().sum::<f64>() / n;
            channel().map(|v| (v - mean).powi(2)).sum::<f64>() / n
        })
        .sum();
    (variance / 3.0).sqrt()
}

/// The mean absolute difference of two patches' samples.
fn mean_difference(a: &[f32], b: &[f32]) -> f64 {
    let n = a.len().min(b.len()).max(1) as f64;
    a.iter()
        .zip(b)
        .map(|(&x, &y)| f64::from((x - y).abs()))
        .sum::<f64>()
        / n
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A top view of light wood with a fourfold star printed round the
    /// centre (dark and red sectors alternating every eighth of a turn, out
    /// to 60 mm, fading across it so it is textured everywhere), and
    /// `pieces`: discs of the given colours at board points.
    fn view(frame: &TemplateFrame, pieces: &[(Point2<f64>, [u8; 3])]) -> Vec<u8> {
        let side = frame.side_px() as usize;
        let mut bgr = vec![0u8; 3 * side * side];
        for row in 0..side {
            for column in 0..side {
                let at = frame.px_to_board(Point2::new(column as f64, row as f64));
                let r = at.coords.norm();
                let sector =
                    ((at.y.atan2(at.x) / std::f64::consts::FRAC_PI_4).floor() as i64).rem_euclid(2);
                let mut colour: [u8; 3] = if r < 60.0 {
                    let fade = (r / 60.0 * 80.0) as u8;
                    if sector == 0 {
                        [20 + fade, 20 + fade, 30 + fade]
                    } else {
                        [30, 30 + fade / 2, 200]
                    }
                } else {
                    [140, 180, 210]
                };
                for &(centre, disc) in pieces {
                    if (at - centre).norm() <= 15.5 {
                        colour = disc;
                    }
                }
                let i = 3 * (row * side + column);
                bgr[i..i + 3].copy_from_slice(&colour);
            }
        }
        bgr
    }

    #[test]
    fn print_repeats_at_a_turn_round_the_centre_and_a_piece_does_not() {
        let frame = TemplateFrame::for_scale(0.5).unwrap();
        let black = Point2::new(-20.0, -7.0);
        let white = Point2::new(30.0, 25.0);
        let bgr = view(&frame, &[(black, [35, 35, 40]), (white, [190, 215, 230])]);
        // Bare petals, 21–40 mm out: print.
        for at in [
            Point2::new(21.0, 0.3),
            Point2::new(14.0, -17.0),
            Point2::new(-28.0, 28.0),
        ] {
            assert!(repeats_round_the_centre(&frame, &bgr, at), "{at}");
        }
        // The pieces lying on the design: not print.
        assert!(!repeats_round_the_centre(&frame, &bgr, black));
        assert!(!repeats_round_the_centre(&frame, &bgr, white));
        // Nor are they followed a few millimetres off their centres.
        for off in [
            nalgebra::Vector2::new(3.0, 2.0),
            nalgebra::Vector2::new(-2.0, -3.0),
        ] {
            assert!(!repeats_round_the_centre(&frame, &bgr, black + off));
            assert!(!repeats_round_the_centre(&frame, &bgr, white + off));
        }
        // Plain wood outside the design is too plain to judge.
        assert!(!repeats_round_the_centre(
            &frame,
            &bgr,
            Point2::new(150.0, 80.0)
        ));
        // At the very centre no turn carries the patch clear of itself.
        assert!(!repeats_round_the_centre(
            &frame,
            &bgr,
            Point2::new(3.0, 1.0)
        ));
    }
}
