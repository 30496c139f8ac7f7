//! Parsing the textual IR written by [`crate::print`].
//!
//! [`parse_program`] turns text into a [`Program`] or a [`ParseError`]
//! with a line and column; it never panics. Variables are resolved by name
//! within each function: every occurrence of a name is the same variable,
//! whose type is given where it is bound. A name bound twice with the same
//! type is one variable bound twice (which [`crate::verify`] reports); a
//! name that is used but never bound is a parse error.

use std::collections::HashMap;
use std::fmt;

use values::{PrimType, PrimValue};

use crate::arena::PrimaryMap;
use crate::ids::{EntityId, FunId, VarId};
use crate::syntax::*;
use crate::types::{Size, Span, Type};

/// A syntax error with its position (1-based line and column).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ParseError {
    /// Line, from 1.
    pub line: u32,
    /// Column in characters, from 1.
    pub col: u32,
    /// What went wrong.
    pub message: String,
}

impl fmt::Display for ParseError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}:{}: {}", self.line, self.col, self.message)
    }
}

impl std::error::Error for ParseError {}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Pos {
    line: u32,
    col: u32,
}

#[derive(Clone, Debug, PartialEq)]
enum Tok {
    Ident(String),
    Num(String),
    Str(String),
    Punct(&'static str),
    Eof,
}

impl fmt::Display for Tok {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Tok::Ident(s) | Tok::Num(s) => write!(f, "`{s}`"),
            Tok::Str(s) => write!(f, "{s:?}"),
            Tok::Punct(p) => write!(f, "`{p}`"),
            Tok::Eof => write!(f, "end of input"),
        }
    }
}

const PUNCTS: &[&str] = &[
    "->", "(", ")", "[", "]", "{", "}", ",", ":", "=", "\\", "*", "@", "#", "<", "?", "+",
];

fn lex(src: &str) -> Result<Vec<(Tok, Pos)>, ParseError> {
    let chars: Vec<char> = src.chars().collect();
    let mut toks = Vec::new();
    let (mut i, mut line, mut col) = (0usize, 1u32, 1u32);
    let err = |line, col, message: String| ParseError { line, col, message };
    let is_ident_start = |c: char| c.is_ascii_alphabetic() || c == '_';
    let is_ident = |c: char| c.is_ascii_alphanumeric() || c == '_' || c == '\'' || c == '.';
    while i < chars.len() {
        let c = chars[i];
        let pos = Pos { line, col };
        let start = i;
        if c == '\n' {
            i += 1;
            line += 1;
            col = 1;
            continue;
        }
        if c.is_whitespace() {
            i += 1;
            col += 1;
            continue;
        }
        let next = chars.get(i + 1).copied();
        if c == '-' && next == Some('-') {
            while i < chars.len() && chars[i] != '\n' {
                i += 1;
            }
            continue;
        }
        let tok = if c.is_ascii_digit()
            || (c == '-' && next.is_some_and(|n| n.is_ascii_digit() || n == 'f'))
        {
            let mut j = i + 1;
            if c == '-' && next == Some('f') {
                while j < chars.len() && is_ident(chars[j]) {
                    j += 1;
                }
            } else {
                while j < chars.len() && chars[j].is_ascii_digit() {
                    j += 1;
                }
                if j + 1 < chars.len() && chars[j] == '.' && chars[j + 1].is_ascii_digit() {
                    j += 1;
                    while j < chars.len() && chars[j].is_ascii_digit() {
                        j += 1;
                    }
                }
                if j < chars.len() && (chars[j] == 'e' || chars[j] == 'E') {
                    let mut k = j + 1;
                    if k < chars.len() && (chars[k] == '-' || chars[k] == '+') {
                        k += 1;
                    }
                    if k < chars.len() && chars[k].is_ascii_digit() {
                        j = k;
                        while j < chars.len() && chars[j].is_ascii_digit() {
                            j += 1;
                        }
                    }
                }
                if j < chars.len() && matches!(chars[j], 'i' | 'u' | 'f') {
                    j += 1;
                    while j < chars.len() && chars[j].is_ascii_digit() {
                        j += 1;
                    }
                }
            }
            i = j;
            Tok::Num(chars[start..j].iter().collect())
        } else if is_ident_start(c) {
            let mut j = i + 1;
            while j < chars.len() && is_ident(chars[j]) {
                j += 1;
            }
            i = j;
            Tok::Ident(chars[start..j].iter().collect())
        } else if c == '"' {
            let mut s = String::new();
            let mut j = i + 1;
            loop {
                match chars.get(j) {
                    None | Some('\n') => {
                        return Err(err(line, col, "unterminated string".into()));
                    }
                    Some('"') => break,
                    Some('\\') => {
                        let e = chars.get(j + 1).copied();
                        j += 2;
                        match e {
                            Some('n') => s.push('\n'),
                            Some('t') => s.push('\t'),
                            Some('r') => s.push('\r'),
                            Some('0') => s.push('\0'),
                            Some('\\') => s.push('\\'),
                            Some('"') => s.push('"'),
                            Some('\'') => s.push('\''),
                            Some('u') if chars.get(j) == Some(&'{') => {
                                let close = chars[j..].iter().position(|&c| c == '}');
                                let ch = close.and_then(|k| {
                                    let hex: String = chars[j + 1..j + k].iter().collect();
                                    let ch = u32::from_str_radix(&hex, 16).ok()?;
                                    j += k + 1;
                                    char::from_u32(ch)
                                });
                                match ch {
                                    Some(ch) => s.push(ch),
                                    None => {
                                        return Err(err(line, col, "bad unicode escape".into()));
                                    }
                                }
                            }
                            _ => return Err(err(line, col, "bad escape in string".into())),
                        }
                    }
                    Some(&ch) => {
                        s.push(ch);
                        j += 1;
                    }
                }
            }
            i = j + 1;
            Tok::Str(s)
        } else if let Some(p) = PUNCTS.iter().find(|p| {
            p.chars()
                .enumerate()
                .all(|(k, pc)| chars.get(i + k) == Some(&pc))
        }) {
            i += p.chars().count();
            Tok::Punct(p)
        } else {
            return Err(err(line, col, format!("unexpected character {c:?}")));
        };
        col += u32::try_from(i - start).unwrap_or(u32::MAX);
        toks.push((tok, pos));
    }
    toks.push((Tok::Eof, Pos { line, col }));
    Ok(toks)
}

