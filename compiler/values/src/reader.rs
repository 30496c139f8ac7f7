//! Reading a sequence of values from a byte stream, text and binary mixed.
//!
//! Before each value the reader skips whitespace and `--` comments, then
//! looks at the next byte: a `b` starts a binary value (see
//! [`crate::binary`]), anything else a textual one (see
//! [`crate::text_parse`]). This is how Futhark programs read their
//! arguments from standard input, so one argument may be binary and the
//! next textual.
//!
//! Errors carry a [`Position`](crate::Position): line and column for text,
//! byte offset for binary. After an error the stream position is
//! unspecified; the [`Iterator`] implementation stops at the first error.
//! No input makes the reader panic.

use std::io::Read;

use crate::binary::read_binary;
use crate::error::{ReadError, ReadErrorKind};
use crate::input::Input;
use crate::text_parse::TextParser;
use crate::value::{RankedType, Value};

/// Reads values one by one from a byte stream.
pub struct Reader<R> {
    input: Input<R>,
    failed: bool,
}

impl<R: Read> Reader<R> {
    /// A reader over `inner`. It buffers internally, so `inner` need not be
    /// buffered.
    pub fn new(inner: R) -> Reader<R> {
        Reader {
            input: Input::new(inner),
            failed: false,
        }
    }

    /// Skips whitespace and comments; true when nothing else is left.
    pub fn at_end(&mut self) -> Result<bool, ReadError> {
        TextParser::new(&mut self.input).skip_space()?;
        Ok(self.input.peek()?.is_none())
    }

    /// The next value, or `None` at the end of input.
    pub fn next_value(&mut self) -> Result<Option<Value>, ReadError> {
        self.next_inner(None)
    }

    /// The next value, which must have the rank and element type of
    /// `expected`; unsuffixed literals take that element type. End of input
    /// is an error here.
    pub fn read_value(&mut self, expected: &RankedType) -> Result<Value, ReadError> {
        match self.next_inner(Some(expected))? {
            Some(v) => Ok(v),
            None => Err(ReadError::new(
                self.input.text_pos(),
                ReadErrorKind::UnexpectedEof,
                format!("unexpected end of input, expected a value of type {expected}"),
            )),
        }
    }

    fn next_inner(&mut self, expected: Option<&RankedType>) -> Result<Option<Value>, ReadError> {
        let result = self.next_unguarded(expected);
        if result.is_err() {
            self.failed = true;
        }
        result
    }

    fn next_unguarded(
        &mut self,
        expected: Option<&RankedType>,
    ) -> Result<Option<Value>, ReadError> {
        let mut parser = TextParser::new(&mut self.input);
        parser.skip_space()?;
        match self.input.peek()? {
            None => Ok(None),
            Some(b'b') => read_binary(&mut self.input, expected).map(Some),
            Some(_) => TextParser::new(&mut self.input)
                .parse_value(expected)
                .map(Some),
        }
    }
}

impl<R: Read> Iterator for Reader<R> {
    type Item = Result<Value, ReadError>;

    fn next(&mut self) -> Option<Self::Item> {
        if self.failed {
            return None;
        }
        self.next_value().transpose()
    }
}

/// All values in `bytes` (text and binary mixed).
pub fn read_values(bytes: &[u8]) -> Result<Vec<Value>, ReadError> {
    Reader::new(bytes).collect()
}

/// Reads values of the given types in order, as a program reads its entry
/// point's arguments, and checks that nothing but whitespace and comments
/// follows.
pub fn read_typed_values(bytes: &[u8], types: &[RankedType]) -> Result<Vec<Value>, ReadError> {
    let mut reader = Reader::new(bytes);
    let values = types
        .iter()
        .map(|t| reader.read_value(t))
        .collect::<Result<Vec<_>, _>>()?;
    reader.expect_end()?;
    Ok(values)
}

impl<R: Read> Reader<R> {
    /// Succeeds when only whitespace and comments are left.
    pub fn expect_end(&mut self) -> Result<(), ReadError> {
        if self.at_end()? {
            Ok(())
        } else {
            Err(ReadError::new(
                self.input.text_pos(),
                ReadErrorKind::Syntax,
                "unexpected input after the last value",
            ))
        }
    }
}

/// Exactly one value from a string (text or binary), as for `fut dataset
/// -g [1,2,3]`; anything but whitespace or comments after it is an error.
pub fn parse_value(text: &str) -> Result<Value, ReadError> {
    parse_one(text.as_bytes(), None)
}

/// Exactly one value of the given rank and element type from a string.
pub fn parse_value_as(text: &str, expected: &RankedType) -> Result<Value, ReadError> {
    parse_one(text.as_bytes(), Some(expected))
}

fn parse_one(bytes: &[u8], expected: Option<&RankedType>) -> Result<Value, ReadError> {
    let mut reader = Reader::new(bytes);
    let v = match expected {
        Some(t) => reader.read_value(t)?,
        None => reader.next_value()?.ok_or_else(|| {
            ReadError::new(
                reader.input.text_pos(),
                ReadErrorKind::UnexpectedEof,
                "unexpected end of input, expected a value",
            )
        })?,
    };
    reader.expect_end()?;
    Ok(v)
}
