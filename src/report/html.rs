//! A scored match as one self-contained HTML page: the ICF score card, a
//! board diagram (inline SVG) after every stroke, the decisions with their
//! laws, the alerts and, where the video is at hand, a thumbnail of each
//! stroke embedded as a base64 JPEG. The board drawing is shared with the
//! live scoreboard page.

use std::fmt::Write as _;
use std::path::Path;

use crate::detect::video::open_capture;

use base64::Engine as _;
use nalgebra::Point2;
use opencv::core::{Mat, Size, Vector};
use opencv::prelude::*;
use opencv::{imgcodecs, imgproc, videoio};
use serde::{Deserialize, Serialize};
use thiserror::Error;

use super::scorecard;
use crate::contract::{BoardLog, OnBoard, StrokeEntry, StrokeLog};
use crate::geometry::spec::{
    CARROMMAN_RADIUS_MM, CENTRE_CIRCLE_RADIUS_MM, HALF_SURFACE_MM, OUTER_CIRCLE_RADIUS_MM,
    POCKET_RADIUS_MM, STRIKER_RADIUS_MM,
};
use crate::geometry::{
    arrow, break_arrangement, pocket_centre, seat_markings, Piece, Pocket, Seat,
};

/// Width of a stroke thumbnail, pixels: big enough to see the pieces, small
/// enough that a long match stays a page of a few megabytes.
const THUMBNAIL_WIDTH_PX: i32 = 320;
/// JPEG quality of the thumbnails (0–100).
const THUMBNAIL_JPEG_QUALITY: i32 = 70;
/// Seconds after a stroke's start at which its thumbnail is taken: the
/// striker has left the base line, so the picture shows the stroke under way.
const THUMBNAIL_DELAY_S: f64 = 0.3;

/// Why thumbnails could not be taken.
#[derive(Debug, Error)]
pub enum ThumbnailError {
    /// The video could not be opened.
    #[error("cannot open the video {}", path.display())]
    Open { path: std::path::PathBuf },
    /// OpenCV failed while seeking, decoding or encoding.
    #[error("cannot take a thumbnail from {}: {source}", path.display())]
    OpenCv {
        path: std::path::PathBuf,
        source: opencv::Error,
    },
}

/// A piece where it lies on the board, board mm (as the tracker sees it).
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct PiecePosition {
    pub piece: Piece,
    /// East of the centre, mm.
    pub x: f64,
    /// North of the centre, mm.
    pub y: f64,
}

/// What one board diagram shows.
#[derive(Debug, Clone, Copy)]
pub enum Pieces<'a> {
    /// Pieces where the camera saw them.
    Seen(&'a [PiecePosition]),
    /// Only how many pieces the laws say are on the board: they are drawn in
    /// the break arrangement as a tally, not where they lie.
    Counted(OnBoard),
}

