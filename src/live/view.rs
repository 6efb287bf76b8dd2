//! What the live scoreboard shows, as one value: the score, whose turn it
//! is, the last strokes with their laws, the alerts and the board drawing.
//! The server sends it as JSON on every change and renders it as the page.

use std::collections::VecDeque;
use std::fmt::Write as _;

use serde::Serialize;

use super::source::SourceSpec;
use crate::contract::{BoardLog, MatchSetup, OnBoard, StrokeLog};
use crate::geometry::Seat;
use crate::report::html::{board_svg, escape, result_in_words, PiecePosition, Pieces, STYLE};

/// Strokes listed on the scoreboard, newest first.
const RECENT_STROKES: usize = 8;
/// Alerts listed on the scoreboard, newest first.
const RECENT_ALERTS: usize = 10;
/// Size of the board drawing on the page, pixels.
const BOARD_PX: u32 = 480;

/// One side's score.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct SideScore {
    pub name: String,
    /// Points in the current game.
    pub points: u32,
    /// Games won.
    pub games: u32,
}

/// One stroke as the scoreboard lists it.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct RecentStroke {
    pub index: usize,
    pub player: String,
    pub seat: Seat,
    pub note: String,
    pub laws: Vec<String>,
    pub alerts: Vec<String>,
}

/// Everything the live page shows.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct LiveView {
    /// Counts every change, so a client can tell a new view from a repeat.
    pub version: u64,
    /// `starting`, `watching`, `reconnecting` or `finished`.
    pub status: String,
    /// The camera, stream or file watched.
    pub source: String,
    /// Strokes scored.
    pub strokes: usize,
    pub sides: Vec<SideScore>,
    /// The game and board being played.
    pub game: u32,
    pub board: u32,
    /// Who strikes next, `None` before the first stroke or after the match.
    pub next_player: Option<String>,
    pub next_seat: Option<Seat>,
    /// The score in words.
    pub result: String,
    pub recent: Vec<RecentStroke>,
    /// Newest first: the laws' and the vision's alerts and session events.
    pub alerts: VecDeque<String>,
    /// What the laws say is on the board now.
    pub on_board: Option<OnBoard>,
    /// The board drawing (inline SVG).
    pub board_svg: String,
    #[serde(skip)]
    pieces: Option<Vec<PiecePosition>>,
}

impl LiveView {
    /// The view before anything is seen.
    pub fn new(source: &SourceSpec) -> LiveView {
        let mut view = LiveView {
            version: 0,
            status: "starting".into(),
            source: match source {
                SourceSpec::Camera(index) => format!("camera {index}"),
                SourceSpec::Stream(url) => url.clone(),
                SourceSpec::File(path) => path.display().to_string(),
            },
            strokes: 0,
            sides: Vec::new(),
            game: 1,
            board: 1,
            next_player: None,
            next_seat: None,
            result: "waiting for the first stroke".into(),
            recent: Vec::new(),
            alerts: VecDeque::new(),
            on_board: None,
            board_svg: String::new(),
            pieces: None,
        };
        view.redraw();
        view
    }

    fn redraw(&mut self) {
        let pieces = match (&self.pieces, self.on_board) {
            (Some(seen), _) => Pieces::Seen(seen),
            (None, Some(counted)) => Pieces::Counted(counted),
            (None, None) => Pieces::Seen(&[]),
        };
        self.board_svg = board_svg(pieces, BOARD_PX);
    }

    /// Where the camera sees the pieces now.
    pub fn set_pieces(&mut self, pieces: Vec<PiecePosition>) {
        if self.pieces.as_ref() != Some(&pieces) {
            self.pieces = Some(pieces);
            self.redraw();
        }
    }

    /// A session event (drop-out, recalibration…) for the alert list.
    pub fn note_event(&mut self, kind: &str, message: &str) {
        self.push_alert(format!("{kind}: {message}"));
    }

    fn push_alert(&mut self, alert: String) {
        // Rescoring after an amended stroke raises the same alerts again.
        if self.alerts.contains(&alert) {
            return;
        }
        self.alerts.push_front(alert);
        self.alerts.truncate(RECENT_ALERTS);
    }

