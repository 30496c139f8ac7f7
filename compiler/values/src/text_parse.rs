//! Reading values in Futhark's textual value format.
//!
//! Grammar (whitespace and `--` comments to end of line may appear between
//! any two tokens):
//!
//! ```text
//! value   ::= scalar | array | string | empty
//! array   ::= "[" (value ("," value)* ","?)? "]"
//! empty   ::= "empty" "(" ("[" nat "]")+ primtype ")"   -- some dimension is 0
//! string  ::= '"' chars '"'                             -- UTF-8 bytes, a []u8
//! scalar  ::= "true" | "false"
//!           | sign? ("f16" | "f32" | "f64") ".inf"      -- also "f32.nan" etc, unsigned
//!           | sign? integer suffix?                     -- 12, 0xff, 0b1010, 1_000
//!           | sign? decimal suffix?                     -- 2.5, 1e-3, 1.5E+7, 0x1.8p1
//! suffix  ::= i8 | i16 | i32 | i64 | u8 | u16 | u32 | u64 | f16 | f32 | f64
//! ```
//!
//! Typing rules:
//!
//! - Without an expected type, an unsuffixed integer is an `i32` and an
//!   unsuffixed decimal an `f64`. An array takes its element type from its
//!   first element that states a type (a suffix, `true`/`false`, `f32.nan`,
//!   an `empty(...)` element); unsuffixed numbers in it take that type when
//!   they can (an unsuffixed integer in an `f32` array is an `f32`). Two
//!   different stated types in one array are an error. If no element states
//!   a type, the array is `f64` when any element is a decimal, else `i32`.
//! - With an expected type (an entry point's parameter type), unsuffixed
//!   numbers take its element type; a stated type must equal it, and so must
//!   the rank.
//! - An integer literal is read modulo 2^bits of its type, as Futhark's
//!   value reader does: `-1u8` is 255, `255i8` is -1, `300u8` is 44. A
//!   decimal literal cannot be an integer.
//! - A hexadecimal float (`0x1.8p1f64`, `-0xfp-2`) is hexadecimal digits,
//!   an optional hexadecimal fraction and a binary exponent after `p`.
//! - Arrays must be regular: every row at one depth has the same length,
//!   and scalars and arrays do not mix as elements.
//! - An array with no elements at all (`[]`, `[[], []]`) needs an expected
//!   type; otherwise write it as `empty([0]i32)`.
//! - Nesting is limited to 255 levels, the largest rank the binary format
//!   can express.

use std::io::Read;

use half::f16;

use crate::error::{Position, ReadError, ReadErrorKind};
use crate::input::Input;
use crate::prim::{PrimType, PrimValue};
use crate::value::{Data, RankedType, Value, ValueType, shape_elements};

/// The deepest array nesting accepted.
pub const MAX_RANK: usize = 255;

/// A literal as written, before its type is settled.
#[derive(Clone, Copy, Debug)]
enum Lit {
    /// An integer literal with its optional suffix (an integer type).
    Int {
        value: i128,
        suffix: Option<PrimType>,
    },
    /// A decimal literal, or a NaN/infinity, or an integer literal with a
    /// float suffix, parsed at both precisions to avoid double rounding.
    Float {
        wide: f64,
        narrow: f32,
        suffix: Option<PrimType>,
    },
    /// `true` or `false`.
    Bool(bool),
}

impl Lit {
    /// The type the literal states, if it states one.
    fn stated_type(&self) -> Option<PrimType> {
        match *self {
            Lit::Int { suffix, .. } | Lit::Float { suffix, .. } => suffix,
            Lit::Bool(_) => Some(PrimType::Bool),
        }
    }

    /// The literal as it might have been written, for messages.
    fn describe(&self) -> String {
        match *self {
            Lit::Int { value, suffix } => match suffix {
                Some(t) => format!("{value}{t}"),
                None => value.to_string(),
            },
            Lit::Float {
                wide,
                narrow,
                suffix,
            } => match suffix {
                Some(PrimType::F32) => PrimValue::F32(narrow).to_string(),
                Some(t) => match PrimValue::float_of_type(t, wide) {
                    Some(v) => v.to_string(),
                    None => format!("{wide:?}"),
                },
                None => format!("{wide:?}"),
            },
            Lit::Bool(b) => b.to_string(),
        }
    }
}

