//! Why a public document could not be read or written.

use std::path::PathBuf;

/// A stroke log or board log that could not be read or written.
#[derive(Debug, thiserror::Error)]
pub enum ContractError {
    /// The file could not be opened, read or written.
    #[error("{}: {source}", path.display())]
    Io {
        path: PathBuf,
        #[source]
        source: std::io::Error,
    },
    /// The text is not JSON at all.
    #[error("not valid JSON: {0}")]
    Syntax(#[source] serde_json::Error),
    /// The document names another format (or none).
    #[error("format: expected \"{expected}\", found {found}")]
    WrongFormat {
        expected: &'static str,
        found: String,
    },
    /// The document is of a version this program does not read.
    #[error("version: {format} version {found} is not supported (this program reads version {expected})")]
    WrongVersion {
        format: &'static str,
        expected: u32,
        found: String,
    },
    /// A field is missing, of the wrong type or has a value outside its set.
    /// `path` is the JSON path, e.g. `strokes[3].pocketed[0].piece`.
    #[error("{path}: {message}")]
    Field { path: String, message: String },
    /// The board log could not be turned into JSON (not expected to happen).
    #[error("cannot write the board log: {0}")]
    Write(#[source] serde_json::Error),
}