/// Per-function name resolution.
#[derive(Default)]
struct FunState {
    names: HashMap<String, VarId>,
    vars: PrimaryMap<VarId, VarInfo>,
    defined: Vec<bool>,
    first_use: Vec<Pos>,
}

impl FunState {
    fn use_var(&mut self, name: &str, pos: Pos) -> VarId {
        if let Some(&v) = self.names.get(name) {
            return v;
        }
        let v = self.vars.push(VarInfo {
            name: name.to_string(),
            ty: Type::scalar(PrimType::Bool),
        });
        self.defined.push(false);
        self.first_use.push(pos);
        self.names.insert(name.to_string(), v);
        v
    }
}

const MAX_DEPTH: u32 = 200;

struct Parser {
    toks: Vec<(Tok, Pos)>,
    pos: usize,
    funs: HashMap<String, FunId>,
    st: FunState,
    depth: u32,
}

type R<T> = Result<T, ParseError>;

/// Parses a whole program.
pub fn parse_program(src: &str) -> Result<Program, ParseError> {
    let toks = lex(src)?;
    let mut p = Parser {
        toks,
        pos: 0,
        funs: HashMap::new(),
        st: FunState::default(),
        depth: 0,
    };
    p.collect_functions()?;
    p.program()
}

impl Parser {
    fn peek(&self) -> &Tok {
        self.toks.get(self.pos).map(|t| &t.0).unwrap_or(&Tok::Eof)
    }

    fn peek_at(&self, k: usize) -> &Tok {
        self.toks
            .get(self.pos + k)
            .map(|t| &t.0)
            .unwrap_or(&Tok::Eof)
    }

    fn here(&self) -> Pos {
        self.toks
            .get(self.pos)
            .or(self.toks.last())
            .map(|t| t.1)
            .unwrap_or(Pos { line: 1, col: 1 })
    }