/// Converts a literal to a value of type `t`, or explains why not.
fn convert(lit: Lit, t: PrimType) -> Result<PrimValue, String> {
    match lit {
        Lit::Int { value, .. } => {
            if t.is_integer() {
                // As in Futhark's value reader, an integer literal is read
                // modulo 2^bits of its type: `-1u8` is 255, `255i8` is -1.
                PrimValue::int_of_type(t, crate::scalar::wrap(t, value))
                    .ok_or_else(|| format!("integer literal {value} cannot be a {t}"))
            } else {
                match t {
                    PrimType::F16 => Ok(PrimValue::F16(f16::from_f64(value as f64))),
                    PrimType::F32 => Ok(PrimValue::F32(value as f32)),
                    PrimType::F64 => Ok(PrimValue::F64(value as f64)),
                    _ => Err(format!("integer literal {value} cannot be a {t}")),
                }
            }
        }
        Lit::Float { wide, narrow, .. } => match t {
            PrimType::F16 => Ok(PrimValue::F16(f16::from_f64(wide))),
            PrimType::F32 => Ok(PrimValue::F32(narrow)),
            PrimType::F64 => Ok(PrimValue::F64(wide)),
            _ => Err(format!(
                "floating-point literal {} cannot be a {t}",
                lit.describe()
            )),
        },
        Lit::Bool(b) => match t {
            PrimType::Bool => Ok(PrimValue::Bool(b)),
            _ => Err(format!("`{b}` cannot be a {t}")),
        },
    }
}

/// Collects the elements of one value, settling their type as early as
/// possible so that most elements are stored directly in typed form.
struct Collector {
    expected: Option<RankedType>,
    /// The settled element type and the data collected so far.
    data: Option<Data>,
    /// Elements seen before the type was settled.
    pending: Vec<(Lit, Position)>,
    /// Number of elements (settled and pending).
    count: usize,
    /// A stated element type with no element (from `empty(...)` inside an
    /// array), and where it was stated.
    stated_by_empty: Option<(PrimType, Position)>,
}

impl Collector {
    fn new(expected: Option<RankedType>) -> Collector {
        let data = expected.map(|t| Data::empty(t.prim));
        Collector {
            expected,
            data,
            pending: Vec::new(),
            count: 0,
            stated_by_empty: None,
        }
    }

    fn mismatch(&self, lit: &Lit, settled: PrimType, pos: Position) -> ReadError {
        match self.expected {
            Some(want) => ReadError::new(
                pos,
                ReadErrorKind::TypeMismatch,
                format!("expected a value of type {want}, found {}", lit.describe()),
            ),
            None => ReadError::new(
                pos,
                ReadErrorKind::Syntax,
                format!(
                    "array elements have different types: {} is not of type {settled}",
                    lit.describe()
                ),
            ),
        }
    }

    /// Settles the element type as `t`, converting pending elements.
    fn settle(&mut self, t: PrimType) -> Result<(), ReadError> {
        let mut data = Data::with_capacity(t, self.pending.len());
        for (lit, pos) in std::mem::take(&mut self.pending) {
            let x = convert(lit, t).map_err(|m| ReadError::new(pos, ReadErrorKind::Syntax, m))?;
            data.push(x);
        }
        self.data = Some(data);
        Ok(())
    }

    /// Notes a stated element type that comes without an element.
    fn state_type(&mut self, t: PrimType, pos: Position) -> Result<(), ReadError> {
        let settled = self.data.as_ref().map(Data::prim_type);
        match settled {
            Some(s) if s != t => {
                let msg = match self.expected {
                    Some(want) => {
                        format!("expected a value of type {want}, found an empty array of {t}")
                    }
                    None => format!("array elements have different types: {t} and {s}"),
                };
                Err(ReadError::new(pos, ReadErrorKind::TypeMismatch, msg))
            }
            Some(_) => Ok(()),
            None => {
                self.stated_by_empty = Some((t, pos));
                self.settle(t)
            }
        }
    }

