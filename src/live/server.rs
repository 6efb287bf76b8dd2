//! The live scoreboard over HTTP, on std's `TcpListener` (four routes do
//! not need a framework): `/` the page, `/state` the view as JSON,
//! `/board.svg` the drawing, `/events` server-sent events, one per change.

use std::io::{BufRead, BufReader, Write};
use std::net::{SocketAddr, TcpListener, TcpStream};
use std::sync::{Arc, Condvar, Mutex, MutexGuard};
use std::thread;
use std::time::Duration;

use super::view::LiveView;

/// A comment line is sent on a quiet event stream this often, so proxies
/// and browsers keep it open and a closed tab is noticed.
const KEEP_ALIVE: Duration = Duration::from_secs(10);
/// Longest request head read, bytes: anything bigger is not ours.
const MAX_HEAD_BYTES: usize = 8 * 1024;

/// The latest view, shared between the session and the connections.
pub struct Hub {
    view: Mutex<LiveView>,
    changed: Condvar,
}

impl Hub {
    /// A hub showing `view`.
    pub fn new(view: LiveView) -> Arc<Hub> {
        Arc::new(Hub {
            view: Mutex::new(view),
            changed: Condvar::new(),
        })
    }

    fn lock(&self) -> MutexGuard<'_, LiveView> {
        // A connection thread that panicked cannot leave a half-written view:
        // views are replaced whole, so the poisoned value is still sound.
        self.view
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner())
    }

    /// Shows `view` (numbered after the previous one) and wakes every stream.
    pub fn publish(&self, view: &LiveView) {
        let mut current = self.lock();
        let version = current.version + 1;
        *current = view.clone();
        current.version = version;
        self.changed.notify_all();
    }

    /// The view now.
    pub fn snapshot(&self) -> LiveView {
        self.lock().clone()
    }

    /// Waits until the view is newer than `seen` or `timeout` passes.
    fn wait_newer(&self, seen: u64, timeout: Duration) -> Option<LiveView> {
        let guard = self.lock();
        let (guard, _) = self
            .changed
            .wait_timeout_while(guard, timeout, |v| v.version <= seen)
            .unwrap_or_else(|poisoned| poisoned.into_inner());
        (guard.version > seen).then(|| guard.clone())
    }
}

/// Starts serving on `addr` in the background; returns the bound address
/// (useful with port 0).
pub fn serve(addr: &str, hub: Arc<Hub>) -> std::io::Result<SocketAddr> {
    let listener = TcpListener::bind(addr)?;
    let bound = listener.local_addr()?;
    thread::spawn(move || {
        for stream in listener.incoming().flatten() {
            let hub = Arc::clone(&hub);
            thread::spawn(move || {
                // A client going away mid-answer is normal, not an error.
                let _ = handle(stream, &hub);
            });
        }
    });
    Ok(bound)
}

fn handle(stream: TcpStream, hub: &Hub) -> std::io::Result<()> {
    let mut reader = BufReader::new(stream.try_clone()?);
    let mut request_line = String::new();
    reader.read_line(&mut request_line)?;
    // Read (and ignore) the headers up to the blank line.
    let mut read = request_line.len();
    loop {
        let mut line = String::new();
        let n = reader.read_line(&mut line)?;
        read += n;
        if n == 0 || line == "\r\n" || line == "\n" || read > MAX_HEAD_BYTES {
            break;
        }
    }
    let mut parts = request_line.split_whitespace();
    let method = parts.next().unwrap_or("");
    let path = parts.next().unwrap_or("").split('?').next().unwrap_or("");
    let mut stream = stream;
    if method != "GET" {
        return respond(
            &mut stream,
            "405 Method Not Allowed",
            "text/plain",
            b"GET only\n",
        );
    }
    match path {
        "/" => respond(
            &mut stream,
            "200 OK",
            "text/html; charset=utf-8",
            hub.snapshot().page().as_bytes(),
        ),
        "/state" => {
            let json = serde_json::to_string(&hub.snapshot()).unwrap_or_else(|_| "{}".into());
            respond(&mut stream, "200 OK", "application/json", json.as_bytes())
        }
        "/board.svg" => respond(
            &mut stream,
            "200 OK",
            "image/svg+xml",
            hub.snapshot().board_svg.as_bytes(),
        ),
        "/events" => events(&mut stream, hub),
        _ => respond(&mut stream, "404 Not Found", "text/plain", b"not found\n"),
    }
}

fn respond(stream: &mut TcpStream, status: &str, kind: &str, body: &[u8]) -> std::io::Result<()> {
    write!(
        stream,
        "HTTP/1.1 {status}\r\nContent-Type: {kind}\r\nContent-Length: {}\r\nCache-Control: no-store\r\nConnection: close\r\n\r\n",
        body.len()
    )?;
    stream.write_all(body)?;
    stream.flush()
}

/// The event stream: the current view at once, then every newer one.
fn events(stream: &mut TcpStream, hub: &Hub) -> std::io::Result<()> {
    stream.write_all(
        b"HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\nCache-Control: no-store\r\nConnection: keep-alive\r\n\r\n",
    )?;
    let mut view = hub.snapshot();
    loop {
        write!(stream, "data: {}\n\n", view.update_json())?;
        stream.flush()?;
        let seen = view.version;
        loop {
            match hub.wait_newer(seen, KEEP_ALIVE) {
                Some(newer) => {
                    view = newer;
                    break;
                }
                None => {
                    stream.write_all(b": keep-alive\n\n")?;
                    stream.flush()?;
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::live::source::SourceSpec;
    use std::io::Read;

    fn get(addr: SocketAddr, path: &str) -> String {
        let mut stream = TcpStream::connect(addr).unwrap();
        write!(stream, "GET {path} HTTP/1.1\r\nHost: x\r\n\r\n").unwrap();
        let mut text = String::new();
        stream.read_to_string(&mut text).unwrap();
        text
    }

    #[test]
    fn routes_answer_and_events_follow_changes() {
        let hub = Hub::new(LiveView::new(&SourceSpec::Camera(0)));
        let addr = serve("127.0.0.1:0", Arc::clone(&hub)).unwrap();
        assert!(get(addr, "/").contains("EventSource('/events')"));
        assert!(get(addr, "/state").contains("\"status\":\"starting\""));
        assert!(get(addr, "/nope").starts_with("HTTP/1.1 404"));

        let mut stream = TcpStream::connect(addr).unwrap();
        write!(stream, "GET /events HTTP/1.1\r\n\r\n").unwrap();
        let mut reader = BufReader::new(stream);
        let mut next_event = || loop {
            let mut line = String::new();
            reader.read_line(&mut line).unwrap();
            if let Some(data) = line.strip_prefix("data: ") {
                return data.to_owned();
            }
        };
        assert!(next_event().contains("\"version\":0"));
        let mut view = hub.snapshot();
        view.status = "watching".into();
        hub.publish(&view);
        let update = next_event();
        assert!(update.contains("\"version\":1"), "{update}");
        assert!(update.contains("watching"), "{update}");
    }
}