    fn error<T>(&self, message: impl Into<String>) -> R<T> {
        let p = self.here();
        Err(ParseError {
            line: p.line,
            col: p.col,
            message: message.into(),
        })
    }

    fn is_punct(&self, p: &str) -> bool {
        matches!(self.peek(), Tok::Punct(q) if *q == p)
    }

    fn is_ident(&self, s: &str) -> bool {
        matches!(self.peek(), Tok::Ident(q) if q == s)
    }

    fn eat(&mut self, p: &str) -> bool {
        if self.is_punct(p) {
            self.pos += 1;
            true
        } else {
            false
        }
    }

    fn expect(&mut self, p: &str) -> R<()> {
        if self.eat(p) {
            Ok(())
        } else {
            self.error(format!("expected `{p}`, found {}", self.peek()))
        }
    }

    fn keyword(&mut self, k: &str) -> R<()> {
        if self.is_ident(k) {
            self.pos += 1;
            Ok(())
        } else {
            self.error(format!("expected `{k}`, found {}", self.peek()))
        }
    }

    fn ident(&mut self) -> R<String> {
        match self.peek() {
            Tok::Ident(s) => {
                let s = s.clone();
                self.pos += 1;
                Ok(s)
            }
            t => self.error(format!("expected a name, found {t}")),
        }
    }

    fn number<T: std::str::FromStr>(&mut self, what: &str) -> R<T> {
        if let Tok::Num(s) = self.peek()
            && let Ok(n) = s.parse::<T>()
        {
            self.pos += 1;
            return Ok(n);
        }
        self.error(format!("expected {what}, found {}", self.peek()))
    }

    fn string(&mut self) -> R<String> {
        match self.peek() {
            Tok::Str(s) => {
                let s = s.clone();
                self.pos += 1;
                Ok(s)
            }
            t => self.error(format!("expected a string, found {t}")),
        }
    }

    /// Comma-separated items up to (and including) `close`.
    fn list<T>(&mut self, close: &str, mut item: impl FnMut(&mut Self) -> R<T>) -> R<Vec<T>> {
        let mut items = Vec::new();
        if self.eat(close) {
            return Ok(items);
        }
        loop {
            items.push(item(self)?);
            if self.eat(close) {
                return Ok(items);
            }
            self.expect(",")?;
        }
    }

    fn collect_functions(&mut self) -> R<()> {
        let mut depth = 0i64;
        let mut next = 0usize;
        for k in 0..self.toks.len() {
            match &self.toks[k].0 {
                Tok::Punct("{") => depth += 1,
                Tok::Punct("}") => depth -= 1,
                Tok::Ident(s) if s == "fun" && depth == 0 => {
                    if let Some((Tok::Ident(name), pos)) = self.toks.get(k + 1) {
                        if self.funs.contains_key(name) {
                            return Err(ParseError {
                                line: pos.line,
                                col: pos.col,
                                message: format!("function `{name}` is defined twice"),
                            });
                        }
                        self.funs.insert(name.clone(), FunId::new(next));
                        next += 1;
                    }
                }
                _ => {}
            }
        }
        Ok(())
    }

    fn program(&mut self) -> R<Program> {
        let mut prog = Program::default();
        loop {
            match self.peek() {
                Tok::Eof => return Ok(prog),
                Tok::Ident(s) if s == "entry" => {
                    let e = self.entry()?;
                    prog.entries.push(e);
                }
                _ => {
                    let f = self.function()?;
                    prog.functions.push(f);
                }
            }
        }
    }

    fn fun_ref(&mut self) -> R<FunId> {
        let name = self.ident()?;
        match self.funs.get(&name) {
            Some(&f) => Ok(f),
            None => {
                self.pos -= 1;
                self.error(format!("unknown function `{name}`"))
            }
        }
    }

    fn entry(&mut self) -> R<EntryPoint> {
        self.keyword("entry")?;
        let name = self.string()?;
        self.expect("=")?;
        let fun = self.fun_ref()?;
        self.expect("(")?;
        let params = self.list(")", Self::entry_value)?;
        self.expect("->")?;
        self.expect("(")?;
        let results = self.list(")", Self::entry_value)?;
        Ok(EntryPoint {
            name,
            fun,
            params,
            results,
        })
    }

