//! The hand-written lexer: source text to tokens with spans.
//!
//! Whitespace-sensitive decisions of Futhark's grammar are made here, so that the
//! (chumsky) parser works on an unambiguous token stream:
//! - `a[i]` (no space before `[`, after a name or a closing bracket) lexes the `[` as
//!   [`Token::IndexOpen`], while `f [i]` gives [`Token::LBracket`];
//! - `a.b.c`, `t.0`, `f32.inf`, `M.+` and `M.(` are single tokens when written without
//!   spaces ([`Token::QualName`], [`Token::QualOp`], [`Token::QualParen`]);
//! - `'a'` is a character literal while `'a` is a type parameter tick;
//! - `-- |` doc comments are not tokens: they are collected in [`Lexed::docs`], keyed by
//!   the byte offset of the token that follows them.

use crate::ast::{Name, PrimType};
use crate::diag::Diagnostic;
use crate::span::{FileId, Span};
use std::fmt;

/// A token.
#[derive(Clone, Debug, PartialEq)]
pub enum Token {
    /// An unqualified identifier (never a keyword, never `_`).
    Ident(Name),
    /// A qualified name written without spaces: `M.x`, `r.a.b`, `t.0`, `f32.inf`.
    /// At least two components.
    QualName(Vec<Name>),
    /// A qualified operator `M.+`: the qualifiers and the operator.
    QualOp(Vec<Name>, Name),
    /// A local open `M.(`: the qualifiers (the `(` is part of the token).
    QualParen(Vec<Name>),
    /// A constructor `#foo`.
    Constructor(Name),
    /// An integer literal; `nat` is set for plain decimal literals without suffix or
    /// separators (usable as field names and attribute arguments).
    Int {
        value: i128,
        suffix: Option<PrimType>,
        nat: bool,
    },
    /// A float literal.
    Float {
        value: f64,
        suffix: Option<PrimType>,
    },
    /// A character literal.
    Char(u32),
    /// A string literal (UTF-8 bytes).
    Str(Vec<u8>),
    /// A symbolic operator such as `+`, `|>`, `==`, `-`, `*`, `|`, `<`, `!`.
    Op(Name),
    /// A keyword.
    Kw(Kw),
    /// `(`
    LParen,
    /// `)`
    RParen,
    /// `[` preceded by whitespace or a non-name token.
    LBracket,
    /// `[` directly after a name or closing bracket: indexing.
    IndexOpen,
    /// `]`
    RBracket,
    /// `{`
    LBrace,
    /// `}`
    RBrace,
    /// `,`
    Comma,
    /// `:`
    Colon,
    /// `:>`
    ColonGt,
    /// `.`
    Dot,
    /// `..`
    DotDot,
    /// `...`
    DotDotDot,
    /// `..<`
    DotDotLt,
    /// `..>`
    DotDotGt,
    /// `=`
    Equals,
    /// `->`
    Arrow,
    /// `\`
    Backslash,
    /// `` ` ``
    Backtick,
    /// `~`
    Tilde,
    /// `?`
    Question,
    /// `???`
    Hole,
    /// `_`
    Underscore,
    /// `#[`
    HashBracket,
    /// `'` before a type parameter name.
    Tick,
    /// `'~`
    TickTilde,
    /// `'^`
    TickCaret,
    /// A character that starts no token (already reported).
    Error,
    /// An opening delimiter (`(`, `[`, `{`, `#[`, `M.(`) that is never closed: the
    /// parser matches no rule on it, so that no rule parses up to the end of the file
    /// before failing (which made recovery quadratic on unbalanced input).
    Unclosed(Box<Token>),
}

/// Keywords.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Kw {
    Def,
    Entry,
    Let,
    In,
    If,
    Then,
    Else,
    Loop,
    For,
    While,
    Do,
    Match,
    Case,
    Type,
    Module,
    Val,
    Open,
    Import,
    Local,
    Include,
    With,
    Assert,
    True,
    False,
}

impl Kw {
    /// The keyword as written.
    pub fn as_str(self) -> &'static str {
        match self {
            Kw::Def => "def",
            Kw::Entry => "entry",
            Kw::Let => "let",
            Kw::In => "in",
            Kw::If => "if",
            Kw::Then => "then",
            Kw::Else => "else",
            Kw::Loop => "loop",
            Kw::For => "for",
            Kw::While => "while",
            Kw::Do => "do",
            Kw::Match => "match",
            Kw::Case => "case",
            Kw::Type => "type",
            Kw::Module => "module",
            Kw::Val => "val",
            Kw::Open => "open",
            Kw::Import => "import",
            Kw::Local => "local",
            Kw::Include => "include",
            Kw::With => "with",
            Kw::Assert => "assert",
            Kw::True => "true",
            Kw::False => "false",
        }
    }

    /// Looks a word up as a keyword.
    pub fn from_word(s: &str) -> Option<Kw> {
        Some(match s {
            "def" => Kw::Def,
            "entry" => Kw::Entry,
            "let" => Kw::Let,
            "in" => Kw::In,
            "if" => Kw::If,
            "then" => Kw::Then,
            "else" => Kw::Else,
            "loop" => Kw::Loop,
            "for" => Kw::For,
            "while" => Kw::While,
            "do" => Kw::Do,
            "match" => Kw::Match,
            "case" => Kw::Case,
            "type" => Kw::Type,
            "module" => Kw::Module,
            "val" => Kw::Val,
            "open" => Kw::Open,
            "import" => Kw::Import,
            "local" => Kw::Local,
            "include" => Kw::Include,
            "with" => Kw::With,
            "assert" => Kw::Assert,
            "true" => Kw::True,
            "false" => Kw::False,
            _ => return None,
        })
    }
}

