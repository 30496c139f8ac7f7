//! The textual form of the IR.
//!
//! [`print_program`] writes a program; [`crate::parse::parse_program`]
//! reads it back, and printing the result gives the same text. The grammar,
//! by example:
//!
//! ```text
//! -- a comment runs to the end of the line
//! entry "main" = dot("[]f64": 1, *"[]f64": 1) -> ("f64": 1)
//!
//! #[noinline]
//! fun dot(n: i64, xs: [n]f64, *ys: [n]f64) -> (f64) {
//!   #[sequential]
//!   let s: f64 = screma(n, xs, ys)
//!     reduce_comm(\(a: f64, b: f64) -> (f64) {
//!       let c: f64 = add(a, b)
//!       in (c)
//!     }, 0.0f64)
//!     map(\(x: f64, y: f64) -> (f64) {
//!       let p: f64 = mul(x, y)
//!       in (p)
//!     }) @0:10:42
//!   in (s)
//! }
//! ```
//!
//! - A function: attributes, `fun NAME(PARAMS) -> (TYPES) BODY`; a
//!   parameter is `NAME: TYPE`, with a leading `*` when unique.
//! - An entry point: `entry "NAME" = FUN(EXTERNAL...) -> (EXTERNAL...)`,
//!   where each external value is `"SOURCE TYPE": COUNT` (with `*` when
//!   unique) and covers `COUNT` IR values.
//! - Types: `f64`, `[n][3]i32` (sizes are `i64` variables, constants or
//!   `?`), `acc([n]f64)` for accumulators.
//! - A body: `{ STM... in (OPERANDS) }`, one statement per line.
//! - A statement: optional `#[attr, attr(ARG)]`, then
//!   `let PAT = EXP`, optionally followed by the span `@FILE:START:END`.
//!   `PAT` is `x: T` for one variable and `(x: T, y: U)` otherwise.
//! - Operands: variable names, or constants in the value format (`1i32`,
//!   `2.5f64`, `f32.nan`, `-f64.inf`, `true`).
//! - Scalar ops: `neg(x)`, `add(x, y)`, `lt(x, y)`, `sqrt(x)`, …, named by
//!   [`UnOp::name`], [`BinOp::name`], [`CmpOp::name`], [`MathFn::name`];
//!   conversions `to_f32(x)` and bit casts `bits_u64(x)`.
//! - Arrays: `xs[i, 0i64:+n*1i64]` (index and slice: `start:+len*stride`),
//!   `xs with [i] = v`, `iota(n, start, step)`, `replicate([n][m], v)`,
//!   `reshape([n][m], xs)`, `rearrange((1, 0), xs)`,
//!   `concat(DIM, [LEN], xs, ys)`, `copy(xs)`, `scratch(f64, [n])`.
//! - Control: `if c then BODY else BODY`,
//!   `loop (PARAM = INIT, ...) for i: i64 < n BODY`,
//!   `loop (...) while c BODY`, `apply f(args)`, `assert(c, "text")`.
//! - Lambdas: `\(PARAMS) -> (TYPES) BODY`.
//! - SOACs: `screma(w, inputs...)` followed by any number of
//!   `scan(LAMBDA, NEUTRAL...)`, `reduce(...)`, `reduce_comm(...)` and one
//!   `map(LAMBDA)`; `hist(w, inputs...) into((DESTS), (NEUTRALS), LAMBDA)...
//!   map(LAMBDA)`; `scatter(w, inputs...) into(dest@RANK, ...)
//!   map(LAMBDA)`; `with_acc(xs, ys op(LAMBDA, NEUTRAL)) LAMBDA`;
//!   `update_acc(acc, (i, j), v)`; `jvp(LAMBDA, (PRIMALS), (TANGENTS))`,
//!   `vjp(LAMBDA, (PRIMALS), (ADJOINTS))` and
//!   `custom_vjp(LAMBDA, LAMBDA, (ARGS))`.
//!
//! Variables print by name. When two variables of a function share a name
//! (or a name is a keyword or not an identifier), the printer makes the
//! names distinct, so the text always parses back to the same program.