    fn entry_value(&mut self) -> R<EntryValue> {
        let unique = self.eat("*");
        let ty = self.string()?;
        self.expect(":")?;
        let values = self.number("a count")?;
        Ok(EntryValue { ty, unique, values })
    }

    fn attrs(&mut self) -> R<Vec<Attr>> {
        if !self.eat("#") {
            return Ok(Vec::new());
        }
        self.expect("[")?;
        self.list("]", |p| {
            let name = p.ident()?;
            Ok(match name.as_str() {
                "stripmine" => {
                    p.expect("(")?;
                    let n = p.number("a count")?;
                    p.expect(")")?;
                    Attr::Stripmine(n)
                }
                "bound" => {
                    p.expect("(")?;
                    let n = p.number("a bound")?;
                    p.expect(")")?;
                    Attr::Bound(n)
                }
                "true_dep" => Attr::TrueDep,
                "sequential" => Attr::Sequential,
                "unsafe" => Attr::Unsafe,
                "noinline" => Attr::NoInline,
                "inline" => Attr::Inline,
                _ => {
                    p.pos -= 1;
                    return p.error(format!("unknown attribute `{name}`"));
                }
            })
        })
    }

    fn function(&mut self) -> R<Function> {
        let attrs = self.attrs()?;
        self.keyword("fun")?;
        let name = self.ident()?;
        self.st = FunState::default();
        self.expect("(")?;
        let params = self.list(")", Self::param)?;
        self.expect("->")?;
        self.expect("(")?;
        let ret = self.list(")", Self::ty)?;
        let body = self.body()?;
        let st = std::mem::take(&mut self.st);
        for (v, info) in st.vars.iter() {
            if !st.defined[v.as_u32() as usize] {
                let p = st.first_use[v.as_u32() as usize];
                return Err(ParseError {
                    line: p.line,
                    col: p.col,
                    message: format!("variable `{}` is used but never bound", info.name),
                });
            }
        }
        Ok(Function {
            name,
            attrs,
            params,
            ret,
            body,
            vars: st.vars,
        })
    }

    /// `NAME: TYPE`, binding the name.
    fn typed_var(&mut self) -> R<VarId> {
        let pos = self.here();
        let name = self.ident()?;
        if crate::print::KEYWORDS.contains(&name.as_str()) {
            self.pos -= 1;
            return self.error(format!("`{name}` is a keyword"));
        }
        self.expect(":")?;
        let ty = self.ty()?;
        let v = self.st.use_var(&name, pos);
        let i = v.as_u32() as usize;
        if self.st.defined[i] && self.st.vars[v].ty != ty {
            return Err(ParseError {
                line: pos.line,
                col: pos.col,
                message: format!("`{name}` is bound again with a different type"),
            });
        }
        self.st.defined[i] = true;
        self.st.vars[v].ty = ty;
        Ok(v)
    }

    fn param(&mut self) -> R<Param> {
        let unique = self.eat("*");
        let var = self.typed_var()?;
        Ok(Param { var, unique })
    }

    fn ty(&mut self) -> R<Type> {
        if self.is_ident("acc") && matches!(self.peek_at(1), Tok::Punct("(")) {
            self.pos += 2;
            let t = self.ty()?;
            self.expect(")")?;
            if t.acc {
                return self.error("accumulator of an accumulator");
            }
            return Ok(t.to_acc());
        }
        let shape = self.shape()?;
        let name = self.ident()?;
        match PrimType::from_name(&name) {
            Some(elem) => Ok(Type::array(elem, shape)),
            None => {
                self.pos -= 1;
                self.error(format!("unknown type `{name}`"))
            }
        }
    }

    fn shape(&mut self) -> R<Vec<Size>> {
        let mut shape = Vec::new();
        while self.eat("[") {
            shape.push(self.size()?);
            self.expect("]")?;
        }
        Ok(shape)
    }

    fn size(&mut self) -> R<Size> {
        if self.eat("?") {
            return Ok(Size::Any);
        }
        if let Tok::Num(_) = self.peek() {
            return Ok(Size::Const(self.number("a size")?));
        }
        let pos = self.here();
        let name = self.ident()?;
        Ok(Size::Var(self.st.use_var(&name, pos)))
    }

