//! `carrom board`: draws the exact ICF board seen from above into a PNG file,
//! optionally with the break arrangement.

use std::path::PathBuf;

use anyhow::{bail, Context};

use carrom::geometry::Seat;
use carrom::template::{self, TemplateOptions, MAX_PX_PER_MM, MIN_PX_PER_MM};

/// Draw the exact ICF board as seen from above (south at the bottom).
#[derive(Debug, clap::Args)]
pub struct Args {
    /// The PNG file to write (its name must end in .png).
    #[arg(long, value_name = "FILE")]
    pub png: PathBuf,

    /// Scale in pixels per millimetre of board (0.1 to 10). At 1 the image is
    /// 889 px square, frame included.
    #[arg(
        long,
        value_name = "N",
        default_value_t = 1.0,
        allow_negative_numbers = true
    )]
    pub px_per_mm: f64,

    /// Also draw the pieces in their break arrangement (ICF 41).
    #[arg(long)]
    pub arrangement: bool,

    /// The seat of the player who breaks (south, east, north, west); the
    /// arrangement is turned to face them. Implies --arrangement.
    #[arg(long, value_name = "SEAT", value_parser = parse_seat)]
    pub breaker: Option<Seat>,
}

fn parse_seat(text: &str) -> Result<Seat, String> {
    Seat::TURN_ORDER
        .into_iter()
        .find(|seat| seat.name().eq_ignore_ascii_case(text))
        .ok_or_else(|| format!("'{text}' is not a seat; use south, east, north or west"))
}

/// Draws the board and writes it to `args.png`.
pub fn run(args: Args) -> anyhow::Result<()> {
    let is_png = args
        .png
        .extension()
        .is_some_and(|ext| ext.eq_ignore_ascii_case("png"));
    if !is_png {
        bail!(
            "{}: the output is a PNG image, so its name must end in .png",
            args.png.display()
        );
    }
    if !(MIN_PX_PER_MM..=MAX_PX_PER_MM).contains(&args.px_per_mm) {
        bail!(
            "--px-per-mm {} is out of range: use a scale from {MIN_PX_PER_MM} to {MAX_PX_PER_MM} pixels per millimetre",
            args.px_per_mm
        );
    }
    let arrangement_for = match (args.arrangement, args.breaker) {
        (_, Some(seat)) => Some(seat),
        (true, None) => Some(Seat::South),
        (false, None) => None,
    };
    let drawn = template::draw_board(&TemplateOptions {
        px_per_mm: args.px_per_mm,
        arrangement_for,
    })
    .context("drawing the board")?;
    // The error names the file itself; the context says what was being done.
    template::write_png(&drawn.image, &args.png).context("saving the board image")?;
    println!(
        "wrote {} ({} px square, {} px/mm)",
        args.png.display(),
        drawn.frame.side_px(),
        args.px_per_mm
    );
    Ok(())
}