use std::collections::{HashMap, HashSet};
use std::fmt::{self, Write};

use crate::arena::PrimaryMap;
use crate::ids::{EntityId, FunId, VarId};
use crate::syntax::*;
use crate::types::{Size, Span, Type};

/// Words that cannot be variable or function names.
pub const KEYWORDS: &[&str] = &[
    "let", "in", "if", "then", "else", "loop", "for", "while", "fun", "entry", "true", "false",
];

/// True when `s` lexes as a single name token.
pub fn is_plain_name(s: &str) -> bool {
    let mut cs = s.chars();
    let Some(first) = cs.next() else {
        return false;
    };
    (first.is_ascii_alphabetic() || first == '_')
        && cs.all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '\'' || c == '.')
        && !KEYWORDS.contains(&s)
        && values::PrimType::ALL
            .iter()
            .all(|t| !s.starts_with(&format!("{t}.")))
}

/// Unique, lexable names for the variables of one function.
fn var_names(vars: &PrimaryMap<VarId, VarInfo>) -> Vec<String> {
    let mut count: HashMap<&str, usize> = HashMap::new();
    for v in vars.values() {
        *count.entry(v.name.as_str()).or_default() += 1;
    }
    let mut taken: HashSet<String> = vars
        .values()
        .filter(|v| count[v.name.as_str()] == 1 && is_plain_name(&v.name))
        .map(|v| v.name.clone())
        .collect();
    vars.iter()
        .map(|(id, v)| {
            if count[v.name.as_str()] == 1 && is_plain_name(&v.name) {
                return v.name.clone();
            }
            let base: String = v
                .name
                .chars()
                .map(|c| {
                    if c.is_ascii_alphanumeric() || c == '_' {
                        c
                    } else {
                        '_'
                    }
                })
                .collect();
            let base = if base.starts_with(|c: char| c.is_ascii_alphabetic() || c == '_') {
                base
            } else {
                format!("v{base}")
            };
            let mut name = format!("{base}_{}", id.index());
            while taken.contains(&name) || !is_plain_name(&name) {
                name.push('_');
            }
            taken.insert(name.clone());
            name
        })
        .collect()
}

/// The type `t` as text, naming size variables by their names in `vars`.
pub fn type_string(vars: &PrimaryMap<VarId, VarInfo>, t: &Type) -> String {
    let names: Vec<String> = vars.values().map(|v| v.name.clone()).collect();
    let mut s = String::new();
    write_type(&mut s, &names, t);
    s
}

fn write_size(out: &mut String, names: &[String], s: &Size) {
    match s {
        Size::Const(n) => {
            let _ = write!(out, "{n}");
        }
        Size::Var(v) => match names.get(v.index()) {
            Some(n) => out.push_str(n),
            None => {
                let _ = write!(out, "{v:?}");
            }
        },
        Size::Any => out.push('?'),
    }
}

fn write_type(out: &mut String, names: &[String], t: &Type) {
    if t.acc {
        out.push_str("acc(");
    }
    for s in &t.shape {
        out.push('[');
        write_size(out, names, s);
        out.push(']');
    }
    out.push_str(t.elem.name());
    if t.acc {
        out.push(')');
    }
}

/// Prints a whole program.
pub fn print_program(p: &Program) -> String {
    let fun_names = fun_names(p);
    let mut out = String::new();
    for e in &p.entries {
        let _ = write!(out, "entry {:?} = ", e.name);
        out.push_str(
            fun_names
                .get(e.fun.index())
                .map(String::as_str)
                .unwrap_or("?"),
        );
        write_entry_values(&mut out, &e.params);
        out.push_str(" -> ");
        write_entry_values(&mut out, &e.results);
        out.push('\n');
    }
    for (id, f) in p.functions.iter() {
        if !out.is_empty() {
            out.push('\n');
        }
        let mut pr = Printer {
            out: String::new(),
            names: var_names(&f.vars),
            funs: &fun_names,
            indent: 0,
        };
        pr.function(&fun_names[id.index()], f);
        out.push_str(&pr.out);
    }
    out
}