    fn var_use(&mut self) -> R<VarId> {
        let pos = self.here();
        let name = self.ident()?;
        if crate::print::KEYWORDS.contains(&name.as_str()) {
            self.pos -= 1;
            return self.error(format!("expected a variable, found `{name}`"));
        }
        Ok(self.st.use_var(&name, pos))
    }

    fn constant(&mut self, text: &str) -> R<PrimValue> {
        match values::parse_value(text).ok().and_then(|v| v.as_scalar()) {
            Some(c) => {
                self.pos += 1;
                Ok(c)
            }
            None => self.error(format!("malformed constant `{text}`")),
        }
    }

    fn operand(&mut self) -> R<Operand> {
        match self.peek().clone() {
            Tok::Num(s) => Ok(Operand::Const(self.constant(&s)?)),
            Tok::Ident(s)
                if s == "true"
                    || s == "false"
                    || PrimType::ALL
                        .iter()
                        .any(|t| s == format!("{t}.nan") || s == format!("{t}.inf")) =>
            {
                Ok(Operand::Const(self.constant(&s)?))
            }
            Tok::Ident(_) => Ok(Operand::Var(self.var_use()?)),
            t => self.error(format!("expected an operand, found {t}")),
        }
    }

    fn operand_list(&mut self) -> R<Vec<Operand>> {
        self.expect("(")?;
        self.list(")", Self::operand)
    }

    fn enter(&mut self) -> R<()> {
        self.depth += 1;
        if self.depth > MAX_DEPTH {
            return self.error("nesting too deep");
        }
        Ok(())
    }

    fn body(&mut self) -> R<Body> {
        self.enter()?;
        self.expect("{")?;
        let mut stms = Vec::new();
        while !self.is_ident("in") {
            stms.push(self.stm()?);
        }
        self.pos += 1;
        let result = self.operand_list()?;
        self.expect("}")?;
        self.depth -= 1;
        Ok(Body { stms, result })
    }

    fn stm(&mut self) -> R<Stm> {
        let attrs = self.attrs()?;
        self.keyword("let")?;
        let pat = if self.eat("(") {
            self.list(")", Self::typed_var)?
        } else {
            vec![self.typed_var()?]
        };
        self.expect("=")?;
        let exp = self.exp()?;
        let span = if self.eat("@") {
            let file = self.number("a file number")?;
            self.expect(":")?;
            let start = self.number("a byte offset")?;
            self.expect(":")?;
            let end = self.number("a byte offset")?;
            Span { file, start, end }
        } else {
            Span::NONE
        };
        Ok(Stm {
            pat,
            exp,
            attrs,
            span,
        })
    }

    fn lambda(&mut self) -> R<Lambda> {
        self.enter()?;
        self.expect("\\")?;
        self.expect("(")?;
        let params = self.list(")", Self::param)?;
        self.expect("->")?;
        self.expect("(")?;
        let ret = self.list(")", Self::ty)?;
        let body = self.body()?;
        self.depth -= 1;
        Ok(Lambda { params, ret, body })
    }

    fn dim_index(&mut self) -> R<DimIndex> {
        let start = self.operand()?;
        if !self.eat(":") {
            return Ok(DimIndex::Fix(start));
        }
        self.expect("+")?;
        let len = self.operand()?;
        self.expect("*")?;
        let stride = self.operand()?;
        Ok(DimIndex::Range { start, len, stride })
    }

    fn index(&mut self) -> R<Vec<DimIndex>> {
        self.expect("[")?;
        self.list("]", Self::dim_index)
    }

    /// `(w, inputs...)` of a SOAC.
    fn soac_head(&mut self) -> R<(Operand, Vec<VarId>)> {
        self.expect("(")?;
        let w = self.operand()?;
        let mut inputs = Vec::new();
        while self.eat(",") {
            inputs.push(self.var_use()?);
        }
        self.expect(")")?;
        Ok((w, inputs))
    }

    fn clause(&mut self, name: &str) -> R<Lambda> {
        self.keyword(name)?;
        self.expect("(")?;
        let l = self.lambda()?;
        self.expect(")")?;
        Ok(l)
    }