/// The board from above, drawn from the ICF geometry (surface, pockets,
/// circles, base lines, arrows) with the pieces on it, as an `<svg>` element
/// `size_px` wide. South is at the bottom, as in the rectified top view.
pub fn board_svg(pieces: Pieces<'_>, size_px: u32) -> String {
    let half = HALF_SURFACE_MM;
    let mut svg = String::new();
    // Board mm have +y north; SVG has +y down, so y is negated throughout.
    let _ = write!(
        svg,
        r##"<svg class="board" xmlns="http://www.w3.org/2000/svg" width="{size_px}" height="{size_px}" viewBox="{} {} {} {}"><rect x="{}" y="{}" width="{}" height="{}" fill="#f3d9a4" stroke="#5a3a1a" stroke-width="8"/>"##,
        -half,
        -half,
        2.0 * half,
        2.0 * half,
        -half,
        -half,
        2.0 * half,
        2.0 * half
    );
    for pocket in [Pocket::Ne, Pocket::Nw, Pocket::Se, Pocket::Sw] {
        let c = pocket_centre(pocket);
        let _ = write!(
            svg,
            r##"<circle cx="{:.1}" cy="{:.1}" r="{POCKET_RADIUS_MM:.1}" fill="#222"/>"##,
            c.x, -c.y
        );
        let line = arrow(pocket);
        let _ = write!(
            svg,
            r##"<line x1="{:.1}" y1="{:.1}" x2="{:.1}" y2="{:.1}" stroke="#333" stroke-width="2"/>"##,
            line.start.x, -line.start.y, line.end.x, -line.end.y
        );
    }
    for seat in [Seat::South, Seat::East, Seat::North, Seat::West] {
        let markings = seat_markings(seat);
        for line in [markings.outer_line, markings.inner_line] {
            let _ = write!(
                svg,
                r##"<line x1="{:.1}" y1="{:.1}" x2="{:.1}" y2="{:.1}" stroke="#333" stroke-width="{:.1}"/>"##,
                line.start.x,
                -line.start.y,
                line.end.x,
                -line.end.y,
                line.thickness.max(2.0)
            );
        }
        for circle in markings.red_discs {
            let _ = write!(
                svg,
                r##"<circle cx="{:.1}" cy="{:.1}" r="{:.1}" fill="#c0392b"/>"##,
                circle.centre.x, -circle.centre.y, circle.radius
            );
        }
    }
    let _ = write!(
        svg,
        r##"<circle cx="0" cy="0" r="{OUTER_CIRCLE_RADIUS_MM:.1}" fill="none" stroke="#333" stroke-width="2"/><circle cx="0" cy="0" r="{CENTRE_CIRCLE_RADIUS_MM:.1}" fill="#c0392b"/>"##
    );
    let drawn: Vec<PiecePosition> = match pieces {
        Pieces::Seen(seen) => seen.to_vec(),
        Pieces::Counted(on_board) => tally(on_board),
    };
    for piece in &drawn {
        let (fill, radius) = match piece.piece {
            Piece::White => ("#fbf6e9", CARROMMAN_RADIUS_MM),
            Piece::Black => ("#1d1d1d", CARROMMAN_RADIUS_MM),
            Piece::Queen => ("#ff5fa2", CARROMMAN_RADIUS_MM),
            Piece::Striker => ("#4a90d9", STRIKER_RADIUS_MM),
        };
        let _ = write!(
            svg,
            r##"<circle class="piece {}" cx="{:.1}" cy="{:.1}" r="{radius:.1}" fill="{fill}" stroke="#777" stroke-width="1.5"/>"##,
            piece.piece.name(),
            piece.x,
            -piece.y
        );
    }
    if matches!(pieces, Pieces::Counted(_)) {
        let _ = write!(
            svg,
            r##"<text x="0" y="{:.1}" font-size="22" text-anchor="middle" fill="#5a3a1a">pieces the laws count (not their places)</text>"##,
            half - 20.0
        );
    }
    svg.push_str("</svg>");
    svg
}

/// The pieces the laws count on the board, laid out in the break
/// arrangement (Queen in the middle, then whites and blacks in order).
fn tally(on_board: OnBoard) -> Vec<PiecePosition> {
    let mut whites = on_board.white as usize;
    let mut blacks = on_board.black as usize;
    let mut queen = on_board.queen;
    let mut out = Vec::new();
    for placed in break_arrangement(Seat::South) {
        let wanted = match placed.piece {
            Piece::Queen => std::mem::take(&mut queen),
            Piece::White if whites > 0 => {
                whites -= 1;
                true
            }
            Piece::Black if blacks > 0 => {
                blacks -= 1;
                true
            }
            _ => false,
        };
        if wanted {
            out.push(position(placed.piece, placed.centre));
        }
    }
    out
}

fn position(piece: Piece, at: Point2<f64>) -> PiecePosition {
    PiecePosition {
        piece,
        x: at.x,
        y: at.y,
    }
}

