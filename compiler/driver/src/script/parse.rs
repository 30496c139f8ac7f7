//! Reading FutharkScript: the tokens and the expression tree.
//!
//! ```text
//! exp   ::= name atom*               -- a call of an entry point, or a variable
//!         | "$" name atom*           -- a builtin ($loaddata "file", $loadbytes "file")
//!         | "let" pat "=" exp "in" exp
//!         | atom
//! atom  ::= literal | "string" | name
//!         | "(" exp ")" | "(" exp ("," exp)+ ")"
//!         | "[" exp ("," exp)* "]" | "empty" "(" ("[" n "]")+ type ")"
//!         | "{" "}" | "{" name "=" exp ("," name "=" exp)* "}"
//! pat   ::= name | "(" name ("," name)* ")"
//! ```
//!
//! Literals are numbers with an optional type suffix (`1`, `-2.5f32`, `3u8`),
//! `true` and `false`. A literal, or an array or `empty` of literals only, keeps
//! its text: it is read at the type of the parameter it is passed to, as values
//! of `input { … }` blocks are. `--` starts a comment up to the end of the line.

use std::fmt;

/// A position in the script's text: line and column, both from 1.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub struct Pos {
    /// The line, from 1.
    pub line: usize,
    /// The column (in characters), from 1.
    pub col: usize,
}

impl fmt::Display for Pos {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}:{}", self.line, self.col)
    }
}

/// A syntax error in a script, at a position of its text.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ParseError {
    /// Where.
    pub pos: Pos,
    /// What is wrong.
    pub message: String,
}

impl fmt::Display for ParseError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.pos, self.message)
    }
}

/// An expression with its position.
#[derive(Clone, Debug, PartialEq)]
pub struct Expr {
    /// What it is.
    pub kind: ExprKind,
    /// Where it starts.
    pub pos: Pos,
}

/// The forms of expressions.
#[derive(Clone, Debug, PartialEq)]
pub enum ExprKind {
    /// A call of an entry point (or, with no arguments, a variable when one of
    /// that name is bound); `builtin` for a `$name`.
    Call {
        /// The name, without `$`.
        name: String,
        /// Whether it was written `$name`.
        builtin: bool,
        /// The arguments.
        args: Vec<Expr>,
    },
    /// A value written in the value format: a scalar, or an array or `empty` of
    /// literals, as written.
    Literal(String),
    /// A string (the argument of a builtin).
    Str(String),
    /// A tuple of two or more.
    Tuple(Vec<Expr>),
    /// A record; fields as written.
    Record(Vec<(String, Expr)>),
    /// An array whose elements are not all literals.
    Array(Vec<Expr>),
    /// `let name = e in body` or `let (a, b) = e in body`.
    Let {
        /// The names bound.
        names: Vec<String>,
        /// Whether the pattern is a tuple.
        tuple: bool,
        /// The bound expression.
        value: Box<Expr>,
        /// The body.
        body: Box<Expr>,
    },
}

#[derive(Clone, Debug, PartialEq)]
enum Tok {
    Name(String),
    Builtin(String),
    Num(String),
    Str(String),
    Punct(char),
}

impl fmt::Display for Tok {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Tok::Name(n) => write!(f, "`{n}`"),
            Tok::Builtin(n) => write!(f, "`${n}`"),
            Tok::Num(n) => write!(f, "`{n}`"),
            Tok::Str(s) => write!(f, "the string \"{s}\""),
            Tok::Punct(c) => write!(f, "`{c}`"),
        }
    }
}

const PRIMS: [&str; 12] = [
    "i8", "i16", "i32", "i64", "u8", "u16", "u32", "u64", "f16", "f32", "f64", "bool",
];