/// Is `s` a keyword?
pub fn is_keyword(s: &str) -> bool {
    Kw::from_word(s).is_some()
}

impl fmt::Display for Token {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Token::Ident(n) => write!(f, "{n}"),
            Token::QualName(ns) => write!(f, "{}", join(ns)),
            Token::QualOp(ns, op) => write!(f, "{}.{op}", join(ns)),
            Token::QualParen(ns) => write!(f, "{}.(", join(ns)),
            Token::Constructor(n) => write!(f, "#{n}"),
            Token::Int { value, suffix, .. } => match suffix {
                Some(t) => write!(f, "{value}{t}"),
                None => write!(f, "{value}"),
            },
            Token::Float { value, suffix } => match suffix {
                Some(t) => write!(f, "{value}{t}"),
                None => write!(f, "{value}"),
            },
            Token::Char(c) => match char::from_u32(*c) {
                Some(c) => write!(f, "{c:?}"),
                None => write!(f, "'\\u{{{c:x}}}'"),
            },
            Token::Str(s) => write!(f, "{:?}", String::from_utf8_lossy(s)),
            Token::Op(o) => write!(f, "{o}"),
            Token::Kw(k) => write!(f, "{}", k.as_str()),
            Token::LParen => f.write_str("("),
            Token::RParen => f.write_str(")"),
            Token::LBracket | Token::IndexOpen => f.write_str("["),
            Token::RBracket => f.write_str("]"),
            Token::LBrace => f.write_str("{"),
            Token::RBrace => f.write_str("}"),
            Token::Comma => f.write_str(","),
            Token::Colon => f.write_str(":"),
            Token::ColonGt => f.write_str(":>"),
            Token::Dot => f.write_str("."),
            Token::DotDot => f.write_str(".."),
            Token::DotDotDot => f.write_str("..."),
            Token::DotDotLt => f.write_str("..<"),
            Token::DotDotGt => f.write_str("..>"),
            Token::Equals => f.write_str("="),
            Token::Arrow => f.write_str("->"),
            Token::Backslash => f.write_str("\\"),
            Token::Backtick => f.write_str("`"),
            Token::Tilde => f.write_str("~"),
            Token::Question => f.write_str("?"),
            Token::Hole => f.write_str("???"),
            Token::Underscore => f.write_str("_"),
            Token::HashBracket => f.write_str("#["),
            Token::Tick => f.write_str("'"),
            Token::TickTilde => f.write_str("'~"),
            Token::TickCaret => f.write_str("'^"),
            Token::Error => f.write_str("<invalid>"),
            Token::Unclosed(t) => write!(f, "{t}"),
        }
    }
}

fn join(ns: &[Name]) -> String {
    let mut s = String::new();
    for (i, n) in ns.iter().enumerate() {
        if i > 0 {
            s.push('.');
        }
        s.push_str(n);
    }
    s
}

/// The result of lexing one file.
#[derive(Debug, Default)]
pub struct Lexed {
    /// The tokens with their spans, in order.
    pub tokens: Vec<(Token, Span)>,
    /// Doc comment blocks, each with the byte offset of the token that follows it
    /// (`u32::MAX` when none follows), in order.
    pub docs: Vec<(u32, String)>,
    /// Lexical errors (P001 for stray characters, P002 for malformed literals).
    pub diags: Vec<Diagnostic>,
}

/// The closing delimiter of an opening one.
pub fn closer_of(t: &Token) -> Option<Token> {
    match t {
        Token::LParen | Token::QualParen(_) => Some(Token::RParen),
        Token::LBracket | Token::IndexOpen | Token::HashBracket => Some(Token::RBracket),
        Token::LBrace => Some(Token::RBrace),
        _ => None,
    }
}