    fn push(&mut self, lit: Lit, pos: Position) -> Result<(), ReadError> {
        self.count += 1;
        if self.data.is_none() {
            match lit.stated_type() {
                Some(t) => self.settle(t)?,
                None => {
                    self.pending.push((lit, pos));
                    return Ok(());
                }
            }
        }
        let Some(data) = self.data.as_mut() else {
            return Ok(());
        };
        let settled = data.prim_type();
        if let Some(t) = lit.stated_type()
            && t != settled
        {
            return Err(self.mismatch(&lit, settled, pos));
        }
        match convert(lit, settled) {
            Ok(x) => {
                data.push(x);
                Ok(())
            }
            Err(m) => {
                let kind = match (self.expected, lit) {
                    (Some(_), Lit::Int { .. }) if settled.is_integer() => ReadErrorKind::Syntax,
                    (Some(_), _) => ReadErrorKind::TypeMismatch,
                    (None, _) => ReadErrorKind::Syntax,
                };
                let msg = match self.expected {
                    Some(want) if kind == ReadErrorKind::TypeMismatch => {
                        format!("expected a value of type {want}, found {}", lit.describe())
                    }
                    _ => m,
                };
                Err(ReadError::new(pos, kind, msg))
            }
        }
    }

    /// The element type and data, or `None` when nothing settled the type.
    fn finish(mut self) -> Result<Option<Data>, ReadError> {
        if self.data.is_none() && !self.pending.is_empty() {
            let any_float = self
                .pending
                .iter()
                .any(|(l, _)| matches!(l, Lit::Float { .. }));
            self.settle(if any_float {
                PrimType::F64
            } else {
                PrimType::I32
            })?;
        }
        Ok(self.data)
    }
}

/// The shape being discovered while parsing nested arrays.
struct Shape {
    /// `dims[d]` is the length of the arrays at depth `d`, once one has
    /// been seen.
    dims: Vec<Option<usize>>,
    /// The depth at which scalars sit, i.e. the rank, once known.
    rank: Option<usize>,
}

impl Shape {
    fn set_dim(&mut self, depth: usize, n: usize, pos: Position) -> Result<(), ReadError> {
        if self.dims.len() <= depth {
            self.dims.resize(depth + 1, None);
        }
        match self.dims[depth] {
            Some(m) if m != n => Err(ReadError::new(
                pos,
                ReadErrorKind::Syntax,
                format!("ragged array: this row has {n} elements, an earlier one has {m}"),
            )),
            _ => {
                self.dims[depth] = Some(n);
                Ok(())
            }
        }
    }

    fn set_rank(&mut self, rank: usize, pos: Position) -> Result<(), ReadError> {
        match self.rank {
            Some(r) if r != rank => Err(ReadError::new(
                pos,
                ReadErrorKind::Syntax,
                "ragged array: elements mix scalars and arrays of different depths",
            )),
            _ => {
                self.rank = Some(rank);
                Ok(())
            }
        }
    }
}

/// Parses textual values from an [`Input`].
pub(crate) struct TextParser<'a, R> {
    input: &'a mut Input<R>,
    /// Scratch space for the characters of one literal.
    scratch: String,
}

fn is_word_byte(b: u8) -> bool {
    b.is_ascii_alphanumeric() || b == b'_' || b == b'.'
}

/// Describes the next byte for "found ..." in messages.
fn describe_byte(b: Option<u8>) -> String {
    match b {
        None => "end of input".to_string(),
        Some(b) if b.is_ascii_graphic() => format!("`{}`", b as char),
        Some(b) => format!("byte 0x{b:02x}"),
    }
}