/// Prints one function of a program.
pub fn print_function(p: &Program, fun: FunId) -> String {
    let fun_names = fun_names(p);
    let Some(f) = p.functions.get(fun) else {
        return String::new();
    };
    let mut pr = Printer {
        out: String::new(),
        names: var_names(&f.vars),
        funs: &fun_names,
        indent: 0,
    };
    pr.function(&fun_names[fun.index()], f);
    pr.out
}

fn fun_names(p: &Program) -> Vec<String> {
    let mut seen = HashSet::new();
    p.functions
        .iter()
        .map(|(id, f)| {
            let mut n = if is_plain_name(&f.name) {
                f.name.clone()
            } else {
                format!("f_{}", id.index())
            };
            while !seen.insert(n.clone()) {
                n.push('_');
            }
            n
        })
        .collect()
}

fn write_entry_values(out: &mut String, vs: &[EntryValue]) {
    out.push('(');
    for (i, v) in vs.iter().enumerate() {
        if i > 0 {
            out.push_str(", ");
        }
        if v.unique {
            out.push('*');
        }
        let _ = write!(out, "{:?}: {}", v.ty, v.values);
    }
    out.push(')');
}

impl fmt::Display for Program {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&print_program(self))
    }
}

struct Printer<'a> {
    out: String,
    names: Vec<String>,
    funs: &'a [String],
    indent: usize,
}