/// The score so far in words: the current game's points, the match winner
/// once there is one.
pub fn result_in_words(boards: &BoardLog) -> String {
    let points = |map: &std::collections::BTreeMap<String, u32>| {
        boards
            .sides
            .iter()
            .map(|s| format!("{} {}", s.name, map.get(&s.name).copied().unwrap_or(0)))
            .collect::<Vec<_>>()
            .join(" – ")
    };
    if let Some(winner) = &boards.match_result.winner {
        return format!(
            "{winner} wins the match, games {}",
            points(&boards.match_result.games)
        );
    }
    match boards.games.last() {
        Some(game) => {
            let state = match &game.winner {
                Some(w) => format!("won by {w}"),
                None => "in progress".to_owned(),
            };
            format!("game {}: {} ({state})", game.game, points(&game.points))
        }
        None => "no board begun".to_owned(),
    }
}

/// Text made safe to put between HTML tags or in an attribute.
pub fn escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            _ => out.push(c),
        }
    }
    out
}

/// What goes into a match page besides the board log.
#[derive(Debug, Default)]
pub struct PageExtras<'a> {
    /// The stroke log, for each stroke's time and the vision's alerts.
    pub strokes: Option<&'a StrokeLog>,
    /// Where the pieces lay after each stroke, by stroke index.
    pub positions: Option<&'a [Option<Vec<PiecePosition>>]>,
    /// A JPEG thumbnail per stroke, by stroke index.
    pub thumbnails: Option<&'a [Option<Vec<u8>>]>,
    /// Page title (e.g. the clip's name).
    pub title: Option<&'a str>,
    /// A live session's events: camera drop-outs and reconnections,
    /// recalibrations, how the frames were timed.
    pub events: Option<&'a [SessionEvent]>,
}

/// One event of a live session, as the report shows it.
#[derive(Debug, Clone, PartialEq)]
pub struct SessionEvent {
    /// Session time, seconds.
    pub t: f64,
    /// `dropout`, `reconnected`, `recalibrated`, `timing`…
    pub kind: String,
    /// What happened, in words.
    pub message: String,
    /// A file the event wrote (a refitted calibration), if any.
    pub file: Option<String>,
}

/// Stylesheet shared by the report and the live page.
pub const STYLE: &str = "body{font-family:system-ui,sans-serif;margin:1.5em;color:#222;background:#fafafa}\
h1{margin-top:0}pre.scorecard{background:#fff;border:1px solid #ccc;padding:.8em;overflow-x:auto}\
table{border-collapse:collapse}td,th{border-bottom:1px solid #ddd;padding:.3em .6em;vertical-align:top;text-align:left}\
.stroke{display:flex;gap:1em;align-items:flex-start;border-top:1px solid #ccc;padding:.8em 0}\
.stroke>svg,.stroke>img{flex-shrink:0}\
.alert{color:#a40000;font-weight:bold}.laws{color:#555;font-size:.9em}img.thumb{border:1px solid #999}";

/// The whole match page.
pub fn match_page(boards: &BoardLog, extras: &PageExtras<'_>) -> String {
    let title = extras.title.unwrap_or("carrom match");
    let mut page = String::new();
    let _ = write!(
        page,
        "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\"><title>{}</title><style>{STYLE}</style></head><body>",
        escape(title)
    );
    let _ = write!(page, "<h1>{}</h1>", escape(title));
    let sides: Vec<String> = boards.sides.iter().map(|s| escape(&s.name)).collect();
    let _ = write!(
        page,
        "<p>{} — {} rules, {} stage. {}</p>",
        sides.join(" v "),
        serde_name(&boards.rules).to_uppercase(),
        serde_name(&boards.stage),
        escape(&result_in_words(boards))
    );
    let _ = write!(
        page,
        "<h2>Score card</h2><pre class=\"scorecard\" id=\"scorecard\">{}</pre>",
        escape(&scorecard(boards))
    );
    let alerts = alerts_table(boards, extras.strokes);
    if !alerts.is_empty() {
        let _ = write!(page, "<h2>Alerts</h2>{alerts}");
    }
    let events = events_table(extras.events.unwrap_or_default());
    if !events.is_empty() {
        let _ = write!(page, "<h2>Session events</h2>{events}");
    }
    page.push_str("<h2>Strokes</h2>");
    for board in &boards.boards {
        let _ = write!(
            page,
            "<h3>Game {} board {}{} — {} breaks, {} plays white</h3>",
            board.game,
            board.board,
            if board.extra_board { " (extra)" } else { "" },
            escape(&board.breaker),
            escape(&board.white)
        );
        for stroke in &board.strokes {
            page.push_str(&stroke_section(stroke, extras));
        }
        if let Some(result) = &board.result {
            let _ = write!(
                page,
                "<p class=\"result\"><b>{} wins the board: {} points</b> ({} coins, {} Queen) <span class=\"laws\">{}</span></p>",
                escape(result.winner.as_deref().unwrap_or("nobody")),
                result.points,
                result.coins,
                result.queen,
                escape(&result.laws.join(", "))
            );
        }
    }
    page.push_str("</body></html>\n");
    page
}