/// Replaces every opening delimiter that has no matching closer by
/// [`Token::Unclosed`]. A closer matches the nearest open delimiter of its kind;
/// delimiters opened in between are unclosed.
pub fn mark_unclosed(tokens: &mut [(Token, Span)]) {
    let mut stack: Vec<(usize, Token)> = Vec::new();
    let mut unclosed = Vec::new();
    for (i, (t, _)) in tokens.iter().enumerate() {
        if let Some(c) = closer_of(t) {
            stack.push((i, c));
        } else if matches!(t, Token::RParen | Token::RBracket | Token::RBrace)
            && let Some(pos) = stack.iter().rposition(|(_, c)| c == t)
        {
            unclosed.extend(stack.drain(pos + 1..).map(|(j, _)| j));
            stack.pop();
        }
    }
    unclosed.extend(stack.into_iter().map(|(j, _)| j));
    for j in unclosed {
        let t = std::mem::replace(&mut tokens[j].0, Token::Error);
        tokens[j].0 = Token::Unclosed(Box::new(t));
    }
}

/// Characters that may start an operator.
pub fn is_op_start(c: u8) -> bool {
    matches!(
        c,
        b'+' | b'-' | b'*' | b'/' | b'%' | b'=' | b'!' | b'>' | b'<' | b'|' | b'&' | b'^'
    )
}

fn is_op_char(c: u8) -> bool {
    is_op_start(c) || c == b'.'
}

fn is_ident_start(c: u8) -> bool {
    c.is_ascii_alphabetic() || c == b'_'
}

fn is_ident_char(c: u8) -> bool {
    c.is_ascii_alphanumeric() || c == b'_' || c == b'\''
}

struct Lexer<'s> {
    src: &'s str,
    bytes: &'s [u8],
    pos: usize,
    file: FileId,
    out: Lexed,
    pending_docs: Vec<String>,
}

/// Lexes a whole file.
pub fn lex(file: FileId, src: &str) -> Lexed {
    let mut lx = Lexer {
        src,
        bytes: src.as_bytes(),
        pos: 0,
        file,
        out: Lexed::default(),
        pending_docs: Vec::new(),
    };
    lx.run();
    for d in lx.pending_docs.drain(..) {
        lx.out.docs.push((u32::MAX, d));
    }
    lx.out
}

impl<'s> Lexer<'s> {
    fn span(&self, start: usize, end: usize) -> Span {
        Span::new(self.file, start as u32, end as u32)
    }

    fn peek(&self, off: usize) -> u8 {
        *self.bytes.get(self.pos + off).unwrap_or(&0)
    }

    fn push(&mut self, tok: Token, start: usize, end: usize) {
        for d in self.pending_docs.drain(..) {
            self.out.docs.push((start as u32, d));
        }
        self.out.tokens.push((tok, self.span(start, end)));
    }

    fn error(&mut self, code: &'static str, msg: String, start: usize, end: usize, label: &str) {
        let sp = self.span(start, end);
        self.out.diags.push(Diagnostic::error(code, msg, sp, label));
    }

    /// The previous token, if it ends exactly where the current one starts.
    fn adjacent_prev(&self, start: usize) -> Option<&Token> {
        match self.out.tokens.last() {
            Some((t, sp)) if sp.end as usize == start => Some(t),
            _ => None,
        }
    }

    fn run(&mut self) {
        // A UTF-8 byte order mark is not part of the program.
        if self.src.starts_with('\u{feff}') {
            self.pos = 3;
        }
        while self.pos < self.bytes.len() {
            let c = self.bytes[self.pos];
            let start = self.pos;
            match c {
                b' ' | b'\t' | b'\r' | b'\n' | 0x0c => self.pos += 1,
                b'-' if self.peek(1) == b'-' => self.comment(),
                b'0'..=b'9' => self.number(),
                b'"' => self.string(),
                b'\'' => self.tick(),
                b'#' => {
                    if self.peek(1) == b'[' {
                        self.pos += 2;
                        self.push(Token::HashBracket, start, self.pos);
                    } else if is_ident_start(self.peek(1)) {
                        self.pos += 1;
                        let name = self.ident_chars();
                        self.push(Token::Constructor(name.into()), start, self.pos);
                    } else {
                        self.pos += 1;
                        self.error(
                            "P001",
                            "unexpected `#`".into(),
                            start,
                            self.pos,
                            "a constructor name or `[` must follow `#` directly",
                        );
                        self.push(Token::Error, start, self.pos);
                    }
                }
                c if is_ident_start(c) => self.word(),
                c if is_op_start(c) => self.operator(),
                b'.' => {
                    let (tok, len) = if self.peek(1) == b'.' {
                        match self.peek(2) {
                            b'.' => (Token::DotDotDot, 3),
                            b'<' => (Token::DotDotLt, 3),
                            b'>' => (Token::DotDotGt, 3),
                            _ => (Token::DotDot, 2),
                        }
                    } else {
                        (Token::Dot, 1)
                    };
                    self.pos += len;
                    self.push(tok, start, self.pos);
                }
                b'?' => {
                    if self.peek(1) == b'?' && self.peek(2) == b'?' {
                        self.pos += 3;
                        self.push(Token::Hole, start, self.pos);
                    } else {
                        self.pos += 1;
                        self.push(Token::Question, start, self.pos);
                    }
                }
                b':' => {
                    if self.peek(1) == b'>' {
                        self.pos += 2;
                        self.push(Token::ColonGt, start, self.pos);
                    } else {
                        self.pos += 1;
                        self.push(Token::Colon, start, self.pos);
                    }
                }
                b'[' => {
                    self.pos += 1;
                    let idx = matches!(
                        self.adjacent_prev(start),
                        Some(
                            Token::Ident(_)
                                | Token::QualName(_)
                                | Token::RParen
                                | Token::RBracket
                                | Token::RBrace
                        )
                    );
                    let t = if idx {
                        Token::IndexOpen
                    } else {
                        Token::LBracket
                    };
                    self.push(t, start, self.pos);
                }
                _ => {
                    let tok = match c {
                        b'(' => Some(Token::LParen),
                        b')' => Some(Token::RParen),
                        b']' => Some(Token::RBracket),
                        b'{' => Some(Token::LBrace),
                        b'}' => Some(Token::RBrace),
                        b',' => Some(Token::Comma),
                        b'\\' => Some(Token::Backslash),
                        b'`' => Some(Token::Backtick),
                        b'~' => Some(Token::Tilde),
                        _ => None,
                    };
                    match tok {
                        Some(t) => {
                            self.pos += 1;
                            self.push(t, start, self.pos);
                        }
                        None => {
                            let ch = self.src[start..].chars().next().unwrap_or('?');
                            self.pos += ch.len_utf8();
                            self.error(
                                "P001",
                                format!("unexpected character {ch:?}"),
                                start,
                                self.pos,
                                "this character cannot appear here",
                            );
                            self.push(Token::Error, start, self.pos);
                        }
                    }
                }
            }
        }
    }

