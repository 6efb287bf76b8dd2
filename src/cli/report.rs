//! `carrom report`: a board log (or a `live`/`batch` output folder) as one
//! self-contained HTML page.

use std::path::{Path, PathBuf};

use anyhow::{bail, Context};

use carrom::contract::{BoardLog, StrokeLog};
use carrom::live::journal::{read_events, read_positions, EVENTS_FILE, SESSION_FILE};
use carrom::live::SessionInfo;
use carrom::report::html::{match_page, thumbnails, PageExtras, SessionEvent};

/// Write a match report as one HTML page.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// A board log (`X.boardlog.json`, with `X.strokes.json` and `X.mp4`
    /// looked for beside it), or an output folder of `carrom live` or of one
    /// clip of `carrom batch` (boardlog.json, strokes.json, positions.jsonl).
    #[arg(value_name = "BOARDLOG|OUTPUT_DIR")]
    pub input: PathBuf,
    /// The HTML file to write.
    #[arg(long, value_name = "FILE")]
    pub html: PathBuf,
    /// The stroke log (for times and the vision's alerts). Default: found beside the input.
    #[arg(long, value_name = "FILE")]
    pub strokes: Option<PathBuf>,
    /// The video, for a thumbnail of each stroke. Default: found beside the input.
    #[arg(long, value_name = "FILE")]
    pub video: Option<PathBuf>,
    /// Leave the thumbnails out (a smaller page).
    #[arg(long)]
    pub no_thumbnails: bool,
}

/// Where the parts of a report come from.
struct Sources {
    boards: PathBuf,
    strokes: Option<PathBuf>,
    positions: Option<PathBuf>,
    events: Option<PathBuf>,
    video: Option<PathBuf>,
}

fn find_sources(args: &Args) -> anyhow::Result<Sources> {
    let existing = |path: PathBuf| path.is_file().then_some(path);
    let mut sources = if args.input.is_dir() {
        let dir = &args.input;
        let video = match std::fs::read_to_string(dir.join(SESSION_FILE)) {
            Ok(text) => serde_json::from_str::<SessionInfo>(&text)
                .ok()
                .and_then(|info| info.video_file())
                .and_then(existing),
            Err(_) => None,
        };
        Sources {
            boards: dir.join(carrom::batch::BOARDS_FILE),
            strokes: existing(dir.join(carrom::batch::STROKES_FILE)),
            positions: existing(dir.join(carrom::live::journal::POSITIONS_FILE)),
            events: existing(dir.join(EVENTS_FILE)),
            video,
        }
    } else {
        let stem = strip_suffix(&args.input, ".boardlog.json");
        Sources {
            boards: args.input.clone(),
            strokes: stem
                .as_ref()
                .and_then(|s| existing(with_suffix(s, ".strokes.json"))),
            positions: None,
            events: None,
            video: stem.as_ref().and_then(|s| existing(with_suffix(s, ".mp4"))),
        }
    };
    if let Some(strokes) = &args.strokes {
        sources.strokes = Some(strokes.clone());
    }
    if let Some(video) = &args.video {
        sources.video = Some(video.clone());
    }
    if args.no_thumbnails {
        sources.video = None;
    }
    Ok(sources)
}

fn strip_suffix(path: &Path, suffix: &str) -> Option<PathBuf> {
    path.to_str()
        .and_then(|p| p.strip_suffix(suffix))
        .map(PathBuf::from)
}

fn with_suffix(stem: &Path, suffix: &str) -> PathBuf {
    let mut text = stem.as_os_str().to_owned();
    text.push(suffix);
    PathBuf::from(text)
}

pub fn run(args: Args) -> anyhow::Result<()> {
    let sources = find_sources(&args)?;
    if !sources.boards.is_file() {
        bail!(
            "no board log at {} (give a board log or an output folder of carrom live/batch)",
            sources.boards.display()
        );
    }
    let boards = BoardLog::from_path(&sources.boards)
        .with_context(|| format!("reading {}", sources.boards.display()))?;
    let strokes = match &sources.strokes {
        Some(path) => Some(
            StrokeLog::from_path(path).with_context(|| format!("reading {}", path.display()))?,
        ),
        None => None,
    };
    let positions = match &sources.positions {
        Some(path) => {
            Some(read_positions(path).with_context(|| format!("reading {}", path.display()))?)
        }
        None => None,
    };
    let events: Option<Vec<SessionEvent>> = match &sources.events {
        Some(path) => Some(
            read_events(path)
                .with_context(|| format!("reading {}", path.display()))?
                .into_iter()
                .map(|e| SessionEvent {
                    t: e.t,
                    kind: e.kind,
                    message: e.message,
                    file: e.file,
                })
                .collect(),
        ),
        None => None,
    };
    let shots = match (&sources.video, &strokes) {
        (Some(video), Some(log)) => {
            let times: Vec<Option<f64>> = log.strokes.iter().map(|s| s.t).collect();
            match thumbnails(video, &times) {
                Ok(shots) => Some(shots),
                Err(error) => {
                    // A report without pictures beats no report.
                    eprintln!("carrom report: no thumbnails: {error}");
                    None
                }
            }
        }
        _ => None,
    };
    let title = args
        .input
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_else(|| "carrom match".to_owned());
    let extras = PageExtras {
        strokes: strokes.as_ref(),
        positions: positions.as_deref(),
        thumbnails: shots.as_deref(),
        title: Some(&title),
        events: events.as_deref(),
    };
    let page = match_page(&boards, &extras);
    std::fs::write(&args.html, page)
        .with_context(|| format!("cannot write {}", args.html.display()))?;
    let strokes_drawn: usize = boards.boards.iter().map(|b| b.strokes.len()).sum();
    eprintln!(
        "carrom report: {} boards, {strokes_drawn} strokes, {} thumbnails → {}",
        boards.boards.len(),
        shots
            .as_ref()
            .map_or(0, |s| s.iter().filter(|t| t.is_some()).count()),
        args.html.display()
    );
    Ok(())
}