impl Printer<'_> {
    fn nl(&mut self) {
        self.out.push('\n');
        for _ in 0..self.indent {
            self.out.push_str("  ");
        }
    }

    fn var(&mut self, v: VarId) {
        match self.names.get(v.index()) {
            Some(n) => self.out.push_str(n),
            None => {
                let _ = write!(self.out, "{v:?}");
            }
        }
    }

    fn ty(&mut self, t: &Type) {
        write_type(&mut self.out, &self.names, t);
    }

    fn size(&mut self, s: &Size) {
        write_size(&mut self.out, &self.names, s);
    }

    fn shape(&mut self, shape: &[Size]) {
        for s in shape {
            self.out.push('[');
            self.size(s);
            self.out.push(']');
        }
    }

    fn operand(&mut self, o: &Operand) {
        match o {
            Operand::Var(v) => self.var(*v),
            Operand::Const(c) => {
                let _ = write!(self.out, "{c}");
            }
        }
    }

    fn operands(&mut self, os: &[Operand]) {
        for (i, o) in os.iter().enumerate() {
            if i > 0 {
                self.out.push_str(", ");
            }
            self.operand(o);
        }
    }

    fn vars(&mut self, vs: &[VarId]) {
        for (i, v) in vs.iter().enumerate() {
            if i > 0 {
                self.out.push_str(", ");
            }
            self.var(*v);
        }
    }

    fn typed_var(&mut self, v: VarId, unique: bool, types: &PrimaryMap<VarId, VarInfo>) {
        if unique {
            self.out.push('*');
        }
        self.var(v);
        self.out.push_str(": ");
        match types.get(v) {
            Some(info) => self.ty(&info.ty),
            None => self.out.push('?'),
        }
    }

    fn params(&mut self, ps: &[Param], types: &PrimaryMap<VarId, VarInfo>) {
        self.out.push('(');
        for (i, p) in ps.iter().enumerate() {
            if i > 0 {
                self.out.push_str(", ");
            }
            self.typed_var(p.var, p.unique, types);
        }
        self.out.push(')');
    }

    fn types(&mut self, ts: &[Type]) {
        self.out.push('(');
        for (i, t) in ts.iter().enumerate() {
            if i > 0 {
                self.out.push_str(", ");
            }
            self.ty(t);
        }
        self.out.push(')');
    }

    fn attrs(&mut self, attrs: &[Attr]) {
        if attrs.is_empty() {
            return;
        }
        self.out.push_str("#[");
        for (i, a) in attrs.iter().enumerate() {
            if i > 0 {
                self.out.push_str(", ");
            }
            self.out.push_str(a.name());
            match a {
                Attr::Stripmine(n) => {
                    let _ = write!(self.out, "({n})");
                }
                Attr::Bound(n) => {
                    let _ = write!(self.out, "({n})");
                }
                _ => {}
            }
        }
        self.out.push(']');
        self.nl();
    }

    fn function(&mut self, name: &str, f: &Function) {
        self.attrs(&f.attrs);
        let _ = write!(self.out, "fun {name}");
        self.params(&f.params, &f.vars);
        self.out.push_str(" -> ");
        self.types(&f.ret);
        self.out.push(' ');
        self.body(&f.body, &f.vars);
        self.out.push('\n');
    }

    fn body(&mut self, b: &Body, types: &PrimaryMap<VarId, VarInfo>) {
        self.out.push('{');
        self.indent += 1;
        for s in &b.stms {
            self.nl();
            self.stm(s, types);
        }
        self.nl();
        self.out.push_str("in (");
        self.operands(&b.result);
        self.out.push(')');
        self.indent -= 1;
        self.nl();
        self.out.push('}');
    }

    fn stm(&mut self, s: &Stm, types: &PrimaryMap<VarId, VarInfo>) {
        self.attrs(&s.attrs);
        self.out.push_str("let ");
        if s.pat.len() == 1 {
            self.typed_var(s.pat[0], false, types);
        } else {
            self.out.push('(');
            for (i, v) in s.pat.iter().enumerate() {
                if i > 0 {
                    self.out.push_str(", ");
                }
                self.typed_var(*v, false, types);
            }
            self.out.push(')');
        }
        self.out.push_str(" = ");
        self.exp(&s.exp, types);
        if !s.span.is_none() {
            self.span(s.span);
        }
    }

    fn span(&mut self, s: Span) {
        let _ = write!(self.out, " @{}:{}:{}", s.file, s.start, s.end);
    }

    fn lambda(&mut self, l: &Lambda, types: &PrimaryMap<VarId, VarInfo>) {
        self.out.push('\\');
        self.params(&l.params, types);
        self.out.push_str(" -> ");
        self.types(&l.ret);
        self.out.push(' ');
        self.body(&l.body, types);
    }

    fn dim_index(&mut self, d: &DimIndex) {
        match d {
            DimIndex::Fix(i) => self.operand(i),
            DimIndex::Range { start, len, stride } => {
                self.operand(start);
                self.out.push_str(":+");
                self.operand(len);
                self.out.push('*');
                self.operand(stride);
            }
        }
    }

    fn index(&mut self, idx: &[DimIndex]) {
        self.out.push('[');
        for (i, d) in idx.iter().enumerate() {
            if i > 0 {
                self.out.push_str(", ");
            }
            self.dim_index(d);
        }
        self.out.push(']');
    }

    fn soac_head(&mut self, name: &str, w: &Operand, inputs: &[VarId]) {
        self.out.push_str(name);
        self.out.push('(');
        self.operand(w);
        for i in inputs {
            self.out.push_str(", ");
            self.var(*i);
        }
        self.out.push(')');
    }

    fn clause_lambda(&mut self, name: &str, l: &Lambda, types: &PrimaryMap<VarId, VarInfo>) {
        self.nl();
        self.out.push_str(name);
        self.out.push('(');
        self.lambda(l, types);
        self.out.push(')');
    }

    fn exp(&mut self, e: &Exp, types: &PrimaryMap<VarId, VarInfo>) {
        match e {
            Exp::Atom(o) => self.operand(o),
            Exp::UnOp(op, x) => self.call(op.name(), &[*x]),
            Exp::BinOp(op, x, y) => self.call(op.name(), &[*x, *y]),
            Exp::Cmp(op, x, y) => self.call(op.name(), &[*x, *y]),
            Exp::Convert(k, t, x) => {
                let _ = write!(self.out, "{}_{}", k.name(), t.name());
                self.out.push('(');
                self.operand(x);
                self.out.push(')');
            }
            Exp::Math(f, args) => self.call(f.name(), args),
            Exp::Index(arr, idx) => {
                self.var(*arr);
                self.index(idx);
            }
            Exp::Update(arr, idx, v) => {
                self.var(*arr);
                self.out.push_str(" with ");
                self.index(idx);
                self.out.push_str(" = ");
                self.operand(v);
            }
            Exp::Iota { n, start, step } => self.call("iota", &[*n, *start, *step]),
            Exp::Replicate { shape, value } => {
                self.out.push_str("replicate(");
                self.shape(shape);
                self.out.push_str(", ");
                self.operand(value);
                self.out.push(')');
            }
            Exp::Reshape { shape, arr } => {
                self.out.push_str("reshape(");
                self.shape(shape);
                self.out.push_str(", ");
                self.var(*arr);
                self.out.push(')');
            }
            Exp::Rearrange { perm, arr } => {
                self.out.push_str("rearrange((");
                for (i, p) in perm.iter().enumerate() {
                    if i > 0 {
                        self.out.push_str(", ");
                    }
                    let _ = write!(self.out, "{p}");
                }
                self.out.push_str("), ");
                self.var(*arr);
                self.out.push(')');
            }
            Exp::Concat { dim, len, arrs } => {
                let _ = write!(self.out, "concat({dim}, ");
                self.shape(&[*len]);
                for a in arrs {
                    self.out.push_str(", ");
                    self.var(*a);
                }
                self.out.push(')');
            }
            Exp::Copy(arr) => {
                self.out.push_str("copy(");
                self.var(*arr);
                self.out.push(')');
            }
            Exp::Scratch { elem, shape } => {
                let _ = write!(self.out, "scratch({elem}, ");
                self.shape(shape);
                self.out.push(')');
            }
            Exp::If {
                cond,
                then_body,
                else_body,
            } => {
                self.out.push_str("if ");
                self.operand(cond);
                self.out.push_str(" then ");
                self.body(then_body, types);
                self.out.push_str(" else ");
                self.body(else_body, types);
            }
            Exp::Loop { params, form, body } => {
                self.out.push_str("loop (");
                for (i, (p, init)) in params.iter().enumerate() {
                    if i > 0 {
                        self.out.push_str(", ");
                    }
                    self.typed_var(p.var, p.unique, types);
                    self.out.push_str(" = ");
                    self.operand(init);
                }
                self.out.push_str(") ");
                match form {
                    LoopForm::For { i, bound } => {
                        self.out.push_str("for ");
                        self.typed_var(*i, false, types);
                        self.out.push_str(" < ");
                        self.operand(bound);
                    }
                    LoopForm::While { cond } => {
                        self.out.push_str("while ");
                        self.var(*cond);
                    }
                }
                self.out.push(' ');
                self.body(body, types);
            }
            Exp::Apply { fun, args } => {
                self.out.push_str("apply ");
                let name = self
                    .funs
                    .get(fun.index())
                    .cloned()
                    .unwrap_or_else(|| format!("{fun:?}"));
                self.call(&name, args);
            }
            Exp::Assert { cond, msg, args } => {
                self.out.push_str("assert(");
                self.operand(cond);
                let _ = write!(self.out, ", {msg:?}");
                for a in args {
                    self.out.push_str(", ");
                    self.operand(a);
                }
                self.out.push(')');
            }
            Exp::Screma(s) => {
                self.soac_head("screma", &s.w, &s.inputs);
                self.indent += 1;
                for sc in &s.scans {
                    self.scan_red("scan", sc, types);
                }
                for r in &s.reduces {
                    let name = if r.commutative {
                        "reduce_comm"
                    } else {
                        "reduce"
                    };
                    self.scan_red(name, r, types);
                }
                self.clause_lambda("map", &s.map, types);
                self.indent -= 1;
            }
            Exp::Hist(h) => {
                self.soac_head("hist", &h.w, &h.inputs);
                self.indent += 1;
                for op in &h.hists {
                    self.nl();
                    self.out.push_str("into((");
                    self.vars(&op.dests);
                    self.out.push_str("), (");
                    self.operands(&op.neutral);
                    self.out.push_str("), ");
                    self.lambda(&op.op, types);
                    self.out.push(')');
                }
                self.clause_lambda("map", &h.map, types);
                self.indent -= 1;
            }
            Exp::Scatter(s) => {
                self.soac_head("scatter", &s.w, &s.inputs);
                self.indent += 1;
                self.nl();
                self.out.push_str("into(");
                for (i, d) in s.dests.iter().enumerate() {
                    if i > 0 {
                        self.out.push_str(", ");
                    }
                    self.var(d.arr);
                    let _ = write!(self.out, "@{}", d.rank);
                }
                self.out.push(')');
                self.clause_lambda("map", &s.map, types);
                self.indent -= 1;
            }
            Exp::WithAcc(w) => {
                self.out.push_str("with_acc(");
                for (i, input) in w.inputs.iter().enumerate() {
                    if i > 0 {
                        self.out.push_str(", ");
                    }
                    self.var(input.arr);
                    if let Some((op, ne)) = &input.op {
                        self.out.push_str(" op(");
                        self.lambda(op, types);
                        self.out.push_str(", ");
                        self.operand(ne);
                        self.out.push(')');
                    }
                }
                self.out.push_str(") ");
                self.lambda(&w.lambda, types);
            }
            Exp::UpdateAcc { acc, idx, value } => {
                self.out.push_str("update_acc(");
                self.var(*acc);
                self.out.push_str(", (");
                self.operands(idx);
                self.out.push_str("), ");
                self.operand(value);
                self.out.push(')');
            }
            Exp::Jvp(ad) | Exp::Vjp(ad) => {
                self.out.push_str(if matches!(e, Exp::Jvp(_)) {
                    "jvp("
                } else {
                    "vjp("
                });
                self.lambda(&ad.lambda, types);
                self.out.push_str(", (");
                self.operands(&ad.primals);
                self.out.push_str("), (");
                self.operands(&ad.seeds);
                self.out.push_str("))");
            }
            Exp::CustomVjp(c) => {
                self.out.push_str("custom_vjp(");
                self.lambda(&c.f, types);
                self.out.push_str(", ");
                self.lambda(&c.fprime, types);
                self.out.push_str(", (");
                self.operands(&c.args);
                self.out.push_str("))");
            }
        }
    }

    fn scan_red(&mut self, name: &str, sr: &ScanRed, types: &PrimaryMap<VarId, VarInfo>) {
        self.nl();
        self.out.push_str(name);
        self.out.push('(');
        self.lambda(&sr.op, types);
        for n in &sr.neutral {
            self.out.push_str(", ");
            self.operand(n);
        }
        self.out.push(')');
    }

    fn call(&mut self, name: &str, args: &[Operand]) {
        self.out.push_str(name);
        self.out.push('(');
        self.operands(args);
        self.out.push(')');
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::parse::parse_program;
    use values::PrimType;

    #[test]
    fn clashing_and_odd_names_are_made_distinct() {
        let mut vars = PrimaryMap::new();
        let t = Type::scalar(PrimType::I32);
        let a = vars.push(VarInfo {
            name: "x".into(),
            ty: t.clone(),
        });
        let b = vars.push(VarInfo {
            name: "x".into(),
            ty: t.clone(),
        });
        let c = vars.push(VarInfo {
            name: "in".into(),
            ty: t.clone(),
        });
        let body = Body {
            stms: vec![
                Stm {
                    pat: vec![b],
                    exp: Exp::BinOp(BinOp::Add, a.into(), a.into()),
                    attrs: vec![],
                    span: Span::NONE,
                },
                Stm {
                    pat: vec![c],
                    exp: Exp::Atom(b.into()),
                    attrs: vec![],
                    span: Span::NONE,
                },
            ],
            result: vec![c.into()],
        };
        let mut p = Program::default();
        p.functions.push(Function {
            name: "f".into(),
            attrs: vec![],
            params: vec![Param::new(a)],
            ret: vec![t],
            body,
            vars,
        });
        let text = print_program(&p);
        assert!(text.contains("let x_1: i32 = add(x_0, x_0)"), "{text}");
        assert!(text.contains("let in_2: i32 = x_1"), "{text}");
        let q = parse_program(&text).unwrap();
        assert_eq!(print_program(&q), text);
        crate::verify::verify(&q).unwrap();
    }
}
