//! Review tool: how `detect::refine` places the pieces of a clip's last
//! frame (a real photograph made into a still clip, say), against where the
//! tracker has them. Prints each piece's shift and writes a PNG of 4 px/mm
//! patches: the tracker's centre in red, the refined one in green with the
//! nominal outline round it. Each piece's outline radius, looked for at a
//! carromman's size and at the striker's, is printed too.
//!
//! Usage: `refine-still CLIP CAMERA_JSON OUT_PNG [FRAME]`: with FRAME, the
//! frame of that index (a stroke's rest frame, say) instead of the last.

use std::path::PathBuf;

use anyhow::{bail, Context};
use nalgebra::Point2;
use opencv::core::{self, Mat, Point, Rect, Scalar, Vector};
use opencv::imgcodecs;
use opencv::imgproc;
use opencv::prelude::*;

use carrom::calibrate::gray::GrayImage;
use carrom::detect::refine::{fit_outline_of, refine_centre, PATCH_PX_PER_MM};
use carrom::detect::{Frame, FrameReader, TopView};
use carrom::geometry::spec::{CARROMMAN_RADIUS_MM, STRIKER_RADIUS_MM};
use carrom::live::CameraModel;
use carrom::strokes::{ClipTracker, SessionOptions};

const PATCH_HALF_MM: f64 = 26.0;

fn main() -> anyhow::Result<()> {
    let args: Vec<PathBuf> = std::env::args_os().skip(1).map(PathBuf::from).collect();
    let (clip, camera_path, out, stop_at) = match args.as_slice() {
        [clip, camera, out] => (clip, camera, out, None),
        [clip, camera, out, frame] => {
            let index: u64 = frame
                .to_string_lossy()
                .parse()
                .with_context(|| format!("FRAME {} is no frame index", frame.display()))?;
            (clip, camera, out, Some(index))
        }
        _ => bail!("usage: refine-still CLIP CAMERA_JSON OUT_PNG [FRAME]"),
    };
    let camera = CameraModel::load(camera_path)?;
    let mut reader = FrameReader::open(clip)?;
    let mut tracker = ClipTracker::new(&camera, &SessionOptions::default())?;
    let (mut frame, mut last) = (Frame::empty(), Frame::empty());
    let mut read = 0u64;
    while stop_at.is_none_or(|index| read <= index) && reader.read_into(&mut frame)? {
        tracker.push(&frame)?;
        std::mem::swap(&mut frame, &mut last);
        read += 1;
    }
    let fine = TopView::new(&camera, PATCH_PX_PER_MM)?;
    let mut rectified = fine.empty_rectified();
    fine.rectify(&last, &mut rectified)?;
    let side = (2.0 * PATCH_HALF_MM * PATCH_PX_PER_MM) as i32;
    let grey = GrayImage::from_frame(&last.image, 0.0)?;
    let mut tiles = Vector::<Mat>::new();
    let (mut refined, mut total) = (0, 0);
    for track in tracker.tracker().tracks() {
        total += 1;
        let radius = track.piece.radius_mm();
        let seen = track.position;
        let better = refine_centre(&grey, tracker.top_view(), tracker.shift(), seen, radius);
        // The outline's radius looked for at each size: the rest snapshot
        // tells the striker by it (see `RestSnapshot::refine`).
        let outline_mm = |size: f64| {
            fit_outline_of(&grey, tracker.top_view(), tracker.shift(), seen, size)
                .map_or("none".to_string(), |o| format!("{:.2} mm", o.radius_mm))
        };
        println!(
            "  outline looked for as a carromman {}, as the striker {}",
            outline_mm(CARROMMAN_RADIUS_MM),
            outline_mm(STRIKER_RADIUS_MM)
        );
        match better {
            Some(at) => {
                refined += 1;
                println!(
                    "{:?} at ({:.1}, {:.1}): moved {:.2} mm",
                    track.piece,
                    seen.x,
                    seen.y,
                    (at - seen).norm()
                );
            }
            None => println!("{:?} at ({:.1}, {:.1}): kept", track.piece, seen.x, seen.y),
        }
        let corner = rectified
            .frame
            .board_to_px(seen + nalgebra::Vector2::new(-PATCH_HALF_MM, PATCH_HALF_MM));
        let area = Rect::new(corner.x as i32, corner.y as i32, side, side);
        let full = Rect::new(0, 0, rectified.image.cols(), rectified.image.rows());
        if (area & full) != area {
            continue;
        }
        let mut tile = Mat::roi(&rectified.image, area)?.try_clone()?;
        let to_tile = |p: Point2<f64>| {
            let px = rectified.frame.board_to_px(p);
            Point::new(px.x as i32 - area.x, px.y as i32 - area.y)
        };
        let red = Scalar::new(0.0, 0.0, 255.0, 0.0);
        let green = Scalar::new(0.0, 255.0, 0.0, 0.0);
        imgproc::circle(&mut tile, to_tile(seen), 3, red, -1, imgproc::LINE_AA, 0)?;
        if let Some(at) = better {
            imgproc::circle(&mut tile, to_tile(at), 3, green, -1, imgproc::LINE_AA, 0)?;
            let r = (radius * PATCH_PX_PER_MM) as i32;
            imgproc::circle(&mut tile, to_tile(at), r, green, 1, imgproc::LINE_AA, 0)?;
        }
        tiles.push(tile);
    }
    println!("{refined} of {total} pieces refined");
    if tiles.is_empty() {
        bail!("no piece to show");
    }
    let mut mosaic = Mat::default();
    core::hconcat(&tiles, &mut mosaic)?;
    imgcodecs::imwrite(&*out.to_string_lossy(), &mosaic, &Vector::new())
        .with_context(|| format!("cannot write {}", out.display()))?;
    Ok(())
}