    fn scan_red(&mut self) -> R<ScanRed> {
        self.expect("(")?;
        let op = self.lambda()?;
        let mut neutral = Vec::new();
        while self.eat(",") {
            neutral.push(self.operand()?);
        }
        self.expect(")")?;
        Ok(ScanRed {
            op,
            neutral,
            commutative: false,
        })
    }

    fn exp(&mut self) -> R<Exp> {
        let name = match self.peek() {
            Tok::Ident(s) => s.clone(),
            _ => return Ok(Exp::Atom(self.operand()?)),
        };
        let next = self.peek_at(1).clone();
        if name == "if" {
            self.pos += 1;
            let cond = self.operand()?;
            self.keyword("then")?;
            let then_body = self.body()?;
            self.keyword("else")?;
            let else_body = self.body()?;
            return Ok(Exp::If {
                cond,
                then_body,
                else_body,
            });
        }
        if name == "loop" && next == Tok::Punct("(") {
            return self.loop_exp();
        }
        if name == "apply" && matches!(next, Tok::Ident(_)) {
            self.pos += 1;
            let fun = self.fun_ref()?;
            let args = self.operand_list()?;
            return Ok(Exp::Apply { fun, args });
        }
        if next == Tok::Punct("[") {
            let arr = self.var_use()?;
            let idx = self.index()?;
            return Ok(Exp::Index(arr, idx));
        }
        if next == Tok::Ident("with".into()) && self.peek_at(2) == &Tok::Punct("[") {
            let arr = self.var_use()?;
            self.pos += 1;
            let idx = self.index()?;
            self.expect("=")?;
            let v = self.operand()?;
            return Ok(Exp::Update(arr, idx, v));
        }
        if next != Tok::Punct("(") {
            return Ok(Exp::Atom(self.operand()?));
        }
        self.pos += 1;
        match name.as_str() {
            "iota" => {
                let args = self.operand_list()?;
                match args[..] {
                    [n, start, step] => Ok(Exp::Iota { n, start, step }),
                    _ => self.error("iota takes three operands"),
                }
            }
            "replicate" => {
                self.expect("(")?;
                let shape = self.shape()?;
                self.expect(",")?;
                let value = self.operand()?;
                self.expect(")")?;
                Ok(Exp::Replicate { shape, value })
            }
            "reshape" => {
                self.expect("(")?;
                let shape = self.shape()?;
                self.expect(",")?;
                let arr = self.var_use()?;
                self.expect(")")?;
                Ok(Exp::Reshape { shape, arr })
            }
            "rearrange" => {
                self.expect("(")?;
                self.expect("(")?;
                let perm = self.list(")", |p| p.number("a dimension"))?;
                self.expect(",")?;
                let arr = self.var_use()?;
                self.expect(")")?;
                Ok(Exp::Rearrange { perm, arr })
            }
            "concat" => {
                self.expect("(")?;
                let dim = self.number("a dimension")?;
                self.expect(",")?;
                self.expect("[")?;
                let len = self.size()?;
                self.expect("]")?;
                let mut arrs = Vec::new();
                while self.eat(",") {
                    arrs.push(self.var_use()?);
                }
                self.expect(")")?;
                Ok(Exp::Concat { dim, len, arrs })
            }
            "copy" => {
                self.expect("(")?;
                let arr = self.var_use()?;
                self.expect(")")?;
                Ok(Exp::Copy(arr))
            }
            "scratch" => {
                self.expect("(")?;
                let t = self.ident()?;
                let Some(elem) = PrimType::from_name(&t) else {
                    self.pos -= 1;
                    return self.error(format!("unknown type `{t}`"));
                };
                self.expect(",")?;
                let shape = self.shape()?;
                self.expect(")")?;
                Ok(Exp::Scratch { elem, shape })
            }
            "assert" => {
                self.expect("(")?;
                let cond = self.operand()?;
                self.expect(",")?;
                let msg = self.string()?;
                let mut args = Vec::new();
                while self.eat(",") {
                    args.push(self.operand()?);
                }
                self.expect(")")?;
                Ok(Exp::Assert { cond, msg, args })
            }
            "screma" => {
                let (w, inputs) = self.soac_head()?;
                let mut scans = Vec::new();
                let mut reduces = Vec::new();
                loop {
                    if self.is_ident("scan") {
                        self.pos += 1;
                        scans.push(self.scan_red()?);
                    } else if self.is_ident("reduce") || self.is_ident("reduce_comm") {
                        let commutative = self.is_ident("reduce_comm");
                        self.pos += 1;
                        let mut r = self.scan_red()?;
                        r.commutative = commutative;
                        reduces.push(r);
                    } else {
                        break;
                    }
                }
                let map = self.clause("map")?;
                Ok(Exp::Screma(Box::new(Screma {
                    w,
                    inputs,
                    scans,
                    reduces,
                    map,
                })))
            }
            "hist" => {
                let (w, inputs) = self.soac_head()?;
                let mut hists = Vec::new();
                while self.is_ident("into") {
                    self.pos += 1;
                    self.expect("(")?;
                    self.expect("(")?;
                    let dests = self.list(")", Self::var_use)?;
                    self.expect(",")?;
                    let neutral = self.operand_list()?;
                    self.expect(",")?;
                    let op = self.lambda()?;
                    self.expect(")")?;
                    hists.push(HistOp { dests, neutral, op });
                }
                let map = self.clause("map")?;
                Ok(Exp::Hist(Box::new(Hist {
                    w,
                    inputs,
                    hists,
                    map,
                })))
            }
            "scatter" => {
                let (w, inputs) = self.soac_head()?;
                self.keyword("into")?;
                self.expect("(")?;
                let dests = self.list(")", |p| {
                    let arr = p.var_use()?;
                    p.expect("@")?;
                    let rank = p.number("a rank")?;
                    Ok(ScatterDest { arr, rank })
                })?;
                let map = self.clause("map")?;
                Ok(Exp::Scatter(Box::new(Scatter {
                    w,
                    inputs,
                    dests,
                    map,
                })))
            }
            "with_acc" => {
                self.expect("(")?;
                let inputs = self.list(")", |p| {
                    let arr = p.var_use()?;
                    let op = if p.is_ident("op") {
                        p.pos += 1;
                        p.expect("(")?;
                        let l = p.lambda()?;
                        p.expect(",")?;
                        let ne = p.operand()?;
                        p.expect(")")?;
                        Some((l, ne))
                    } else {
                        None
                    };
                    Ok(AccInput { arr, op })
                })?;
                let lambda = self.lambda()?;
                Ok(Exp::WithAcc(Box::new(WithAcc { inputs, lambda })))
            }
            "update_acc" => {
                self.expect("(")?;
                let acc = self.var_use()?;
                self.expect(",")?;
                let idx = self.operand_list()?;
                self.expect(",")?;
                let value = self.operand()?;
                self.expect(")")?;
                Ok(Exp::UpdateAcc { acc, idx, value })
            }
            "jvp" | "vjp" => {
                self.expect("(")?;
                let lambda = self.lambda()?;
                self.expect(",")?;
                let primals = self.operand_list()?;
                self.expect(",")?;
                let seeds = self.operand_list()?;
                self.expect(")")?;
                let ad = Box::new(AdExp {
                    lambda,
                    primals,
                    seeds,
                });
                Ok(if name == "jvp" {
                    Exp::Jvp(ad)
                } else {
                    Exp::Vjp(ad)
                })
            }
            "custom_vjp" => {
                self.expect("(")?;
                let f = self.lambda()?;
                self.expect(",")?;
                let fprime = self.lambda()?;
                self.expect(",")?;
                let args = self.operand_list()?;
                self.expect(")")?;
                Ok(Exp::CustomVjp(Box::new(CustomVjp { f, fprime, args })))
            }
            _ => self.scalar_op(&name),
        }
    }