    fn line_end(&self, from: usize) -> usize {
        match self.bytes[from..].iter().position(|&b| b == b'\n') {
            Some(i) => from + i,
            None => self.bytes.len(),
        }
    }

    /// A `--` comment; a `-- |` comment starts a doc block that continues over the
    /// following comment lines.
    fn comment(&mut self) {
        let start = self.pos;
        let end = self.line_end(start);
        let text = &self.src[start + 2..end];
        let t = text.trim_start();
        if let Some(rest) = t.strip_prefix('|')
            && text.starts_with(' ')
        {
            let mut doc = String::new();
            doc.push_str(rest.strip_prefix(' ').unwrap_or(rest).trim_end());
            let mut p = end;
            // Continue over contiguous comment lines.
            loop {
                if p >= self.bytes.len() {
                    break;
                }
                let next = p + 1;
                let mut q = next;
                while q < self.bytes.len() && matches!(self.bytes[q], b' ' | b'\t' | b'\r') {
                    q += 1;
                }
                if q + 1 < self.bytes.len() && self.bytes[q] == b'-' && self.bytes[q + 1] == b'-' {
                    let e = self.line_end(q);
                    let line = &self.src[q + 2..e];
                    doc.push('\n');
                    doc.push_str(line.strip_prefix(' ').unwrap_or(line).trim_end());
                    p = e;
                } else {
                    break;
                }
            }
            self.pending_docs.push(doc);
            self.pos = p;
        } else {
            self.pos = end;
        }
    }