impl<'a, R: Read> TextParser<'a, R> {
    pub(crate) fn new(input: &'a mut Input<R>) -> TextParser<'a, R> {
        TextParser {
            input,
            scratch: String::new(),
        }
    }

    fn syntax(&self, pos: Position, msg: impl Into<String>) -> ReadError {
        ReadError::new(pos, ReadErrorKind::Syntax, msg)
    }

    /// An error about the next byte: end of input or an unexpected byte.
    fn unexpected(&mut self, wanted: &str) -> ReadError {
        let pos = self.input.text_pos();
        match self.input.peek() {
            Ok(None) => ReadError::new(
                pos,
                ReadErrorKind::UnexpectedEof,
                format!("unexpected end of input, expected {wanted}"),
            ),
            Ok(b) => self.syntax(
                pos,
                format!("expected {wanted}, found {}", describe_byte(b)),
            ),
            Err(e) => e,
        }
    }

    /// Skips whitespace and `--` comments.
    pub(crate) fn skip_space(&mut self) -> Result<(), ReadError> {
        loop {
            match self.input.peek()? {
                Some(b' ' | b'\t' | b'\n' | b'\r' | 0x0b | 0x0c) => self.input.bump(),
                Some(b'-') if self.input.peek_at(1)? == Some(b'-') => loop {
                    match self.input.next_byte()? {
                        None | Some(b'\n') => break,
                        Some(_) => {}
                    }
                },
                _ => return Ok(()),
            }
        }
    }

    /// Reads a run of word bytes (letters, digits, `_`, `.`) into scratch.
    fn read_word(&mut self) -> Result<(), ReadError> {
        self.scratch.clear();
        while let Some(b) = self.input.peek()? {
            if !is_word_byte(b) {
                break;
            }
            self.input.bump();
            self.scratch.push(b as char);
        }
        Ok(())
    }

    /// Parses one value; the caller has skipped leading space.
    pub(crate) fn parse_value(
        &mut self,
        expected: Option<&RankedType>,
    ) -> Result<Value, ReadError> {
        let start = self.input.text_pos();
        let mut coll = Collector::new(expected.copied());
        let mut shape = Shape {
            dims: Vec::new(),
            rank: None,
        };
        self.parse_element(0, &mut coll, &mut shape)?;
        let data = coll.finish()?;
        let dims = &shape.dims;
        let rank = match (shape.rank, expected) {
            (Some(r), _) => r,
            (None, Some(want)) => want.rank.max(dims.len()),
            (None, None) => {
                return Err(self.syntax(
                    start,
                    "cannot tell the element type of an array without elements; write e.g. empty([0]i32)",
                ));
            }
        };
        if dims.len() > rank {
            return Err(self.syntax(
                start,
                "ragged array: elements mix scalars and arrays of different depths",
            ));
        }
        let mut full = Vec::with_capacity(rank);
        for d in 0..rank {
            match dims.get(d) {
                Some(Some(n)) => full.push(*n),
                Some(None) => {
                    return Err(self.syntax(start, "ragged array"));
                }
                // Only reachable for arrays without elements, whose deeper
                // dimensions the expected type supplies as 0.
                None => full.push(0),
            }
        }
        let data = match (data, expected) {
            (Some(d), _) => d,
            (None, Some(want)) => Data::empty(want.prim),
            (None, None) => {
                return Err(self.syntax(
                    start,
                    "cannot tell the element type of an array without elements; write e.g. empty([0]i32)",
                ));
            }
        };
        if let Some(want) = expected
            && (want.rank != rank || want.prim != data.prim_type())
        {
            let found = ValueType {
                shape: full,
                prim: data.prim_type(),
            };
            return Err(ReadError::new(
                start,
                ReadErrorKind::TypeMismatch,
                format!("expected a value of type {want}, found a value of type {found}"),
            ));
        }
        if shape_elements(&full) != Some(data.len()) {
            return Err(self.syntax(start, "ragged array"));
        }
        Value::new(full, data).map_err(|e| self.syntax(start, e.to_string()))
    }

    /// Parses one element at nesting depth `depth` (the number of enclosing
    /// brackets).
    fn parse_element(
        &mut self,
        depth: usize,
        coll: &mut Collector,
        shape: &mut Shape,
    ) -> Result<(), ReadError> {
        let pos = self.input.text_pos();
        match self.input.peek()? {
            Some(b'[') => self.parse_array(depth, coll, shape),
            Some(b'"') => self.parse_string(depth, coll, shape),
            Some(b) if b.is_ascii_alphabetic() => {
                self.read_word()?;
                if self.scratch == "empty" {
                    let (dims, t) = self.parse_empty_rest(pos)?;
                    let rank = depth
                        .checked_add(dims.len())
                        .filter(|&r| r <= MAX_RANK)
                        .ok_or_else(|| self.syntax(pos, "array nesting is too deep"))?;
                    for (k, &n) in dims.iter().enumerate() {
                        shape.set_dim(depth + k, n, pos)?;
                    }
                    shape.set_rank(rank, pos)?;
                    coll.state_type(t, pos)
                } else {
                    let lit = self.word_literal(None, pos)?;
                    shape.set_rank(depth, pos)?;
                    coll.push(lit, pos)
                }
            }
            Some(b) if b.is_ascii_digit() || b == b'-' || b == b'+' => {
                let lit = self.parse_number(pos)?;
                shape.set_rank(depth, pos)?;
                coll.push(lit, pos)
            }
            _ => Err(self.unexpected("a value")),
        }
    }

    fn parse_array(
        &mut self,
        depth: usize,
        coll: &mut Collector,
        shape: &mut Shape,
    ) -> Result<(), ReadError> {
        let pos = self.input.text_pos();
        if depth >= MAX_RANK {
            return Err(self.syntax(
                pos,
                format!("array nesting is deeper than {MAX_RANK} levels"),
            ));
        }
        self.input.bump(); // '['
        let mut n = 0usize;
        loop {
            self.skip_space()?;
            if self.input.peek()? == Some(b']') {
                self.input.bump();
                break;
            }
            self.parse_element(depth + 1, coll, shape)?;
            n += 1;
            self.skip_space()?;
            match self.input.peek()? {
                Some(b',') => self.input.bump(),
                Some(b']') => {
                    self.input.bump();
                    break;
                }
                _ => return Err(self.unexpected("`,` or `]`")),
            }
        }
        shape.set_dim(depth, n, pos)
    }

    /// A string literal: an array of its UTF-8 bytes as `u8`.
    fn parse_string(
        &mut self,
        depth: usize,
        coll: &mut Collector,
        shape: &mut Shape,
    ) -> Result<(), ReadError> {
        let pos = self.input.text_pos();
        if depth >= MAX_RANK {
            return Err(self.syntax(pos, "array nesting is too deep"));
        }
        self.input.bump(); // '"'
        let mut n = 0usize;
        loop {
            let bpos = self.input.text_pos();
            let b = match self.input.next_byte()? {
                None => {
                    return Err(ReadError::new(
                        bpos,
                        ReadErrorKind::UnexpectedEof,
                        "unexpected end of input in a string literal",
                    ));
                }
                Some(b'"') => break,
                Some(b'\\') => match self.input.next_byte()? {
                    Some(b'n') => b'\n',
                    Some(b't') => b'\t',
                    Some(b'r') => b'\r',
                    Some(b'0') => 0,
                    Some(b'\\') => b'\\',
                    Some(b'"') => b'"',
                    Some(b'\'') => b'\'',
                    other => {
                        return Err(self.syntax(
                            bpos,
                            format!(
                                "unknown escape in a string literal: \\{}",
                                describe_byte(other)
                            ),
                        ));
                    }
                },
                Some(b) => b,
            };
            coll.push(
                Lit::Int {
                    value: i128::from(b),
                    suffix: Some(PrimType::U8),
                },
                bpos,
            )?;
            n += 1;
        }
        shape.set_dim(depth, n, pos)?;
        shape.set_rank(depth + 1, pos)?;
        if n == 0 {
            coll.state_type(PrimType::U8, pos)?;
        }
        Ok(())
    }

    /// The rest of `empty(...)` after the word `empty`: the shape and type.
    fn parse_empty_rest(&mut self, pos: Position) -> Result<(Vec<usize>, PrimType), ReadError> {
        self.skip_space()?;
        if self.input.peek()? != Some(b'(') {
            return Err(self.unexpected("`(` after `empty`"));
        }
        self.input.bump();
        let mut dims = Vec::new();
        loop {
            self.skip_space()?;
            if self.input.peek()? != Some(b'[') {
                break;
            }
            self.input.bump();
            self.skip_space()?;
            let npos = self.input.text_pos();
            if !matches!(self.input.peek()?, Some(b) if b.is_ascii_digit()) {
                return Err(self.unexpected("a dimension size"));
            }
            let n = match self.parse_number(npos)? {
                Lit::Int {
                    value,
                    suffix: None | Some(PrimType::I64),
                } => usize::try_from(value)
                    .map_err(|_| self.syntax(npos, format!("dimension {value} is too large")))?,
                _ => return Err(self.syntax(npos, "a dimension size must be a natural number")),
            };
            dims.push(n);
            if dims.len() > MAX_RANK {
                return Err(self.syntax(pos, "array nesting is too deep"));
            }
            self.skip_space()?;
            if self.input.peek()? != Some(b']') {
                return Err(self.unexpected("`]`"));
            }
            self.input.bump();
        }
        let tpos = self.input.text_pos();
        self.read_word()?;
        let t = PrimType::from_name(&self.scratch).ok_or_else(|| {
            if self.scratch.is_empty() {
                self.syntax(tpos, "expected a primitive type in `empty(...)`")
            } else {
                self.syntax(
                    tpos,
                    format!("unknown type `{}` in `empty(...)`", self.scratch),
                )
            }
        })?;
        self.skip_space()?;
        if self.input.peek()? != Some(b')') {
            return Err(self.unexpected("`)`"));
        }
        self.input.bump();
        if dims.is_empty() || shape_elements(&dims) != Some(0) {
            return Err(self.syntax(
                pos,
                "`empty(...)` needs a shape with a zero dimension, e.g. empty([0]i32)",
            ));
        }
        Ok((dims, t))
    }

    /// A literal spelled as a word (in scratch): `true`, `false`,
    /// `f32.nan`, `f64.inf`; `sign` is `Some(true)` after a `-` and
    /// `Some(false)` after a `+`.
    fn word_literal(&self, sign: Option<bool>, pos: Position) -> Result<Lit, ReadError> {
        let w = self.scratch.as_str();
        let special = |t: PrimType, x: f64| Lit::Float {
            wide: x,
            narrow: x as f32,
            suffix: Some(t),
        };
        let lit = match w {
            "true" if sign.is_none() => Lit::Bool(true),
            "false" if sign.is_none() => Lit::Bool(false),
            _ => {
                let (t, what) = w
                    .split_once('.')
                    .and_then(|(t, what)| Some((PrimType::from_name(t)?, what)))
                    .filter(|(t, _)| t.is_float())
                    .ok_or_else(|| {
                        let shown: String = w.chars().take(40).collect();
                        self.syntax(pos, format!("unexpected `{shown}`, expected a value"))
                    })?;
                match what {
                    "inf" if sign == Some(true) => special(t, f64::NEG_INFINITY),
                    "inf" => special(t, f64::INFINITY),
                    "nan" if sign.is_none() => special(t, f64::NAN),
                    _ => {
                        return Err(self.syntax(pos, format!("unexpected `{w}`, expected a value")));
                    }
                }
            }
        };
        Ok(lit)
    }

    /// A numeric literal, possibly signed, or a signed `f32.inf`.
    fn parse_number(&mut self, pos: Position) -> Result<Lit, ReadError> {
        let mut negative = false;
        if let Some(s @ (b'-' | b'+')) = self.input.peek()? {
            self.input.bump();
            negative = s == b'-';
            match self.input.peek()? {
                Some(b) if b.is_ascii_alphabetic() => {
                    self.read_word()?;
                    return self.word_literal(Some(negative), pos);
                }
                Some(b) if b.is_ascii_digit() => {}
                _ => return Err(self.unexpected("a number after the sign")),
            }
        }
        // Collect the literal: word bytes, plus a sign right after the
        // exponent marker (`e` of a decimal literal, `p` of a hexadecimal one).
        self.scratch.clear();
        if negative {
            self.scratch.push('-');
        }
        let body_start = self.scratch.len();
        let mut prev = 0u8;
        while let Some(b) = self.input.peek()? {
            let hex = self.scratch[body_start..].starts_with("0x")
                || self.scratch[body_start..].starts_with("0X");
            let exp_marker = if hex {
                prev == b'p' || prev == b'P'
            } else {
                prev == b'e' || prev == b'E'
            };
            let exp_sign = (b == b'-' || b == b'+') && exp_marker;
            if !(is_word_byte(b) || exp_sign) {
                break;
            }
            self.input.bump();
            self.scratch.push(b as char);
            prev = b;
        }
        number_literal(&self.scratch, body_start).map_err(|m| self.syntax(pos, m))
    }
}

/// Interprets the collected characters of a numeric literal; `text` is the
/// optional `-` followed, from `body_start`, by the literal itself.
fn number_literal(text: &str, body_start: usize) -> Result<Lit, String> {
    let negative = body_start > 0;
    let body = text.get(body_start..).unwrap_or("");
    let lower = body.get(..2).map(str::to_ascii_lowercase);
    let (radix, digits_start) = match lower.as_deref() {
        Some("0x") => (16, 2),
        Some("0b") => (2, 2),
        _ => (10, 0),
    };
    let rest = body.get(digits_start..).unwrap_or("");
    let digits_len = rest
        .bytes()
        .take_while(|&b| b == b'_' || (b as char).is_digit(radix))
        .count();
    let (digits, mut tail) = rest.split_at(digits_len);
    if !digits.bytes().any(|b| b != b'_') {
        return Err(format!("malformed numeric literal `{body}`"));
    }
    if radix == 16 && tail.starts_with(['.', 'p', 'P']) {
        return hex_float_literal(negative, body, digits, tail);
    }
    let mut is_float = false;
    let mut float_text = String::new();
    if radix == 10 {
        if negative {
            float_text.push('-');
        }
        float_text.extend(digits.chars().filter(|&c| c != '_'));
        // Fraction: a dot followed by at least one digit.
        if let Some(after) = tail.strip_prefix('.')
            && after.starts_with(|c: char| c.is_ascii_digit())
        {
            let n = after
                .bytes()
                .take_while(|&b| b == b'_' || b.is_ascii_digit())
                .count();
            float_text.push('.');
            float_text.extend(after[..n].chars().filter(|&c| c != '_'));
            tail = &after[n..];
            is_float = true;
        }
        // Exponent: e or E, an optional sign, at least one digit.
        if let Some(after) = tail.strip_prefix(['e', 'E']) {
            let (sign, unsigned) = match after.strip_prefix('-') {
                Some(u) => ("-", u),
                None => ("", after.strip_prefix('+').unwrap_or(after)),
            };
            let n = unsigned
                .bytes()
                .take_while(|&b| b == b'_' || b.is_ascii_digit())
                .count();
            if unsigned.starts_with(|c: char| c.is_ascii_digit()) {
                float_text.push('e');
                float_text.push_str(sign);
                float_text.extend(unsigned[..n].chars().filter(|&c| c != '_'));
                tail = &unsigned[n..];
                is_float = true;
            }
        }
    }
    let suffix = if tail.is_empty() {
        None
    } else {
        match PrimType::from_name(tail) {
            Some(t) if t != PrimType::Bool => Some(t),
            _ => {
                let shown: String = tail.chars().take(40).collect();
                return Err(format!("invalid suffix `{shown}` on numeric literal"));
            }
        }
    };
    if is_float || suffix.is_some_and(PrimType::is_float) {
        if let Some(t) = suffix
            && !t.is_float()
        {
            return Err(format!(
                "floating-point literal `{body}` cannot have suffix {t}"
            ));
        }
        if radix != 10 {
            // A hexadecimal literal swallows `f32` as digits, so only the
            // binary form can get here.
            return Err(format!(
                "binary literal `{body}` cannot have a float suffix"
            ));
        }
        let wide: f64 = float_text
            .parse()
            .map_err(|_| format!("malformed numeric literal `{body}`"))?;
        let narrow: f32 = float_text
            .parse()
            .map_err(|_| format!("malformed numeric literal `{body}`"))?;
        return Ok(Lit::Float {
            wide,
            narrow,
            suffix,
        });
    }
    let mut magnitude: u128 = 0;
    for c in digits.chars().filter(|&c| c != '_') {
        let d = c.to_digit(radix).unwrap_or(0);
        magnitude = magnitude
            .checked_mul(u128::from(radix))
            .and_then(|m| m.checked_add(u128::from(d)))
            .ok_or_else(|| format!("integer literal `{body}` is too large"))?;
    }
    let value =
        i128::try_from(magnitude).map_err(|_| format!("integer literal `{body}` is too large"))?;
    let value = if negative { -value } else { value };
    Ok(Lit::Int { value, suffix })
}

/// A hexadecimal float literal (`0x1.8p1`, `0xf.fp-2f32`): hexadecimal
/// digits, an optional hexadecimal fraction, a binary exponent `p` with
/// decimal digits, and an optional float suffix. `digits` are the integer
/// digits, `tail` what follows them.
fn hex_float_literal(negative: bool, body: &str, digits: &str, tail: &str) -> Result<Lit, String> {
    let malformed = || format!("malformed numeric literal `{body}`");
    let (frac, rest) = match tail.strip_prefix('.') {
        Some(after) => {
            let n = after
                .bytes()
                .take_while(|&b| b == b'_' || b.is_ascii_hexdigit())
                .count();
            after.split_at(n)
        }
        None => ("", tail),
    };
    let rest = rest.strip_prefix(['p', 'P']).ok_or_else(malformed)?;
    let (exp_negative, rest) = match rest.strip_prefix('-') {
        Some(r) => (true, r),
        None => (false, rest.strip_prefix('+').unwrap_or(rest)),
    };
    let n = rest.bytes().take_while(u8::is_ascii_digit).count();
    if n == 0 {
        return Err(malformed());
    }
    let (exp_digits, suffix_text) = rest.split_at(n);
    let suffix = if suffix_text.is_empty() {
        None
    } else {
        match PrimType::from_name(suffix_text) {
            Some(t) if t.is_float() => Some(t),
            _ => {
                let shown: String = suffix_text.chars().take(40).collect();
                return Err(format!(
                    "invalid suffix `{shown}` on hexadecimal float literal"
                ));
            }
        }
    };
    // The value is mantissa * 2^exponent, the mantissa being all the hex
    // digits read as one integer.
    let mut mantissa: u128 = 0;
    let mut frac_digits: i64 = 0;
    for (c, is_frac) in digits
        .chars()
        .map(|c| (c, false))
        .chain(frac.chars().map(|c| (c, true)))
        .filter(|&(c, _)| c != '_')
    {
        if mantissa >> 120 != 0 {
            // Further digits are below the precision of any float; only
            // the integer ones still scale the value.
            if !is_frac {
                frac_digits -= 1;
            }
            continue;
        }
        mantissa = mantissa * 16 + u128::from(c.to_digit(16).unwrap_or(0));
        if is_frac {
            frac_digits += 1;
        }
    }
    let exp: i64 = exp_digits.parse().map_err(|_| malformed())?;
    let exp = (if exp_negative { -exp } else { exp }).saturating_sub(4 * frac_digits);
    let scale = |x: f64| -> f64 {
        // Scaling in steps keeps intermediate powers of two finite.
        let mut x = x;
        let mut e = exp.clamp(-2200, 2200) as i32;
        while e != 0 {
            let step = e.clamp(-1000, 1000);
            x *= 2f64.powi(step);
            e -= step;
        }
        x
    };
    let sign = if negative { -1.0 } else { 1.0 };
    let wide = sign * scale(mantissa as f64);
    let narrow = (sign * scale(f64::from(mantissa as f32))) as f32;
    Ok(Lit::Float {
        wide,
        narrow,
        suffix,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn lit(s: &str) -> Result<Lit, String> {
        let (start, text) = match s.strip_prefix('-') {
            Some(_) => (1, s.to_string()),
            None => (0, s.to_string()),
        };
        number_literal(&text, start)
    }

    fn int(s: &str) -> (i128, Option<PrimType>) {
        match lit(s) {
            Ok(Lit::Int { value, suffix }) => (value, suffix),
            other => panic!("{s}: {other:?}"),
        }
    }

    fn float(s: &str) -> (f64, Option<PrimType>) {
        match lit(s) {
            Ok(Lit::Float { wide, suffix, .. }) => (wide, suffix),
            other => panic!("{s}: {other:?}"),
        }
    }

    #[test]
    fn integer_literals() {
        assert_eq!(int("42"), (42, None));
        assert_eq!(int("-42i8"), (-42, Some(PrimType::I8)));
        assert_eq!(int("0xffu8"), (255, Some(PrimType::U8)));
        assert_eq!(int("0XFF"), (255, None));
        assert_eq!(int("0b1010"), (10, None));
        assert_eq!(int("1_000_000i64"), (1_000_000, Some(PrimType::I64)));
        assert_eq!(int("0x1f32"), (0x1f32, None));
        assert_eq!(
            int("18446744073709551615u64"),
            (u64::MAX as i128, Some(PrimType::U64))
        );
    }

    #[test]
    fn float_literals() {
        assert_eq!(float("2.5"), (2.5, None));
        assert_eq!(float("-2.5f32"), (-2.5, Some(PrimType::F32)));
        assert_eq!(float("1e3"), (1000.0, None));
        assert_eq!(float("1.5E-3f64"), (0.0015, Some(PrimType::F64)));
        assert_eq!(float("1e+2"), (100.0, None));
        assert_eq!(float("3f16"), (3.0, Some(PrimType::F16)));
        assert_eq!(float("1_0.2_5"), (10.25, None));
        assert_eq!(float("0x1.8p1f64"), (3.0, Some(PrimType::F64)));
        assert_eq!(float("-0xf.fp-2f32"), (-3.984375, Some(PrimType::F32)));
        assert_eq!(float("0x11.ffp0"), (17.99609375, None));
        assert_eq!(float("0x0.f0p0f32"), (0.9375, Some(PrimType::F32)));
        assert_eq!(float("0x1p-1074"), (f64::from_bits(1), None));
    }

    #[test]
    fn bad_literals() {
        for bad in [
            "1i33",
            "1x",
            "2.5i32",
            "1.",
            "1.f32",
            "0x",
            "0b2",
            "1e",
            "1bool",
            "0b1f32",
            "0x1.8",
            "0x1.8pf32",
            "0x1p3i32",
        ] {
            assert!(lit(bad).is_err(), "{bad} should be rejected");
        }
        let e = lit("1i33").unwrap_err();
        assert_eq!(e, "invalid suffix `i33` on numeric literal");
        assert!(lit("99999999999999999999999999999999999999999").is_err());
    }
}