/// The name a value has in the JSON documents (`icf`, `league`).
fn serde_name<T: Serialize>(value: &T) -> String {
    serde_json::to_value(value)
        .ok()
        .and_then(|v| v.as_str().map(str::to_owned))
        .unwrap_or_default()
}

fn stroke_section(stroke: &StrokeEntry, extras: &PageExtras<'_>) -> String {
    let seen = extras
        .positions
        .and_then(|p| p.get(stroke.index))
        .and_then(Option::as_ref);
    let pieces = match seen {
        Some(seen) => Pieces::Seen(seen),
        None => Pieces::Counted(stroke.on_board),
    };
    let t = extras
        .strokes
        .and_then(|log| log.strokes.get(stroke.index))
        .and_then(|s| s.t)
        .map(|t| format!(" at {t:.1} s"))
        .unwrap_or_default();
    let mut html = format!(
        "<div class=\"stroke\" id=\"stroke-{}\">{}",
        stroke.index,
        board_svg(pieces, 220)
    );
    if let Some(jpeg) = extras
        .thumbnails
        .and_then(|t| t.get(stroke.index))
        .and_then(Option::as_ref)
    {
        let _ = write!(
            html,
            "<img class=\"thumb\" alt=\"stroke {}\" src=\"data:image/jpeg;base64,{}\">",
            stroke.index,
            base64::engine::general_purpose::STANDARD.encode(jpeg)
        );
    }
    let _ = write!(
        html,
        "<div><b>#{} {} ({}){t}</b><br>{}<br><span class=\"laws\">{}</span><br>on the board: {} white, {} black{}",
        stroke.index,
        escape(&stroke.player),
        stroke.seat.name(),
        escape(&stroke.note),
        escape(&stroke.laws.join(", ")),
        stroke.on_board.white,
        stroke.on_board.black,
        if stroke.on_board.queen { ", Queen" } else { "" }
    );
    for alert in &stroke.alerts {
        let _ = write!(
            html,
            "<br><span class=\"alert\">ALERT: {}</span>",
            escape(&alert.message)
        );
    }
    html.push_str("</div></div>");
    html
}

/// A live session's events as a table: when, what, and the file written.
fn events_table(events: &[SessionEvent]) -> String {
    if events.is_empty() {
        return String::new();
    }
    let mut rows = String::new();
    for event in events {
        let _ = write!(
            rows,
            "<tr class=\"event\"><td>{:.1} s</td><td>{}</td><td>{}</td><td>{}</td></tr>",
            event.t,
            escape(&event.kind),
            escape(&event.message),
            escape(event.file.as_deref().unwrap_or(""))
        );
    }
    format!("<table><tr><th>time</th><th>event</th><th>what happened</th><th>file</th></tr>{rows}</table>")
}