fn lex(text: &str) -> Result<Vec<(Tok, Pos)>, ParseError> {
    let chars: Vec<char> = text.chars().collect();
    let mut toks = Vec::new();
    let (mut i, mut line, mut col) = (0usize, 1usize, 1usize);
    let advance = |i: &mut usize, line: &mut usize, col: &mut usize, c: char| {
        *i += 1;
        if c == '\n' {
            *line += 1;
            *col = 1;
        } else {
            *col += 1;
        }
    };
    while i < chars.len() {
        let c = chars[i];
        let pos = Pos { line, col };
        if c.is_whitespace() {
            advance(&mut i, &mut line, &mut col, c);
            continue;
        }
        if c == '-' && chars.get(i + 1) == Some(&'-') {
            while i < chars.len() && chars[i] != '\n' {
                {
                    let c = chars[i];
                    advance(&mut i, &mut line, &mut col, c);
                }
            }
            continue;
        }
        let word = |start: usize| -> usize {
            let mut j = start;
            while j < chars.len()
                && (chars[j].is_alphanumeric() || chars[j] == '_' || chars[j] == '\'')
            {
                j += 1;
            }
            j
        };
        if c.is_ascii_digit() || (c == '-' && chars.get(i + 1).is_some_and(|d| d.is_ascii_digit()))
        {
            let mut j = i + 1;
            while j < chars.len()
                && (chars[j].is_alphanumeric()
                    || chars[j] == '_'
                    || chars[j] == '.'
                    || ((chars[j] == '-' || chars[j] == '+')
                        && matches!(chars[j - 1], 'e' | 'E')
                        && !chars[i..j].contains(&'x')))
            {
                j += 1;
            }
            let s: String = chars[i..j].iter().collect();
            if !valid_number(&s) {
                return Err(ParseError {
                    pos,
                    message: format!("`{s}` is not a number"),
                });
            }
            toks.push((Tok::Num(s), pos));
            while i < j {
                {
                    let c = chars[i];
                    advance(&mut i, &mut line, &mut col, c);
                }
            }
            continue;
        }
        if c.is_alphabetic() || c == '_' || c == '$' {
            let start = if c == '$' { i + 1 } else { i };
            let j = word(start);
            let name: String = chars[start..j].iter().collect();
            if name.is_empty() {
                return Err(ParseError {
                    pos,
                    message: "expected a builtin's name after `$`".into(),
                });
            }
            toks.push((
                if c == '$' {
                    Tok::Builtin(name)
                } else {
                    Tok::Name(name)
                },
                pos,
            ));
            while i < j {
                {
                    let c = chars[i];
                    advance(&mut i, &mut line, &mut col, c);
                }
            }
            continue;
        }
        if c == '"' {
            let mut j = i + 1;
            let mut s = String::new();
            loop {
                match chars.get(j) {
                    None | Some('\n') => {
                        return Err(ParseError {
                            pos,
                            message: "unterminated string".into(),
                        });
                    }
                    Some('"') => break,
                    Some('\\') if chars.get(j + 1).is_some_and(|d| *d == '"' || *d == '\\') => {
                        s.push(chars[j + 1]);
                        j += 2;
                    }
                    Some(d) => {
                        s.push(*d);
                        j += 1;
                    }
                }
            }
            toks.push((Tok::Str(s), pos));
            while i <= j {
                {
                    let c = chars[i];
                    advance(&mut i, &mut line, &mut col, c);
                }
            }
            continue;
        }
        if "()[]{},=".contains(c) {
            toks.push((Tok::Punct(c), pos));
            advance(&mut i, &mut line, &mut col, c);
            continue;
        }
        return Err(ParseError {
            pos,
            message: format!("unexpected character `{c}`"),
        });
    }
    Ok(toks)
}

/// Is `s` a number in the value format: digits (decimal, or hexadecimal after
/// `0x`), an optional fraction and exponent, and an optional type suffix?
fn valid_number(s: &str) -> bool {
    let body = s.strip_prefix('-').unwrap_or(s);
    let suffix_at = PRIMS[..11]
        .iter()
        .filter(|p| body.ends_with(*p) && body.len() > p.len())
        .map(|p| body.len() - p.len())
        .next();
    let digits = match suffix_at {
        Some(k) => &body[..k],
        None => body,
    };
    if let Some(hex) = digits.strip_prefix("0x") {
        return !hex.is_empty() && hex.chars().all(|c| c.is_ascii_hexdigit() || c == '_');
    }
    let (mantissa, exponent) = match digits.find(['e', 'E']) {
        Some(k) => (&digits[..k], Some(&digits[k + 1..])),
        None => (digits, None),
    };
    let exp_ok = exponent.is_none_or(|e| {
        let e = e.strip_prefix(['-', '+']).unwrap_or(e);
        !e.is_empty() && e.chars().all(|c| c.is_ascii_digit())
    });
    let mut parts = mantissa.splitn(2, '.');
    let int = parts.next().unwrap_or("");
    let frac = parts.next();
    exp_ok
        && !int.is_empty()
        && int.chars().all(|c| c.is_ascii_digit() || c == '_')
        && frac.is_none_or(|f| !f.is_empty() && f.chars().all(|c| c.is_ascii_digit()))
}