    fn scalar_op(&mut self, name: &str) -> R<Exp> {
        let conv = |prefix: &str| {
            name.strip_prefix(prefix)
                .and_then(|t| t.strip_prefix('_'))
                .and_then(PrimType::from_name)
        };
        let kind = if let Some(t) = conv("to") {
            Some((ConvKind::Convert, t))
        } else {
            conv("bits").map(|t| (ConvKind::Bitcast, t))
        };
        let unknown = !(kind.is_some()
            || UnOp::from_name(name).is_some()
            || BinOp::from_name(name).is_some()
            || CmpOp::from_name(name).is_some()
            || MathFn::from_name(name).is_some());
        if unknown {
            self.pos -= 1;
            return self.error(format!("unknown operation `{name}`"));
        }
        let args = self.operand_list()?;
        let arity_error = |p: &Self, n: usize| p.error(format!("`{name}` takes {n} operands"));
        if let Some((k, t)) = kind {
            return match args[..] {
                [x] => Ok(Exp::Convert(k, t, x)),
                _ => arity_error(self, 1),
            };
        }
        if let Some(op) = UnOp::from_name(name) {
            return match args[..] {
                [x] => Ok(Exp::UnOp(op, x)),
                _ => arity_error(self, 1),
            };
        }
        if let Some(op) = BinOp::from_name(name) {
            return match args[..] {
                [x, y] => Ok(Exp::BinOp(op, x, y)),
                _ => arity_error(self, 2),
            };
        }
        if let Some(op) = CmpOp::from_name(name) {
            return match args[..] {
                [x, y] => Ok(Exp::Cmp(op, x, y)),
                _ => arity_error(self, 2),
            };
        }
        match MathFn::from_name(name) {
            Some(f) if f.arity() == args.len() => Ok(Exp::Math(f, args)),
            Some(f) => arity_error(self, f.arity()),
            None => self.error(format!("unknown operation `{name}`")),
        }
    }