/// Every alert of the match, from the laws and from the vision, as a table.
fn alerts_table(boards: &BoardLog, strokes: Option<&StrokeLog>) -> String {
    let mut rows = String::new();
    for stroke in boards.boards.iter().flat_map(|b| &b.strokes) {
        for alert in &stroke.alerts {
            let _ = write!(
                rows,
                "<tr><td>#{}</td><td>laws</td><td>{}</td></tr>",
                stroke.index,
                escape(&alert.message)
            );
        }
    }
    for (index, stroke) in strokes
        .map(|l| l.strokes.as_slice())
        .unwrap_or_default()
        .iter()
        .enumerate()
    {
        let notes = stroke
            .extra
            .as_ref()
            .and_then(|e| e.pointer("/vision/alerts"))
            .and_then(|a| a.as_array());
        for note in notes.into_iter().flatten() {
            let message = note.get("message").and_then(|m| m.as_str()).unwrap_or("");
            let _ = write!(
                rows,
                "<tr><td>#{index}</td><td>vision</td><td>{}</td></tr>",
                escape(message)
            );
        }
    }
    if rows.is_empty() {
        rows
    } else {
        format!("<table><tr><th>stroke</th><th>from</th><th>alert</th></tr>{rows}</table>")
    }
}

/// One JPEG thumbnail per stroke time (`None` where the time is unknown or
/// past the video's end), taken [`THUMBNAIL_DELAY_S`] after it starts.
pub fn thumbnails(
    video: &Path,
    times: &[Option<f64>],
) -> Result<Vec<Option<Vec<u8>>>, ThumbnailError> {
    let cv = |source| ThumbnailError::OpenCv {
        path: video.to_path_buf(),
        source,
    };
    let mut capture = open_capture(video).map_err(cv)?;
    if !capture.is_opened().map_err(cv)? {
        return Err(ThumbnailError::Open {
            path: video.to_path_buf(),
        });
    }
    let mut frame = Mat::default();
    let mut small = Mat::default();
    let mut out = Vec::with_capacity(times.len());
    for t in times {
        let Some(t) = t else {
            out.push(None);
            continue;
        };
        capture
            .set(videoio::CAP_PROP_POS_MSEC, (t + THUMBNAIL_DELAY_S) * 1000.0)
            .map_err(cv)?;
        if !capture.read(&mut frame).map_err(cv)? || frame.empty() {
            out.push(None);
            continue;
        }
        let (width, height) = (frame.cols(), frame.rows());
        let scaled_height = (height * THUMBNAIL_WIDTH_PX / width.max(1)).max(1);
        imgproc::resize(
            &frame,
            &mut small,
            Size::new(THUMBNAIL_WIDTH_PX, scaled_height),
            0.0,
            0.0,
            imgproc::INTER_AREA,
        )
        .map_err(cv)?;
        let mut jpeg = Vector::<u8>::new();
        let params = Vector::from_slice(&[imgcodecs::IMWRITE_JPEG_QUALITY, THUMBNAIL_JPEG_QUALITY]);
        imgcodecs::imencode(".jpg", &small, &mut jpeg, &params).map_err(cv)?;
        out.push(Some(jpeg.to_vec()));
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn escaping_neutralises_markup() {
        assert_eq!(
            escape("<b>\"A&B\"</b>"),
            "&lt;b&gt;&quot;A&amp;B&quot;&lt;/b&gt;"
        );
    }

    #[test]
    fn a_tally_draws_exactly_the_counted_pieces() {
        let on_board = OnBoard {
            white: 3,
            black: 9,
            queen: false,
        };
        let svg = board_svg(Pieces::Counted(on_board), 100);
        assert_eq!(svg.matches("piece white").count(), 3);
        assert_eq!(svg.matches("piece black").count(), 9);
        assert_eq!(svg.matches("piece queen").count(), 0);
    }

    #[test]
    fn seen_pieces_are_drawn_where_they_lie_with_north_up() {
        let seen = [PiecePosition {
            piece: Piece::Queen,
            x: 10.0,
            y: 200.0,
        }];
        let svg = board_svg(Pieces::Seen(&seen), 100);
        assert!(
            svg.contains(r#"class="piece queen" cx="10.0" cy="-200.0""#),
            "{svg}"
        );
        assert!(!svg.contains("not their places"));
    }
}
