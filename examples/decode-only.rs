//! Decodes a clip with OpenCV and does nothing else: the baseline that
//! `scripts/bench-track.sh` compares `carrom track` with. Prints the frame count.

use std::path::PathBuf;

use carrom::detect::{Frame, FrameReader};

fn main() -> anyhow::Result<()> {
    let path: PathBuf = std::env::args_os()
        .nth(1)
        .map(PathBuf::from)
        .ok_or_else(|| anyhow::anyhow!("usage: decode-only VIDEO"))?;
    let mut reader = FrameReader::open(&path)?;
    let mut frame = Frame::empty();
    let mut frames = 0u64;
    while reader.read_into(&mut frame)? {
        frames += 1;
    }
    println!("{frames}");
    Ok(())
}