/// Parses a script.
pub fn parse(text: &str) -> Result<Expr, ParseError> {
    let toks = lex(text)?;
    let end = end_pos(text);
    let mut p = Parser {
        toks: &toks,
        at: 0,
        end,
    };
    if toks.is_empty() {
        return Err(ParseError {
            pos: end,
            message: "the script is empty".into(),
        });
    }
    let e = p.expr()?;
    if let Some((t, pos)) = p.toks.get(p.at) {
        return Err(ParseError {
            pos: *pos,
            message: format!("expected the end of the script, found {t}"),
        });
    }
    Ok(e)
}

fn end_pos(text: &str) -> Pos {
    let line = text.matches('\n').count() + 1;
    let col = text.rsplit('\n').next().unwrap_or("").chars().count() + 1;
    Pos { line, col }
}

struct Parser<'a> {
    toks: &'a [(Tok, Pos)],
    at: usize,
    end: Pos,
}

impl Parser<'_> {
    fn peek(&self) -> Option<&Tok> {
        self.toks.get(self.at).map(|(t, _)| t)
    }

    fn pos(&self) -> Pos {
        self.toks.get(self.at).map(|(_, p)| *p).unwrap_or(self.end)
    }

    fn err<T>(&self, expected: &str) -> Result<T, ParseError> {
        let found = match self.peek() {
            Some(t) => t.to_string(),
            None => "the end of the script".into(),
        };
        Err(ParseError {
            pos: self.pos(),
            message: format!("expected {expected}, found {found}"),
        })
    }

    fn eat(&mut self, c: char) -> bool {
        if self.peek() == Some(&Tok::Punct(c)) {
            self.at += 1;
            true
        } else {
            false
        }
    }

    fn expect(&mut self, c: char) -> Result<(), ParseError> {
        if self.eat(c) {
            Ok(())
        } else {
            self.err(&format!("`{c}`"))
        }
    }

    fn is_keyword(&self, k: &str) -> bool {
        matches!(self.peek(), Some(Tok::Name(n)) if n == k)
    }

    fn name(&mut self, what: &str) -> Result<String, ParseError> {
        match self.peek() {
            Some(Tok::Name(n))
                if !["let", "in", "true", "false", "empty"].contains(&n.as_str()) =>
            {
                let n = n.clone();
                self.at += 1;
                Ok(n)
            }
            _ => self.err(what),
        }
    }

    fn expr(&mut self) -> Result<Expr, ParseError> {
        let pos = self.pos();
        if self.is_keyword("let") {
            self.at += 1;
            let (names, tuple) = if self.eat('(') {
                let mut names = vec![self.name("a name")?];
                while self.eat(',') {
                    names.push(self.name("a name")?);
                }
                self.expect(')')?;
                (names, true)
            } else {
                (vec![self.name("a name or `(`")?], false)
            };
            self.expect('=')?;
            let value = self.expr()?;
            if !self.is_keyword("in") {
                return self.err("`in`");
            }
            self.at += 1;
            let body = self.expr()?;
            return Ok(Expr {
                kind: ExprKind::Let {
                    names,
                    tuple,
                    value: Box::new(value),
                    body: Box::new(body),
                },
                pos,
            });
        }
        let builtin = match self.peek() {
            Some(Tok::Builtin(n)) => Some(n.clone()),
            _ => None,
        };
        let name = match (&builtin, self.peek()) {
            (Some(_), _) => builtin.clone(),
            (None, Some(Tok::Name(n)))
                if !["let", "in", "true", "false", "empty"].contains(&n.as_str()) =>
            {
                Some(n.clone())
            }
            _ => None,
        };
        if let Some(name) = name {
            self.at += 1;
            let mut args = Vec::new();
            while self.starts_atom() {
                args.push(self.atom()?);
            }
            return Ok(Expr {
                kind: ExprKind::Call {
                    name,
                    builtin: builtin.is_some(),
                    args,
                },
                pos,
            });
        }
        self.atom()
    }

    fn starts_atom(&self) -> bool {
        match self.peek() {
            Some(Tok::Punct(c)) => "([{".contains(*c),
            Some(Tok::Name(n)) => n != "let" && n != "in",
            Some(Tok::Builtin(_)) => false,
            Some(Tok::Num(_) | Tok::Str(_)) => true,
            None => false,
        }
    }

    fn atom(&mut self) -> Result<Expr, ParseError> {
        let pos = self.pos();
        let kind = match self.peek().cloned() {
            Some(Tok::Num(n)) => {
                self.at += 1;
                ExprKind::Literal(n)
            }
            Some(Tok::Str(s)) => {
                self.at += 1;
                ExprKind::Str(s)
            }
            Some(Tok::Name(n)) if n == "true" || n == "false" => {
                self.at += 1;
                ExprKind::Literal(n)
            }
            Some(Tok::Name(n)) if n == "empty" => {
                self.at += 1;
                ExprKind::Literal(self.empty()?)
            }
            Some(Tok::Name(_)) => ExprKind::Call {
                name: self.name("an expression")?,
                builtin: false,
                args: Vec::new(),
            },
            Some(Tok::Punct('(')) => {
                self.at += 1;
                let first = self.expr()?;
                if self.eat(')') {
                    return Ok(first);
                }
                let mut items = vec![first];
                while self.eat(',') {
                    items.push(self.expr()?);
                }
                if !self.eat(')') {
                    return self.err("`,` or `)`");
                }
                ExprKind::Tuple(items)
            }
            Some(Tok::Punct('[')) => {
                self.at += 1;
                let mut items = vec![self.expr()?];
                while self.eat(',') {
                    items.push(self.expr()?);
                }
                if !self.eat(']') {
                    return self.err("`,` or `]`");
                }
                let texts: Option<Vec<&str>> = items
                    .iter()
                    .map(|e| match &e.kind {
                        ExprKind::Literal(t) => Some(t.as_str()),
                        _ => None,
                    })
                    .collect();
                match texts {
                    Some(ts) => ExprKind::Literal(format!("[{}]", ts.join(", "))),
                    None => ExprKind::Array(items),
                }
            }
            Some(Tok::Punct('{')) => {
                self.at += 1;
                let mut fields: Vec<(String, Expr)> = Vec::new();
                if !self.eat('}') {
                    loop {
                        let fpos = self.pos();
                        let f = self.name("a field name")?;
                        if fields.iter().any(|(g, _)| *g == f) {
                            return Err(ParseError {
                                pos: fpos,
                                message: format!("the field `{f}` is given twice"),
                            });
                        }
                        self.expect('=')?;
                        fields.push((f, self.expr()?));
                        if self.eat('}') {
                            break;
                        }
                        if !self.eat(',') {
                            return self.err("`,` or `}`");
                        }
                    }
                }
                ExprKind::Record(fields)
            }
            _ => return self.err("an expression"),
        };
        Ok(Expr { kind, pos })
    }

    /// The rest of `empty([0]i32)` after `empty`, as text.
    fn empty(&mut self) -> Result<String, ParseError> {
        self.expect('(')?;
        let mut dims = String::new();
        while self.eat('[') {
            match self.peek().cloned() {
                Some(Tok::Num(n)) if n.chars().all(|c| c.is_ascii_digit()) => {
                    self.at += 1;
                    dims.push_str(&format!("[{n}]"));
                }
                _ => return self.err("a size"),
            }
            self.expect(']')?;
        }
        if dims.is_empty() {
            return self.err("`[`");
        }
        match self.peek().cloned() {
            Some(Tok::Name(t)) if PRIMS.contains(&t.as_str()) => {
                self.at += 1;
                self.expect(')')?;
                Ok(format!("empty({dims}{t})"))
            }
            _ => self.err("a primitive type"),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn show(e: &Expr) -> String {
        match &e.kind {
            ExprKind::Call {
                name,
                builtin,
                args,
            } => {
                let mut s = format!("({}{name}", if *builtin { "$" } else { "" });
                for a in args {
                    s.push(' ');
                    s.push_str(&show(a));
                }
                s.push(')');
                s
            }
            ExprKind::Literal(t) => t.clone(),
            ExprKind::Str(t) => format!("{t:?}"),
            ExprKind::Tuple(es) => {
                format!("<{}>", es.iter().map(show).collect::<Vec<_>>().join(", "))
            }
            ExprKind::Array(es) => format!(
                "arr[{}]",
                es.iter().map(show).collect::<Vec<_>>().join(", ")
            ),
            ExprKind::Record(fs) => format!(
                "{{{}}}",
                fs.iter()
                    .map(|(n, e)| format!("{n}={}", show(e)))
                    .collect::<Vec<_>>()
                    .join(", ")
            ),
            ExprKind::Let {
                names,
                tuple,
                value,
                body,
            } => format!(
                "let {}{}{} = {} in {}",
                if *tuple { "(" } else { "" },
                names.join(","),
                if *tuple { ")" } else { "" },
                show(value),
                show(body)
            ),
        }
    }

    fn ok(text: &str) -> String {
        show(&parse(text).unwrap_or_else(|e| panic!("{text}: {e}")))
    }

    fn error(text: &str) -> String {
        match parse(text) {
            Ok(e) => format!("parsed: {}", show(&e)),
            Err(e) => e.to_string(),
        }
    }

    #[test]
    fn calls_literals_and_structures() {
        assert_eq!(ok("mk 10"), "(mk 10)");
        assert_eq!(ok("f (g 1i64 -2.5f32) x"), "(f (g 1i64 -2.5f32) (x))");
        assert_eq!(ok("[1, 2, -3]"), "[1, 2, -3]");
        assert_eq!(ok("[[1,2],[3,4]]"), "[[1, 2], [3, 4]]");
        assert_eq!(ok("[f 1, 2]"), "arr[(f 1), 2]");
        assert_eq!(
            ok("(1, true, empty([0][2]f32))"),
            "<1, true, empty([0][2]f32)>"
        );
        assert_eq!(ok("{x = 1.0, y = g 2}"), "{x=1.0, y=(g 2)}");
        assert_eq!(ok("{}"), "{}");
        assert_eq!(ok("(f 1)"), "(f 1)");
        assert_eq!(
            ok("let (a, b) = $loaddata \"d.in\" in f a b"),
            "let (a,b) = ($loaddata \"d.in\") in (f (a) (b))"
        );
        assert_eq!(
            ok("let p = mk 1 -- a comment\nin\n  shift p 0x10u8 1e-3f64"),
            "let p = (mk 1) in (shift (p) 0x10u8 1e-3f64)"
        );
    }

    #[test]
    fn positions_count_lines_and_columns() {
        let e = parse("let x = 1 in\n  f  x").unwrap();
        let ExprKind::Let { body, .. } = &e.kind else {
            panic!("not a let")
        };
        assert_eq!(body.pos, Pos { line: 2, col: 3 });
    }

    #[test]
    fn error_messages() {
        let cases = [
            "",
            "   -- only a comment",
            "f (1, 2",
            "f 1 )",
            "[1, 2",
            "{x = 1, x = 2}",
            "{x 1}",
            "let = 1 in x",
            "let x = 1 x",
            "let (a, b = f in a",
            "f 1.2.3",
            "f 12abc",
            "f \"open",
            "f 1 ; g",
            "$ 1",
            "empty(i32)",
            "empty([n]i32)",
            "empty([0]string)",
            "in",
        ];
        let text: String = cases
            .iter()
            .map(|c| format!("{c:?}\n  {}\n", error(c)))
            .collect();
        insta::assert_snapshot!(text);
    }
}
