//! Errors from reading values, with the position where they occurred.
//!
//! Text errors carry a 1-based line and column (columns count characters,
//! not bytes) as well as the byte offset; binary errors carry the byte
//! offset into the stream, counted from 0.

use std::fmt;

/// Where in the input an error occurred.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Position {
    /// A place in textual input.
    Text {
        /// 1-based line.
        line: u64,
        /// 1-based column, in characters.
        column: u64,
        /// 0-based byte offset from the start of the stream.
        offset: u64,
    },
    /// A place in a binary value, as a 0-based byte offset from the start of
    /// the stream.
    Binary {
        /// 0-based byte offset.
        offset: u64,
    },
}

impl Position {
    /// The 0-based byte offset from the start of the stream.
    pub fn offset(&self) -> u64 {
        match *self {
            Position::Text { offset, .. } | Position::Binary { offset } => offset,
        }
    }
}

impl fmt::Display for Position {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Position::Text { line, column, .. } => write!(f, "{line}:{column}"),
            Position::Binary { offset } => write!(f, "byte {offset}"),
        }
    }
}

/// What went wrong while reading.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ReadErrorKind {
    /// The input ended inside a value, or where a value was required.
    UnexpectedEof,
    /// The input is not well-formed (bad syntax, ragged array, bad binary
    /// header, a literal out of range, ...).
    Syntax,
    /// A well-formed value of the wrong type for what was expected.
    TypeMismatch,
    /// The underlying reader failed.
    Io,
}

/// An error from reading a value, with its position and a message.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ReadError {
    /// Where it happened.
    pub position: Position,
    /// The kind of error.
    pub kind: ReadErrorKind,
    /// A human-readable message, without the position.
    pub message: String,
}

impl ReadError {
    /// A new error.
    pub fn new(position: Position, kind: ReadErrorKind, message: impl Into<String>) -> ReadError {
        ReadError {
            position,
            kind,
            message: message.into(),
        }
    }
}

impl fmt::Display for ReadError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.position, self.message)
    }
}

impl std::error::Error for ReadError {}