    fn ident_chars(&mut self) -> &'s str {
        let start = self.pos;
        while self.pos < self.bytes.len() && is_ident_char(self.bytes[self.pos]) {
            self.pos += 1;
        }
        &self.src[start..self.pos]
    }

    fn word(&mut self) {
        let start = self.pos;
        let w = self.ident_chars();
        if w == "_" {
            self.push(Token::Underscore, start, self.pos);
            return;
        }
        if let Some(k) = Kw::from_word(w) {
            self.push(Token::Kw(k), start, self.pos);
            return;
        }
        let mut parts: Vec<Name> = vec![w.into()];
        // Qualified names: `a.b`, `t.0`, `M.+`, `M.(`.
        loop {
            if self.peek(0) != b'.' {
                break;
            }
            let c = self.peek(1);
            if is_ident_start(c) {
                let save = self.pos;
                self.pos += 1;
                let n = self.ident_chars();
                if n == "_" || is_keyword(n) {
                    self.pos = save;
                    break;
                }
                parts.push(n.into());
            } else if c.is_ascii_digit() {
                self.pos += 1;
                let s = self.pos;
                while self.peek(0).is_ascii_digit() {
                    self.pos += 1;
                }
                parts.push(self.src[s..self.pos].into());
            } else if c == b'(' {
                self.pos += 2;
                self.push(Token::QualParen(parts), start, self.pos);
                return;
            } else if is_op_start(c) && !(c == b'-' && self.peek(2) == b'-') {
                self.pos += 1;
                let s = self.pos;
                self.op_chars();
                let op: Name = self.src[s..self.pos].into();
                self.push(Token::QualOp(parts, op), start, self.pos);
                return;
            } else {
                break;
            }
        }
        let tok = if parts.len() == 1 {
            Token::Ident(parts.pop().unwrap())
        } else {
            Token::QualName(parts)
        };
        self.push(tok, start, self.pos);
    }

    fn op_chars(&mut self) {
        while self.pos < self.bytes.len() && is_op_char(self.bytes[self.pos]) {
            // `--` always starts a comment.
            if self.bytes[self.pos] == b'-' && self.peek(1) == b'-' {
                break;
            }
            // `..` inside an operator would swallow range syntax.
            if self.bytes[self.pos] == b'.' && self.peek(1) == b'.' {
                break;
            }
            self.pos += 1;
        }
    }

    fn operator(&mut self) {
        let start = self.pos;
        self.op_chars();
        let s = &self.src[start..self.pos];
        let tok = match s {
            "=" => Token::Equals,
            "->" => Token::Arrow,
            _ => Token::Op(s.into()),
        };
        self.push(tok, start, self.pos);
    }

    /// `'a'` (character literal), `'~`, `'^`, or `'` before a type parameter.
    fn tick(&mut self) {
        let start = self.pos;
        // Try a character literal.
        let rest = &self.src[start + 1..];
        let mut chars = rest.chars();
        if let Some(c) = chars.next() {
            if c == '\\' {
                // An escape, then the closing quote.
                if let Some((v, n)) = unescape_one(rest)
                    && rest.as_bytes().get(n) == Some(&b'\'')
                {
                    self.pos = start + 1 + n + 1;
                    self.push(Token::Char(v), start, self.pos);
                    return;
                }
                let mut p = start + 2;
                while p < self.bytes.len() && self.bytes[p] != b'\'' && self.bytes[p] != b'\n' {
                    p += 1;
                }
                if p < self.bytes.len() && self.bytes[p] == b'\'' {
                    let body = &self.src[start + 1..p];
                    self.pos = p + 1;
                    self.error(
                        "P002",
                        format!("invalid escape sequence in character literal '{body}'"),
                        start,
                        self.pos,
                        "unknown or malformed escape",
                    );
                    self.push(Token::Char(0), start, self.pos);
                    return;
                }
            } else if c != '\'' && c != '\n' && chars.next() == Some('\'') {
                self.pos = start + 1 + c.len_utf8() + 1;
                self.push(Token::Char(c as u32), start, self.pos);
                return;
            }
        }
        let (tok, len) = match self.peek(1) {
            b'~' => (Token::TickTilde, 2),
            b'^' => (Token::TickCaret, 2),
            _ => (Token::Tick, 1),
        };
        self.pos += len;
        self.push(tok, start, self.pos);
    }

    fn string(&mut self) {
        let start = self.pos;
        self.pos += 1;
        let mut bytes = Vec::new();
        loop {
            if self.pos >= self.bytes.len() {
                self.error(
                    "P002",
                    "unterminated string literal".into(),
                    start,
                    self.pos,
                    "this string is never closed",
                );
                break;
            }
            let c = self.bytes[self.pos];
            if c == b'"' {
                self.pos += 1;
                break;
            }
            if c == b'\\' {
                let rest = &self.src[self.pos..];
                match unescape_one(rest) {
                    Some((v, n)) => {
                        let mut buf = [0u8; 4];
                        match char::from_u32(v) {
                            Some(ch) => {
                                bytes.extend_from_slice(ch.encode_utf8(&mut buf).as_bytes())
                            }
                            None => bytes.push(v as u8),
                        }
                        self.pos += n;
                    }
                    None => {
                        let e = (self.pos + 2).min(self.bytes.len());
                        let e = if self.src.is_char_boundary(e) {
                            e
                        } else {
                            self.pos + 1
                        };
                        self.error(
                            "P002",
                            "invalid escape sequence in string literal".into(),
                            self.pos,
                            e,
                            "unknown escape",
                        );
                        self.pos = e;
                    }
                }
                continue;
            }
            // Copy one UTF-8 character.
            let ch = self.src[self.pos..].chars().next().unwrap_or('\0');
            let n = ch.len_utf8();
            bytes.extend_from_slice(&self.bytes[self.pos..self.pos + n]);
            self.pos += n;
        }
        self.push(Token::Str(bytes), start, self.pos);
    }

    fn digits(&mut self, ok: impl Fn(u8) -> bool) -> String {
        let mut s = String::new();
        while self.pos < self.bytes.len() {
            let c = self.bytes[self.pos];
            if ok(c) {
                s.push(c as char);
            } else if c != b'_' {
                break;
            }
            self.pos += 1;
        }
        s
    }

    fn number(&mut self) {
        let start = self.pos;
        // After a `.` (field access `(e).0`), only a natural number is lexed.
        if matches!(self.adjacent_prev(start), Some(Token::Dot)) {
            while self.peek(0).is_ascii_digit() {
                self.pos += 1;
            }
            let v: i128 = self.src[start..self.pos].parse().unwrap_or(0);
            self.push(
                Token::Int {
                    value: v,
                    suffix: None,
                    nat: true,
                },
                start,
                self.pos,
            );
            return;
        }
        let c1 = self.peek(1);
        let mut is_float = false;
        let mut fvalue = 0.0f64;
        let mut ivalue: Option<i128> = None;
        let mut bad = false;
        if self.peek(0) == b'0' && (c1 == b'x' || c1 == b'X') {
            self.pos += 2;
            let mant = self.digits(|c| c.is_ascii_hexdigit());
            let mut frac = String::new();
            if self.peek(0) == b'.' && (self.peek(1).is_ascii_hexdigit()) {
                self.pos += 1;
                frac = self.digits(|c| c.is_ascii_hexdigit());
                is_float = true;
            }
            if matches!(self.peek(0), b'p' | b'P')
                && (self.peek(1).is_ascii_digit()
                    || (matches!(self.peek(1), b'+' | b'-') && self.peek(2).is_ascii_digit()))
            {
                self.pos += 1;
                let neg = match self.peek(0) {
                    b'-' => {
                        self.pos += 1;
                        true
                    }
                    b'+' => {
                        self.pos += 1;
                        false
                    }
                    _ => false,
                };
                let e = self.digits(|c| c.is_ascii_digit());
                let e: i32 = e.parse().unwrap_or(i32::MAX);
                let e = if neg { -e } else { e };
                let mut m = 0.0f64;
                for ch in mant.chars().chain(frac.chars()) {
                    m = m * 16.0 + ch.to_digit(16).unwrap_or(0) as f64;
                }
                let scale = e - 4 * frac.len() as i32;
                fvalue = m * 2f64.powi(scale);
                is_float = true;
            } else if is_float || mant.is_empty() {
                // A hexadecimal fraction needs a `p` exponent.
                bad = true;
            } else {
                ivalue = u128::from_str_radix(&mant, 16)
                    .ok()
                    .and_then(|v| i128::try_from(v).ok());
                if ivalue.is_none() {
                    bad = true;
                }
            }
        } else if self.peek(0) == b'0' && (c1 == b'b' || c1 == b'B') {
            self.pos += 2;
            let mant = self.digits(|c| c == b'0' || c == b'1');
            if mant.is_empty() {
                bad = true;
            } else {
                ivalue = u128::from_str_radix(&mant, 2)
                    .ok()
                    .and_then(|v| i128::try_from(v).ok());
                if ivalue.is_none() {
                    bad = true;
                }
            }
        } else {
            let int = self.digits(|c| c.is_ascii_digit());
            let mut text = int.clone();
            if self.peek(0) == b'.' && self.peek(1).is_ascii_digit() {
                self.pos += 1;
                let frac = self.digits(|c| c.is_ascii_digit());
                text.push('.');
                text.push_str(&frac);
                is_float = true;
            }
            if matches!(self.peek(0), b'e' | b'E')
                && (self.peek(1).is_ascii_digit()
                    || (matches!(self.peek(1), b'+' | b'-') && self.peek(2).is_ascii_digit()))
            {
                self.pos += 1;
                text.push('e');
                if matches!(self.peek(0), b'+' | b'-') {
                    text.push(self.peek(0) as char);
                    self.pos += 1;
                }
                text.push_str(&self.digits(|c| c.is_ascii_digit()));
                is_float = true;
            }
            if is_float {
                fvalue = text.parse().unwrap_or(0.0);
            } else {
                ivalue = int.parse::<i128>().ok();
                if ivalue.is_none() {
                    bad = true;
                }
            }
        }
        // Digits that the literal's base does not allow (`0b102`, `0x1.8p3.5`).
        if self.peek(0).is_ascii_digit() || (self.peek(0) == b'.' && self.peek(1).is_ascii_digit())
        {
            while self.peek(0).is_ascii_alphanumeric()
                || self.peek(0) == b'.' && self.peek(1).is_ascii_digit()
            {
                self.pos += 1;
            }
            bad = true;
        }
        let plain_end = self.pos;
        // Suffix.
        let mut suffix = None;
        let mut reported = false;
        if is_ident_start(self.peek(0)) {
            let s = self.pos;
            let w = self.ident_chars();
            match PrimType::from_name(w) {
                Some(t) if t != PrimType::Bool => suffix = Some(t),
                _ => {
                    self.error(
                        "P002",
                        format!("invalid suffix `{w}` on numeric literal"),
                        start,
                        self.pos,
                        "expected one of i8, i16, i32, i64, u8, u16, u32, u64, f16, f32, f64",
                    );
                    let _ = s;
                    bad = true;
                    reported = true;
                }
            }
        }
        let text = &self.src[start..self.pos];
        if bad && !reported {
            self.error(
                "P002",
                format!("malformed numeric literal `{text}`"),
                start,
                self.pos,
                "cannot read this number",
            );
        }
        let tok = if is_float || suffix.is_some_and(|t| t.is_float()) {
            if is_float && suffix.is_some_and(|t| t.is_integral()) {
                self.error(
                    "P002",
                    format!("float literal `{text}` has an integer suffix"),
                    start,
                    self.pos,
                    "a literal with a fractional part or exponent cannot be an integer",
                );
            }
            let v = if is_float {
                fvalue
            } else {
                ivalue.unwrap_or(0) as f64
            };
            Token::Float {
                value: v,
                suffix: suffix.filter(|t| t.is_float()),
            }
        } else {
            let v = ivalue.unwrap_or(0);
            let decimal = !self.src[start..].starts_with("0x")
                && !self.src[start..].starts_with("0X")
                && !self.src[start..].starts_with("0b")
                && !self.src[start..].starts_with("0B");
            if let Some(t) = suffix
                && !bad
                && !int_fits(
                    v,
                    t,
                    decimal,
                    matches!(self.adjacent_prev(start), Some(Token::Op(o)) if &**o == "-"),
                )
            {
                self.error(
                    "P002",
                    format!("integer literal `{text}` is out of range for {t}"),
                    start,
                    self.pos,
                    format!("{t} holds {}", int_range(t)).as_str(),
                );
            }
            // A hexadecimal or binary literal gives a bit pattern: `0x80i8` is -128.
            let v = match suffix {
                Some(t) if !decimal && !t.is_unsigned() => {
                    let bits = int_bits(t);
                    if v >= 1i128 << (bits - 1) && v < 1i128 << bits {
                        v - (1i128 << bits)
                    } else {
                        v
                    }
                }
                _ => v,
            };
            let nat = suffix.is_none()
                && !bad
                && self.src[start..plain_end]
                    .bytes()
                    .all(|b| b.is_ascii_digit());
            Token::Int {
                value: v,
                suffix,
                nat,
            }
        };
        // A digit or identifier character straight after is malformed (e.g. `1.2.3`).
        self.push(tok, start, self.pos);
    }
}

