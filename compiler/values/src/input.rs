//! A buffered byte source that knows where it is.
//!
//! [`Input`] wraps any [`std::io::Read`] and offers one byte of look-ahead
//! (`peek`), single-byte advance (`bump`) with line and column tracking for
//! text, and bulk reads for binary payloads. It never reads further ahead
//! than its internal buffer, so a stream holding several values can be read
//! one value at a time.

use std::io::{self, Read};

use crate::error::{Position, ReadError, ReadErrorKind};

const BUF_SIZE: usize = 1 << 16;

/// A byte stream with one byte of look-ahead and position tracking.
pub(crate) struct Input<R> {
    inner: R,
    buf: Vec<u8>,
    pos: usize,
    len: usize,
    eof: bool,
    offset: u64,
    line: u64,
    column: u64,
}

impl<R: Read> Input<R> {
    pub(crate) fn new(inner: R) -> Input<R> {
        Input {
            inner,
            buf: vec![0; BUF_SIZE],
            pos: 0,
            len: 0,
            eof: false,
            offset: 0,
            line: 1,
            column: 1,
        }
    }

    /// The current position, as a text position.
    pub(crate) fn text_pos(&self) -> Position {
        Position::Text {
            line: self.line,
            column: self.column,
            offset: self.offset,
        }
    }

    /// The current position, as a binary byte offset.
    pub(crate) fn bin_pos(&self) -> Position {
        Position::Binary {
            offset: self.offset,
        }
    }

    fn io_error(&self, e: io::Error) -> ReadError {
        ReadError::new(
            self.text_pos(),
            ReadErrorKind::Io,
            format!("read error: {e}"),
        )
    }

    /// Refills the buffer when it is exhausted; returns false at end of
    /// input.
    fn fill(&mut self) -> Result<bool, ReadError> {
        if self.pos < self.len {
            return Ok(true);
        }
        if self.eof {
            return Ok(false);
        }
        loop {
            match self.inner.read(&mut self.buf) {
                Ok(0) => {
                    self.eof = true;
                    return Ok(false);
                }
                Ok(n) => {
                    self.pos = 0;
                    self.len = n.min(self.buf.len());
                    return Ok(true);
                }
                Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
                Err(e) => return Err(self.io_error(e)),
            }
        }
    }

    /// The next byte without consuming it; `None` at end of input.
    pub(crate) fn peek(&mut self) -> Result<Option<u8>, ReadError> {
        if self.fill()? {
            Ok(self.buf.get(self.pos).copied())
        } else {
            Ok(None)
        }
    }

    /// The byte `k` places after the next one (so `peek_at(0)` is
    /// `peek()`), without consuming anything; `None` past the end of input.
    /// `k` must be small: it may not exceed the buffer size.
    pub(crate) fn peek_at(&mut self, k: usize) -> Result<Option<u8>, ReadError> {
        while self.len - self.pos <= k && !self.eof {
            if self.pos > 0 {
                self.buf.copy_within(self.pos..self.len, 0);
                self.len -= self.pos;
                self.pos = 0;
            }
            if self.len >= self.buf.len() {
                break;
            }
            match self.inner.read(&mut self.buf[self.len..]) {
                Ok(0) => self.eof = true,
                Ok(n) => self.len = (self.len + n).min(self.buf.len()),
                Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
                Err(e) => return Err(self.io_error(e)),
            }
        }
        if self.pos + k < self.len {
            Ok(self.buf.get(self.pos + k).copied())
        } else {
            Ok(None)
        }
    }

    /// Consumes the byte last returned by [`Input::peek`] (or the next one,
    /// if it is buffered), updating line and column.
    pub(crate) fn bump(&mut self) {
        if let Some(&b) = self.buf.get(self.pos)
            && self.pos < self.len
        {
            self.pos += 1;
            self.offset += 1;
            if b == b'\n' {
                self.line += 1;
                self.column = 1;
            } else if b & 0xC0 != 0x80 {
                // Count characters, not UTF-8 continuation bytes.
                self.column += 1;
            }
        }
    }

    /// Consumes and returns the next byte.
    pub(crate) fn next_byte(&mut self) -> Result<Option<u8>, ReadError> {
        let b = self.peek()?;
        if b.is_some() {
            self.bump();
        }
        Ok(b)
    }

    /// Appends up to `n` bytes to `out`, fewer only at end of input; returns
    /// how many were appended. Line and column are not updated (binary data
    /// has none).
    pub(crate) fn read_into(&mut self, n: usize, out: &mut Vec<u8>) -> Result<usize, ReadError> {
        let mut done = 0;
        while done < n {
            if !self.fill()? {
                break;
            }
            let avail = self.len - self.pos;
            let take = avail.min(n - done);
            out.extend_from_slice(&self.buf[self.pos..self.pos + take]);
            self.pos += take;
            self.offset += take as u64;
            done += take;
        }
        Ok(done)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A reader that hands out one byte per call, to exercise refills.
    struct Trickle<'a>(&'a [u8]);

    impl Read for Trickle<'_> {
        fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
            match (self.0.split_first(), buf.first_mut()) {
                (Some((&b, rest)), Some(slot)) => {
                    *slot = b;
                    self.0 = rest;
                    Ok(1)
                }
                _ => Ok(0),
            }
        }
    }

    #[test]
    fn tracks_lines_and_columns() {
        let mut input = Input::new(Trickle("aé\nb".as_bytes()));
        for _ in 0..4 {
            input.next_byte().unwrap();
        }
        assert_eq!(
            input.text_pos(),
            Position::Text {
                line: 2,
                column: 1,
                offset: 4
            }
        );
        assert_eq!(input.next_byte().unwrap(), Some(b'b'));
        assert_eq!(input.next_byte().unwrap(), None);
    }

    #[test]
    fn looks_ahead_across_refills() {
        let mut input = Input::new(Trickle(b"-- x"));
        assert_eq!(input.peek_at(1).unwrap(), Some(b'-'));
        assert_eq!(input.peek_at(3).unwrap(), Some(b'x'));
        assert_eq!(input.peek_at(4).unwrap(), None);
        assert_eq!(input.next_byte().unwrap(), Some(b'-'));
        assert_eq!(input.peek_at(2).unwrap(), Some(b'x'));
    }

    #[test]
    fn bulk_reads_stop_at_end() {
        let mut input = Input::new(Trickle(b"abcdef"));
        let mut out = Vec::new();
        assert_eq!(input.read_into(4, &mut out).unwrap(), 4);
        assert_eq!(input.read_into(4, &mut out).unwrap(), 2);
        assert_eq!(out, b"abcdef");
        assert_eq!(input.bin_pos(), Position::Binary { offset: 6 });
    }
}