    /// The match as scored after the latest stroke.
    pub fn set_match(
        &mut self,
        setup: &MatchSetup,
        log: &StrokeLog,
        boards: Option<&BoardLog>,
        next_seat: Option<Seat>,
        refusal: Option<String>,
    ) {
        self.strokes = log.strokes.len();
        self.next_seat = next_seat;
        self.next_player = next_seat.and_then(|seat| setup.seats.get(&seat).cloned());
        if let Some(refusal) = refusal {
            self.push_alert(format!("laws: {refusal}"));
        }
        let Some(boards) = boards else {
            return;
        };
        let game = boards.games.last();
        self.sides = boards
            .sides
            .iter()
            .map(|side| SideScore {
                name: side.name.clone(),
                points: game
                    .and_then(|g| g.points.get(&side.name).copied())
                    .unwrap_or(0),
                games: boards
                    .match_result
                    .games
                    .get(&side.name)
                    .copied()
                    .unwrap_or(0),
            })
            .collect();
        if let Some(current) = boards.boards.last() {
            self.game = current.game;
            self.board = current.board;
        }
        self.result = result_in_words(boards);
        let entries: Vec<_> = boards.boards.iter().flat_map(|b| &b.strokes).collect();
        let newest_alerts: Vec<String> = entries
            .last()
            .map(|entry| entry.alerts.iter().map(|a| a.message.clone()).collect())
            .unwrap_or_default();
        self.recent = entries
            .iter()
            .rev()
            .take(RECENT_STROKES)
            .map(|entry| RecentStroke {
                index: entry.index,
                player: entry.player.clone(),
                seat: entry.seat,
                note: entry.note.clone(),
                laws: entry.laws.clone(),
                alerts: entry
                    .alerts
                    .iter()
                    .map(|a| a.message.clone())
                    .chain(vision_alerts(log, entry.index))
                    .collect(),
            })
            .collect();
        if let Some(entry) = entries.last() {
            for alert in newest_alerts
                .into_iter()
                .chain(vision_alerts(log, entry.index))
            {
                self.push_alert(format!("stroke #{}: {alert}", entry.index));
            }
            self.on_board = Some(entry.on_board);
        }
        if self.pieces.is_none() {
            self.redraw();
        }
    }

    /// The whole page, showing this view, which then follows `/events`.
    pub fn page(&self) -> String {
        let mut page = String::new();
        let _ = write!(
            page,
            "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\"><title>carrom live</title><style>{STYLE}\
.live{{display:flex;gap:2em;flex-wrap:wrap}}.live>div:last-child{{flex:1;min-width:320px}}#score{{font-size:1.4em;font-weight:bold}}#status{{color:#555}}</style></head><body>\
<h1>carrom live</h1><p id=\"status\">{}</p><div class=\"live\"><div id=\"board\">{}</div><div>\
<p id=\"score\">{}</p><p id=\"turn\">{}</p><p id=\"result\">{}</p><p>strokes scored: <span id=\"strokes\">{}</span></p>\
<h2>Last strokes</h2><ol id=\"recent\">{}</ol><h2>Alerts</h2><ul id=\"alerts\">{}</ul></div></div>\
<script>{SCRIPT}</script></body></html>\n",
            escape(&self.status_line()),
            self.board_svg,
            escape(&self.score_line()),
            escape(&self.turn_line()),
            escape(&self.result),
            self.strokes,
            self.recent_html(),
            self.alerts_html()
        );
        page
    }

    fn status_line(&self) -> String {
        format!("{} — {}", self.status, self.source)
    }

    /// `Asha 7 – Ben 3 (game 1, board 2); on the board: 5 white, 8 black`:
    /// the game points, and the pieces left, so the line moves with every pocketing.
    fn score_line(&self) -> String {
        if self.sides.is_empty() {
            return "no stroke yet".into();
        }
        let sides: Vec<String> = self
            .sides
            .iter()
            .map(|s| format!("{} {}", s.name, s.points))
            .collect();
        let pieces = match self.on_board {
            Some(on) => format!(
                "; on the board: {} white, {} black{}",
                on.white,
                on.black,
                if on.queen { ", Queen" } else { "" }
            ),
            None => String::new(),
        };
        format!(
            "{} (game {}, board {}){pieces}",
            sides.join(" – "),
            self.game,
            self.board
        )
    }