fn int_fits(v: i128, t: PrimType, decimal: bool, negated: bool) -> bool {
    // Hexadecimal and binary literals may give the bit pattern of a negative number
    // (`0xffi8`); decimal literals must fit the type's range (the literal itself is
    // never negative: `-128i8` is the negation of `128i8`, which is accepted only
    // directly after a `-`).
    let signed_hi = |bits: u32| -> i128 {
        if decimal {
            (1i128 << (bits - 1)) - 1 + negated as i128
        } else {
            (1i128 << bits) - 1
        }
    };
    let (lo, hi): (i128, i128) = match t {
        PrimType::I8 => (i8::MIN as i128, signed_hi(8)),
        PrimType::I16 => (i16::MIN as i128, signed_hi(16)),
        PrimType::I32 => (i32::MIN as i128, signed_hi(32)),
        PrimType::I64 => (i64::MIN as i128, signed_hi(64)),
        PrimType::U8 => (0, u8::MAX as i128),
        PrimType::U16 => (0, u16::MAX as i128),
        PrimType::U32 => (0, u32::MAX as i128),
        PrimType::U64 => (0, u64::MAX as i128),
        _ => return true,
    };
    lo <= v && v <= hi
}

fn int_bits(t: PrimType) -> u32 {
    match t {
        PrimType::I8 | PrimType::U8 => 8,
        PrimType::I16 | PrimType::U16 | PrimType::F16 => 16,
        PrimType::I32 | PrimType::U32 | PrimType::F32 => 32,
        _ => 64,
    }
}