    fn loop_exp(&mut self) -> R<Exp> {
        self.pos += 1;
        self.expect("(")?;
        let params = self.list(")", |p| {
            let param = p.param()?;
            p.expect("=")?;
            let init = p.operand()?;
            Ok((param, init))
        })?;
        let form = if self.is_ident("for") {
            self.pos += 1;
            let i = self.typed_var()?;
            self.expect("<")?;
            let bound = self.operand()?;
            LoopForm::For { i, bound }
        } else if self.is_ident("while") {
            self.pos += 1;
            LoopForm::While {
                cond: self.var_use()?,
            }
        } else {
            return self.error(format!("expected `for` or `while`, found {}", self.peek()));
        };
        let body = self.body()?;
        Ok(Exp::Loop { params, form, body })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn errors_have_positions() {
        let e =
            parse_program("fun f() -> () {\n  let x: i32 = frob(1i32)\n  in ()\n}\n").unwrap_err();
        assert_eq!((e.line, e.col), (2, 16));
        assert!(e.message.contains("unknown operation `frob`"), "{e}");
        let e = parse_program("fun f(x: i32) -> (i32) {\n  in (y)\n}").unwrap_err();
        assert_eq!(e.to_string(), "2:7: variable `y` is used but never bound");
        let e = parse_program("fun f() -> () {").unwrap_err();
        assert!(e.message.contains("end of input"), "{e}");
    }

    #[test]
    fn garbage_never_panics() {
        let samples = [
            "",
            "fun",
            "fun f(",
            "fun f() -> (",
            "fun f() -> () { in (",
            "\"abc",
            "-",
            "--x",
            "fun f() -> () { let x: [",
            "fun f(x: acc(acc(i32))) -> () { in () }",
            "fun f() -> () { let x: i32 = screma(1i64) map(\\() -> () { in () }) in (x) }",
            "@#$%",
            "entry \"x\" = g() -> ()",
            "fun f() -> () { let x: i32 = iota() in () }",
            "1e",
            "-f",
            "\"\\u{zz}\"",
            "fun f() -> () { let (): i32 = 1i32 in () }",
        ];
        for s in samples {
            let _ = parse_program(s);
        }
        let deep = "fun f() -> () { let x: i32 = if true then ".repeat(300);
        assert!(parse_program(&deep).is_err());
        // Every prefix of a valid program fails cleanly.
        let ok = "fun f(n: i64) -> ([n]i32) {\n  let x: [n]i32 = iota(n, 0i32, 1i32) @0:1:2\n  in (x)\n}\n";
        assert!(parse_program(ok).is_ok());
        for k in 0..ok.len() {
            let _ = parse_program(&ok[..k]);
        }
    }
}