    fn turn_line(&self) -> String {
        match (&self.next_player, self.next_seat) {
            (Some(player), Some(seat)) => format!("to strike: {player} ({})", seat.name()),
            _ => String::new(),
        }
    }

    fn recent_html(&self) -> String {
        let mut html = String::new();
        for stroke in &self.recent {
            let _ = write!(
                html,
                "<li value=\"{}\"><b>{}</b> ({}): {} <span class=\"laws\">[{}]</span>",
                stroke.index,
                escape(&stroke.player),
                stroke.seat.name(),
                escape(&stroke.note),
                escape(&stroke.laws.join(", "))
            );
            for alert in &stroke.alerts {
                let _ = write!(html, " <span class=\"alert\">{}</span>", escape(alert));
            }
            html.push_str("</li>");
        }
        html
    }

    fn alerts_html(&self) -> String {
        self.alerts
            .iter()
            .map(|a| format!("<li class=\"alert\">{}</li>", escape(a)))
            .collect()
    }

    /// The parts of the page that change, as JSON for `/events`.
    pub fn update_json(&self) -> String {
        serde_json::json!({
            "version": self.version,
            "status": self.status_line(),
            "score": self.score_line(),
            "turn": self.turn_line(),
            "result": self.result,
            "strokes": self.strokes,
            "board": self.board_svg,
            "recent": self.recent_html(),
            "alerts": self.alerts_html(),
            "view": self,
        })
        .to_string()
    }
}

fn vision_alerts(log: &StrokeLog, index: usize) -> Vec<String> {
    log.strokes
        .get(index)
        .and_then(|s| s.extra.as_ref())
        .and_then(|e| e.pointer("/vision/alerts"))
        .and_then(|a| a.as_array())
        .map(|notes| {
            notes
                .iter()
                .filter_map(|n| n.get("message").and_then(|m| m.as_str()))
                .map(str::to_owned)
                .collect()
        })
        .unwrap_or_default()
}

/// The page's script: each server-sent event replaces the changing parts.
/// `document.body.dataset.updates` counts the events received (for tests).
const SCRIPT: &str = "let updates=0;const es=new EventSource('/events');\
es.onmessage=(e)=>{const v=JSON.parse(e.data);updates++;document.body.dataset.updates=updates;\
document.body.dataset.version=v.version;\
for(const k of ['status','score','turn','result','strokes']){document.getElementById(k).textContent=v[k];}\
document.getElementById('board').innerHTML=v.board;document.getElementById('recent').innerHTML=v.recent;\
document.getElementById('alerts').innerHTML=v.alerts;};";

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_page_escapes_what_it_shows() {
        let mut view = LiveView::new(&SourceSpec::File("<clip>.mp4".into()));
        view.note_event("dropout", "a <b> & c");
        let page = view.page();
        assert!(page.contains("&lt;clip&gt;.mp4"));
        assert!(page.contains("dropout: a &lt;b&gt; &amp; c"));
        assert!(page.contains("<svg class=\"board\""));
    }

    #[test]
    fn alerts_keep_only_the_newest() {
        let mut view = LiveView::new(&SourceSpec::Camera(0));
        for i in 0..RECENT_ALERTS + 5 {
            view.note_event("event", &i.to_string());
        }
        assert_eq!(view.alerts.len(), RECENT_ALERTS);
        assert_eq!(
            view.alerts.front().map(String::as_str),
            Some(format!("event: {}", RECENT_ALERTS + 4).as_str())
        );
        // A repeat (the same alert after a rescore) is not listed twice.
        view.note_event("event", &(RECENT_ALERTS + 4).to_string());
        assert_eq!(view.alerts.len(), RECENT_ALERTS);
        assert_eq!(
            view.alerts
                .iter()
                .filter(|a| a.ends_with(&format!(": {}", RECENT_ALERTS + 4)))
                .count(),
            1
        );
    }
}