fn int_range(t: PrimType) -> String {
    match t {
        PrimType::I8 => "-128 to 127".into(),
        PrimType::I16 => "-32768 to 32767".into(),
        PrimType::I32 => "-2147483648 to 2147483647".into(),
        PrimType::I64 => "-9223372036854775808 to 9223372036854775807".into(),
        PrimType::U8 => "0 to 255".into(),
        PrimType::U16 => "0 to 65535".into(),
        PrimType::U32 => "0 to 4294967295".into(),
        PrimType::U64 => "0 to 18446744073709551615".into(),
        _ => String::new(),
    }
}

/// Reads one (possibly escaped) character at the start of `s`: its scalar value and
/// the number of bytes consumed. `None` for a malformed escape.
pub fn unescape_one(s: &str) -> Option<(u32, usize)> {
    let mut it = s.char_indices();
    let (_, c) = it.next()?;
    if c != '\\' {
        return Some((c as u32, c.len_utf8()));
    }
    let (_, e) = it.next()?;
    let simple = match e {
        'n' => Some('\n'),
        't' => Some('\t'),
        'r' => Some('\r'),
        '0' if !s[2..].starts_with(|c: char| c.is_ascii_digit()) => Some('\0'),
        '\\' => Some('\\'),
        '\'' => Some('\''),
        '"' => Some('"'),
        'a' => Some('\u{7}'),
        'b' => Some('\u{8}'),
        'f' => Some('\u{c}'),
        'v' => Some('\u{b}'),
        _ => None,
    };
    if let Some(c) = simple {
        return Some((c as u32, 2));
    }
    let b = s.as_bytes();
    match e {
        'x' => {
            let n = b[2..].iter().take_while(|c| c.is_ascii_hexdigit()).count();
            if n == 0 {
                return None;
            }
            let v = u32::from_str_radix(&s[2..2 + n], 16).ok()?;
            char::from_u32(v)?;
            Some((v, 2 + n))
        }
        'u' if b.get(2) == Some(&b'{') => {
            let n = b[3..].iter().take_while(|c| c.is_ascii_hexdigit()).count();
            if n == 0 || b.get(3 + n) != Some(&b'}') {
                return None;
            }
            let v = u32::from_str_radix(&s[3..3 + n], 16).ok()?;
            char::from_u32(v)?;
            Some((v, 4 + n))
        }
        'u' => {
            let n = b[2..]
                .iter()
                .take(4)
                .take_while(|c| c.is_ascii_hexdigit())
                .count();
            if n != 4 {
                return None;
            }
            let v = u32::from_str_radix(&s[2..6], 16).ok()?;
            char::from_u32(v)?;
            Some((v, 6))
        }
        '0'..='9' => {
            let n = b[1..].iter().take_while(|c| c.is_ascii_digit()).count();
            let v: u32 = s[1..1 + n].parse().ok()?;
            char::from_u32(v)?;
            Some((v, 1 + n))
        }
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn toks(s: &str) -> Vec<Token> {
        let l = lex(FileId(0), s);
        assert!(l.diags.is_empty(), "{:?}", l.diags);
        l.tokens.into_iter().map(|(t, _)| t).collect()
    }

    #[test]
    fn index_vs_application() {
        assert_eq!(toks("a[i]")[1], Token::IndexOpen);
        assert_eq!(toks("a [i]")[1], Token::LBracket);
        assert_eq!(toks("(a)[i]")[3], Token::IndexOpen);
    }

    #[test]
    fn qualified() {
        assert_eq!(
            toks("f32.inf")[0],
            Token::QualName(vec!["f32".into(), "inf".into()])
        );
        assert_eq!(
            toks("t.0")[0],
            Token::QualName(vec!["t".into(), "0".into()])
        );
        assert_eq!(toks("M.+")[0], Token::QualOp(vec!["M".into()], "+".into()));
        assert_eq!(toks("M.(x)")[0], Token::QualParen(vec!["M".into()]));
        assert_eq!(toks("i..<n").len(), 3);
    }

    #[test]
    fn numbers() {
        assert_eq!(
            toks("0x1.8p3")[0],
            Token::Float {
                value: 12.0,
                suffix: None
            }
        );
        assert_eq!(
            toks("1_000i64")[0],
            Token::Int {
                value: 1000,
                suffix: Some(PrimType::I64),
                nat: false
            }
        );
        assert_eq!(
            toks("0b101u8")[0],
            Token::Int {
                value: 5,
                suffix: Some(PrimType::U8),
                nat: false
            }
        );
        assert_eq!(
            toks("2.5e-1f32")[0],
            Token::Float {
                value: 0.25,
                suffix: Some(PrimType::F32)
            }
        );
        assert_eq!(
            toks("3f64")[0],
            Token::Float {
                value: 3.0,
                suffix: Some(PrimType::F64)
            }
        );
        assert!(!lex(FileId(0), "300u8").diags.is_empty());
        assert!(!lex(FileId(0), "3abc").diags.is_empty());
        assert!(!lex(FileId(0), "0b102").diags.is_empty());
        assert_eq!(lex(FileId(0), "0b102").tokens.len(), 1);
        assert_eq!(
            toks("0x80i8")[0],
            Token::Int {
                value: -128,
                suffix: Some(PrimType::I8),
                nat: false
            }
        );
    }

    #[test]
    fn chars_and_ticks() {
        assert_eq!(toks("'a'")[0], Token::Char('a' as u32));
        assert_eq!(toks("'\\n'")[0], Token::Char(10));
        assert_eq!(toks("'a")[0], Token::Tick);
        assert_eq!(toks("'^a")[0], Token::TickCaret);
        assert_eq!(toks("x'")[0], Token::Ident("x'".into()));
    }

    #[test]
    fn comments_and_docs() {
        let l = lex(FileId(0), "-- hi\n-- | doc\n-- more\ndef x = 1 -- trailing");
        assert_eq!(l.tokens.len(), 4);
        assert_eq!(l.docs, vec![(23, "doc\nmore".to_string())]);
    }

    #[test]
    fn byte_order_mark_is_skipped() {
        assert_eq!(toks("\u{feff}def x = 1").len(), 4);
    }

    #[test]
    fn operators() {
        assert_eq!(toks("a|>b")[1], Token::Op("|>".into()));
        assert_eq!(toks("a = b")[1], Token::Equals);
        assert_eq!(toks("a -> b")[1], Token::Arrow);
        assert_eq!(toks("x+--c").len(), 2);
    }
}
