//! Evaluating FutharkScript over a [`Backend`].
//!
//! The evaluator knows the program's entry points (their parameter and result
//! types from the type checker) and leaves the calls to the backend, which keeps
//! opaque values in its own representation: the reference interpreter's values,
//! or the components a compiled program exchanges. A literal is read at the type
//! of the parameter it is passed to; elsewhere, unsuffixed numbers are `i32` or
//! `f64`, as in the value format.

use std::collections::HashMap;
use std::fmt;

use semantic::{EntryPoint, EntryType};
use values::{RankedType, Value};

use super::parse::{Expr, ExprKind, Pos};
use crate::run::{entry_type_name, prim_type};

/// A value of a script, with opaque values of type `O`.
#[derive(Clone, Debug)]
pub enum Val<O> {
    /// A scalar or an array of primitives.
    Data(Value),
    /// A literal not yet given a type, as written.
    Literal(String, Pos),
    /// A value of an opaque type: the backend's representation and the type as
    /// the checker writes it (`NAME = STRUCTURE` for a named type).
    Opaque(O, String),
    /// A tuple.
    Tuple(Vec<Val<O>>),
    /// A record, fields sorted by name.
    Record(Vec<(String, Val<O>)>),
    /// A string (an argument of builtins).
    Str(String),
}

impl<O> Val<O> {
    /// What the value is, for messages.
    pub fn describe(&self) -> String {
        match self {
            Val::Data(v) => v.value_type().to_string(),
            Val::Literal(t, _) => format!("the literal `{t}`"),
            Val::Opaque(_, text) => type_name(text).to_string(),
            Val::Tuple(vs) => format!("a tuple of {}", vs.len()),
            Val::Record(_) => "a record".into(),
            Val::Str(_) => "a string".into(),
        }
    }
}

/// Where calls of entry points run.
pub trait Backend {
    /// The representation of opaque values.
    type Opaque: Clone;

    /// Calls `entry`. A transparent parameter gets a [`Val::Data`] of its type;
    /// an opaque parameter a [`Val::Opaque`], or a tuple or record of values to
    /// be built into one (with literals still untyped). A result of a transparent
    /// type must come back as [`Val::Data`], any other as [`Val::Opaque`].
    fn call(
        &mut self,
        entry: &EntryPoint,
        args: Vec<Val<Self::Opaque>>,
    ) -> Result<Vec<Val<Self::Opaque>>, interp::RuntimeError>;
}

/// Why a script failed.
#[derive(Clone, Debug)]
pub enum ScriptError {
    /// The script is wrong (an unknown name, a type that does not fit, a
    /// missing file): at a position of the script.
    Script(Pos, String),
    /// A call failed at run time.
    Runtime(interp::RuntimeError),
}

impl fmt::Display for ScriptError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ScriptError::Script(p, m) => write!(f, "{p}: {m}"),
            ScriptError::Runtime(e) => write!(f, "{}", e.message),
        }
    }
}

/// What an evaluation needs besides the backend: the entry points and the files
/// builtins read.
pub struct Env<'a> {
    /// The program's entry points.
    pub entries: &'a [EntryPoint],
    /// Reads a file named in a builtin (relative to the program).
    pub read_file: &'a dyn Fn(&str) -> Result<Vec<u8>, String>,
}

type Scope<O> = HashMap<String, Val<O>>;

/// Evaluates `expr`.
pub fn eval<B: Backend>(
    env: &Env,
    backend: &mut B,
    expr: &Expr,
) -> Result<Val<B::Opaque>, ScriptError> {
    eval_in(env, backend, &mut Scope::new(), expr)
}

/// Evaluates `expr` and calls `entry` on its value: a tuple is spread over the
/// parameters (unless the entry takes one tuple), anything else is the one
/// argument. The results are those of `entry`, which must all be transparent.
pub fn run_entry<B: Backend>(
    env: &Env,
    backend: &mut B,
    expr: &Expr,
    entry: &EntryPoint,
) -> Result<Vec<Value>, ScriptError> {
    let args = entry_args(env, backend, expr, entry)?;
    call_entry(backend, entry, args, expr.pos)
}

/// Evaluates `expr` into the arguments of `entry`, as [`run_entry`] passes
/// them, checked against its parameters; every call the script makes runs
/// here, so that [`call_entry`] runs only the entry (`fut bench` times that).
pub fn entry_args<B: Backend>(
    env: &Env,
    backend: &mut B,
    expr: &Expr,
    entry: &EntryPoint,
) -> Result<Vec<Val<B::Opaque>>, ScriptError> {
    let v = eval(env, backend, expr)?;
    check_args(entry, spread(entry, vec![(v, expr.pos)]), expr.pos)
}

/// Calls `entry` on arguments from [`entry_args`]; its results must all be
/// transparent. `pos` places messages (the script's start).
pub fn call_entry<B: Backend>(
    backend: &mut B,
    entry: &EntryPoint,
    args: Vec<Val<B::Opaque>>,
    pos: Pos,
) -> Result<Vec<Value>, ScriptError> {
    let results = backend.call(entry, args).map_err(ScriptError::Runtime)?;
    results
        .into_iter()
        .zip(&entry.results)
        .map(|(r, t)| match r {
            Val::Data(v) => Ok(v),
            _ => Err(ScriptError::Script(
                pos,
                format!(
                    "entry point `{}` returns a value of the opaque type {}, which cannot be compared with an expected output",
                    entry.name,
                    entry_type_name(t)
                ),
            )),
        })
        .collect()
}

/// The arguments of a call: one tuple argument is spread over several
/// parameters (FutharkScript's uncurrying).
fn spread<O>(entry: &EntryPoint, mut args: Vec<(Val<O>, Pos)>) -> Vec<(Val<O>, Pos)> {
    if args.len() == 1
        && entry.params.len() != 1
        && let (Val::Tuple(vs), _) = &args[0]
        && vs.len() == entry.params.len()
        && let Some((Val::Tuple(vs), pos)) = args.pop()
    {
        return vs.into_iter().map(|v| (v, pos)).collect();
    }
    args
}

fn eval_in<B: Backend>(
    env: &Env,
    backend: &mut B,
    scope: &mut Scope<B::Opaque>,
    expr: &Expr,
) -> Result<Val<B::Opaque>, ScriptError> {
    let err = |m: String| Err(ScriptError::Script(expr.pos, m));
    match &expr.kind {
        ExprKind::Literal(t) => Ok(Val::Literal(t.clone(), expr.pos)),
        ExprKind::Str(s) => Ok(Val::Str(s.clone())),
        ExprKind::Tuple(es) => Ok(Val::Tuple(
            es.iter()
                .map(|e| eval_in(env, backend, scope, e))
                .collect::<Result<_, _>>()?,
        )),
        ExprKind::Record(fs) => {
            let mut out = Vec::new();
            for (n, e) in fs {
                out.push((n.clone(), eval_in(env, backend, scope, e)?));
            }
            out.sort_by(|a, b| a.0.cmp(&b.0));
            Ok(Val::Record(out))
        }
        ExprKind::Array(es) => {
            let mut vals = Vec::new();
            for e in es {
                vals.push((eval_in(env, backend, scope, e)?, e.pos));
            }
            // Literal elements take the type of the first computed one.
            let row_type = vals.iter().find_map(|(v, _)| match v {
                Val::Data(d) => Some(RankedType::new(d.rank(), d.prim_type())),
                _ => None,
            });
            let mut rows = Vec::new();
            for (v, pos) in vals {
                rows.push(data_of(v, row_type.as_ref()).map_err(|m| ScriptError::Script(pos, m))?);
            }
            stack(&rows).map(Val::Data).or_else(err)
        }
        ExprKind::Let {
            names,
            tuple,
            value,
            body,
        } => {
            let v = eval_in(env, backend, scope, value)?;
            let bound: Vec<Val<B::Opaque>> = if *tuple {
                match v {
                    Val::Tuple(vs) if vs.len() == names.len() => vs,
                    other => {
                        return Err(ScriptError::Script(
                            value.pos,
                            format!(
                                "the pattern binds {} names, but the value is {}",
                                names.len(),
                                other.describe()
                            ),
                        ));
                    }
                }
            } else {
                vec![v]
            };
            let saved: Vec<(String, Option<Val<B::Opaque>>)> = names
                .iter()
                .zip(bound)
                .map(|(n, v)| (n.clone(), scope.insert(n.clone(), v)))
                .collect();
            let result = eval_in(env, backend, scope, body);
            for (n, old) in saved.into_iter().rev() {
                match old {
                    Some(v) => scope.insert(n, v),
                    None => scope.remove(&n),
                };
            }
            result
        }
        ExprKind::Call {
            name,
            builtin: true,
            args,
        } => {
            let mut vals = Vec::new();
            for a in args {
                vals.push(eval_in(env, backend, scope, a)?);
            }
            builtin(env, name, vals).or_else(err)
        }
        ExprKind::Call { name, args, .. } => {
            if args.is_empty()
                && let Some(v) = scope.get(name)
            {
                return Ok(v.clone());
            }
            let Some(entry) = env.entries.iter().find(|e| e.name == *name) else {
                let known: Vec<&str> = env.entries.iter().map(|e| e.name.as_str()).collect();
                return err(format!(
                    "`{name}` is neither a variable nor an entry point; the entry points are: {}",
                    known.join(", ")
                ));
            };
            let mut vals = Vec::new();
            for a in args {
                vals.push((eval_in(env, backend, scope, a)?, a.pos));
            }
            let vals = spread(entry, vals);
            let mut results = call(backend, entry, vals, expr.pos)?;
            Ok(if results.len() == 1 {
                results.remove(0)
            } else {
                Val::Tuple(results)
            })
        }
    }
}

/// Checks the arguments of a call against the entry's parameters (reading
/// literals at transparent parameters' types) and runs it.
fn call<B: Backend>(
    backend: &mut B,
    entry: &EntryPoint,
    args: Vec<(Val<B::Opaque>, Pos)>,
    pos: Pos,
) -> Result<Vec<Val<B::Opaque>>, ScriptError> {
    let checked = check_args(entry, args, pos)?;
    backend.call(entry, checked).map_err(ScriptError::Runtime)
}

/// The arguments of a call checked against the entry's parameters, literals
/// read at transparent parameters' types.
fn check_args<O>(
    entry: &EntryPoint,
    args: Vec<(Val<O>, Pos)>,
    pos: Pos,
) -> Result<Vec<Val<O>>, ScriptError> {
    let wanted: Vec<String> = entry.params.iter().map(entry_type_name).collect();
    if args.len() != entry.params.len() {
        return Err(ScriptError::Script(
            pos,
            format!(
                "entry point `{}` takes {} argument{} ({}), but is given {}",
                entry.name,
                entry.params.len(),
                if entry.params.len() == 1 { "" } else { "s" },
                wanted.join(", "),
                args.len()
            ),
        ));
    }
    let mut checked = Vec::new();
    for (i, ((a, apos), t)) in args.into_iter().zip(&entry.params).enumerate() {
        let bad = |m: String| {
            ScriptError::Script(
                apos,
                format!(
                    "argument {} of entry point `{}` (of type {}): {m}",
                    i + 1,
                    entry.name,
                    wanted[i]
                ),
            )
        };
        match t {
            EntryType::Array { elem, rank } => {
                let ty = RankedType::new(*rank, prim_type(*elem));
                checked.push(Val::Data(data_of(a, Some(&ty)).map_err(bad)?));
            }
            EntryType::Opaque(_) => match &a {
                Val::Opaque(_, text) if !same_type(text, t) => {
                    return Err(bad(format!("given a value of type {}", type_name(text))));
                }
                Val::Opaque(..) => checked.push(a),
                Val::Tuple(_) | Val::Record(_) => {
                    let types = fits_structure(&a, t).map_err(bad)?;
                    checked.push(type_fields(a, &types).map_err(bad)?)
                }
                other => {
                    return Err(bad(format!("given {}", other.describe())));
                }
            },
        }
    }
    Ok(checked)
}

/// The name of an opaque type given as the checker writes it (`point` for
/// `point = {x: f64, y: f64}`).
fn type_name(text: &str) -> &str {
    text.split_once(" = ").map_or(text, |(n, _)| n)
}

/// Does a value of the opaque type `text` fit a parameter of type `t`? When
/// the names are the same, or the structures: a result whose type is not
/// written is known by its structure only (`#circle f64 | #empty` for a
/// `shape`).
/// Sizes are not compared (`[n0]i32` fits `[]i32`): the backend checks
/// them when the entry point runs.
fn same_type(text: &str, t: &EntryType) -> bool {
    let EntryType::Opaque(want) = t else {
        return false;
    };
    let structure = |s: &str| without_sizes(s.split_once(" = ").map_or(s, |(_, s)| s));
    without_sizes(type_name(text)) == without_sizes(type_name(want))
        || structure(text) == structure(want)
}

/// A type's text with every dimension written `[]`.
fn without_sizes(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut depth = 0usize;
    for c in text.chars() {
        match c {
            '[' => {
                if depth == 0 {
                    out.push('[');
                }
                depth += 1;
            }
            ']' if depth > 0 => {
                depth -= 1;
                if depth == 0 {
                    out.push(']');
                }
            }
            _ if depth > 0 => {}
            _ => out.push(c),
        }
    }
    out
}

/// The parts of a type's text separated by commas outside brackets.
fn top_level_parts(text: &str) -> Vec<&str> {
    let mut parts = Vec::new();
    let (mut depth, mut start) = (0i32, 0usize);
    for (i, c) in text.char_indices() {
        match c {
            '(' | '[' | '{' => depth += 1,
            ')' | ']' | '}' => depth -= 1,
            ',' if depth == 0 => {
                parts.push(text[start..i].trim());
                start = i + 1;
            }
            _ => {}
        }
    }
    let last = text[start..].trim();
    if !last.is_empty() {
        parts.push(last);
    }
    parts
}

/// Checks that a tuple or record written in a script has the shape of the
/// opaque type `t` (a tuple of as many, a record with the same field names), and
/// gives the types of its elements (by position, or fields by name) that are
/// scalars or arrays of primitives; the backend checks the others.
fn fits_structure<O>(v: &Val<O>, t: &EntryType) -> Result<Vec<Option<RankedType>>, String> {
    let EntryType::Opaque(text) = t else {
        return Err(format!("given {}", v.describe()));
    };
    let structure = text.split_once(" = ").map(|(_, s)| s).unwrap_or(text);
    let inner = |open: char, close: char| {
        structure
            .strip_prefix(open)
            .and_then(|r| r.strip_suffix(close))
            .map(top_level_parts)
    };
    match v {
        Val::Tuple(vs) => match inner('(', ')') {
            Some(parts) if parts.len() == vs.len() => {
                Ok(parts.iter().map(|p| transparent_type(p)).collect())
            }
            _ => Err(format!("given a tuple of {}", vs.len())),
        },
        Val::Record(fs) => match inner('{', '}') {
            Some(parts) => {
                let mut want: Vec<(&str, &str)> = parts
                    .iter()
                    .map(|p| {
                        let (n, t) = p.split_once(':').unwrap_or((p, ""));
                        (n.trim(), t.trim())
                    })
                    .collect();
                want.sort_unstable();
                let got: Vec<&str> = fs.iter().map(|(n, _)| n.as_str()).collect();
                let want_names: Vec<&str> = want.iter().map(|(n, _)| *n).collect();
                if got == want_names {
                    Ok(want.iter().map(|(_, t)| transparent_type(t)).collect())
                } else {
                    Err(format!(
                        "given a record with the fields {}, but the type's fields are {}",
                        got.join(", "),
                        want_names.join(", ")
                    ))
                }
            }
            None => Err("given a record".into()),
        },
        _ => Ok(Vec::new()),
    }
}

/// The type named by `text` when it is a scalar or an array of primitives
/// (`f64`, `[]i32`, `[3]f32`).
fn transparent_type(text: &str) -> Option<RankedType> {
    let mut rest = text.trim();
    let mut rank = 0;
    while let Some(r) = rest.strip_prefix('[') {
        rest = &r[r.find(']')? + 1..];
        rank += 1;
    }
    values::PrimType::from_name(rest).map(|p| RankedType::new(rank, p))
}

/// The elements of a tuple or record written in a script, literals read at
/// `types` (see [`fits_structure`]) or, where none is known, at their default
/// types; data is checked against `types`.
fn type_fields<O>(v: Val<O>, types: &[Option<RankedType>]) -> Result<Val<O>, String> {
    let one = |(i, v): (usize, Val<O>)| -> Result<Val<O>, String> {
        match (types.get(i).cloned().flatten(), v) {
            (Some(t), v @ (Val::Literal(..) | Val::Data(_))) => {
                Ok(Val::Data(data_of(v, Some(&t))?))
            }
            (_, v) => type_literals(v),
        }
    };
    Ok(match v {
        Val::Tuple(vs) => Val::Tuple(
            vs.into_iter()
                .enumerate()
                .map(one)
                .collect::<Result<_, _>>()?,
        ),
        Val::Record(fs) => {
            let (names, vs): (Vec<String>, Vec<Val<O>>) = fs.into_iter().unzip();
            let vs = vs
                .into_iter()
                .enumerate()
                .map(one)
                .collect::<Result<Vec<_>, _>>()?;
            Val::Record(names.into_iter().zip(vs).collect())
        }
        other => other,
    })
}

/// The value with the literals inside tuples and records read at their
/// default types.
fn type_literals<O>(v: Val<O>) -> Result<Val<O>, String> {
    Ok(match v {
        Val::Literal(..) => Val::Data(data_of(v, None)?),
        Val::Tuple(vs) => Val::Tuple(
            vs.into_iter()
                .map(type_literals)
                .collect::<Result<_, _>>()?,
        ),
        Val::Record(fs) => Val::Record(
            fs.into_iter()
                .map(|(n, v)| Ok((n, type_literals(v)?)))
                .collect::<Result<_, String>>()?,
        ),
        Val::Str(_) => return Err("a string is not a value of the program".into()),
        other => other,
    })
}

/// A value as data: a literal read at `ty` (or untyped), data checked against
/// `ty`.
pub fn data_of<O>(v: Val<O>, ty: Option<&RankedType>) -> Result<Value, String> {
    let v = match v {
        Val::Data(d) => d,
        Val::Literal(text, _) => match ty {
            Some(t) => values::parse_value_as(&text, t),
            None => values::parse_value(&text),
        }
        .map_err(|e| format!("`{text}`: {}", e.message))?,
        other => {
            return Err(format!(
                "expected a scalar or an array, given {}",
                other.describe()
            ));
        }
    };
    match ty {
        Some(t) if !t.matches(&v) => Err(format!("given a value of type {}", v.value_type())),
        _ => Ok(v),
    }
}

/// An array of the given rows, which must all have the same type and shape.
fn stack(rows: &[Value]) -> Result<Value, String> {
    let first = &rows[0];
    let mut data =
        values::Data::with_capacity(first.prim_type(), first.num_elements() * rows.len());
    for r in rows {
        if r.value_type() != first.value_type() {
            return Err(format!(
                "the elements of an array differ in type or shape: {} and {}",
                first.value_type(),
                r.value_type()
            ));
        }
        for x in r.data().iter() {
            data.push(x);
        }
    }
    let mut shape = vec![rows.len()];
    shape.extend_from_slice(first.shape());
    Value::new(shape, data).map_err(|e| e.to_string())
}

fn builtin<O>(env: &Env, name: &str, args: Vec<Val<O>>) -> Result<Val<O>, String> {
    let file = |args: &[Val<O>]| match args {
        [Val::Str(f)] => Ok(f.clone()),
        _ => Err(format!(
            "`${name}` takes one argument, a file name in quotes"
        )),
    };
    match name {
        "loaddata" => {
            let f = file(&args)?;
            let bytes = (env.read_file)(&f)?;
            let mut vs = values::read_values(&bytes).map_err(|e| format!("{f}: {e}"))?;
            match vs.len() {
                0 => Err(format!("{f} holds no values")),
                1 => Ok(Val::Data(vs.remove(0))),
                _ => Ok(Val::Tuple(vs.into_iter().map(Val::Data).collect())),
            }
        }
        "loadbytes" => {
            let f = file(&args)?;
            let bytes = (env.read_file)(&f)?;
            let n = bytes.len();
            Value::array(vec![n], bytes)
                .map(Val::Data)
                .map_err(|e| e.to_string())
        }
        _ => Err(format!(
            "unknown builtin `${name}`; test blocks have `$loaddata` and `$loadbytes`"
        )),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::script::parse::parse;
    use syntax::ast::PrimType as P;

    /// A backend whose opaque values are strings describing how they were made,
    /// and whose entries `mk` (f64 f64 -> point), `norm` (point -> f64: the
    /// length of its argument as shown), `pair` (i64 -> (point, i64)) and `sum`
    /// ([]i32 -> i32: the number of elements) compute on those.
    struct Fake;

    fn prim(elem: P, rank: usize) -> EntryType {
        EntryType::Array { elem, rank }
    }

    #[test]
    fn opaque_types_match_whatever_their_sizes() {
        let want = EntryType::Opaque("{n: i64, xs: [n0]i32}".into());
        assert!(same_type("{n: i64, xs: []i32}", &want));
        assert!(same_type("{n: i64, xs: [3]i32}", &want));
        assert!(!same_type("{n: i64, xs: []i64}", &want));
        assert!(!same_type("{n: i64, xs: [][]i32}", &want));
        let sums = EntryType::Opaque("t = [n][m](#a [k]f64 | #b)".into());
        assert!(same_type("[][](#a []f64 | #b)", &sums));
        assert!(same_type("t", &sums));
        assert_eq!(without_sizes("([n][2]f64, [m]i32)"), "([][]f64, []i32)");
    }

    fn entries() -> Vec<EntryPoint> {
        let point = || EntryType::Opaque("point = {x: f64, y: f64}".into());
        vec![
            EntryPoint {
                name: "mk".into(),
                params: vec![prim(P::F64, 0), prim(P::F64, 0)],
                results: vec![point()],
            },
            EntryPoint {
                name: "norm".into(),
                params: vec![point()],
                results: vec![prim(P::F64, 0)],
            },
            EntryPoint {
                name: "pair".into(),
                params: vec![prim(P::I64, 0)],
                results: vec![point(), prim(P::I64, 0)],
            },
            EntryPoint {
                name: "sum".into(),
                params: vec![prim(P::I32, 1)],
                results: vec![prim(P::I32, 0)],
            },
        ]
    }

    fn show(v: &Val<String>) -> String {
        match v {
            Val::Data(d) => d.to_string(),
            Val::Literal(t, _) => format!("lit {t}"),
            Val::Opaque(o, t) => format!("<{o}: {}>", type_name(t)),
            Val::Tuple(vs) => format!("({})", vs.iter().map(show).collect::<Vec<_>>().join(", ")),
            Val::Record(fs) => format!(
                "{{{}}}",
                fs.iter()
                    .map(|(n, v)| format!("{n} = {}", show(v)))
                    .collect::<Vec<_>>()
                    .join(", ")
            ),
            Val::Str(s) => format!("{s:?}"),
        }
    }

    impl Backend for Fake {
        type Opaque = String;

        fn call(
            &mut self,
            entry: &EntryPoint,
            args: Vec<Val<String>>,
        ) -> Result<Vec<Val<String>>, interp::RuntimeError> {
            let shown: Vec<String> = args.iter().map(show).collect();
            let point = |s: String| Val::Opaque(s, "point = {x: f64, y: f64}".into());
            Ok(match entry.name.as_str() {
                "mk" => vec![point(format!("mk {}", shown.join(" ")))],
                "norm" => vec![Val::Data(Value::scalar(shown.join(" ").len() as f64))],
                "pair" => vec![
                    point(format!("pair {}", shown[0])),
                    Val::Data(Value::scalar(7i64)),
                ],
                _ => match &args[0] {
                    Val::Data(d) => vec![Val::Data(Value::scalar(d.num_elements() as i32))],
                    _ => vec![],
                },
            })
        }
    }

    fn run(text: &str) -> String {
        let entries = entries();
        let read_file = |f: &str| match f {
            "two.in" => Ok(b"1i64 [2.0f32]".to_vec()),
            _ => Err(format!("cannot read {f}")),
        };
        let env = Env {
            entries: &entries,
            read_file: &read_file,
        };
        let expr = match parse(text) {
            Ok(e) => e,
            Err(e) => return format!("parse error {e}"),
        };
        match eval(&env, &mut Fake, &expr) {
            Ok(v) => show(&v),
            Err(e) => format!("error {e}"),
        }
    }

    #[test]
    fn values_and_calls() {
        assert_eq!(run("mk 1 2.5f64"), "<mk 1.0f64 2.5f64: point>");
        // The fake `norm` gives the length of its argument as shown.
        let len = |s: &str| Value::scalar(s.len() as f64).to_string();
        assert_eq!(run("norm (mk 1 2)"), len("<mk 1.0f64 2.0f64: point>"));
        assert_eq!(run("norm {y = 2, x = 1}"), len("{x = 1.0f64, y = 2.0f64}"));
        assert_eq!(
            run("let (p, n) = pair 3 in (n, p, {b = 1, a = true})"),
            "(7i64, <pair 3i64: point>, {a = lit true, b = lit 1})"
        );
        assert_eq!(run("sum [1, 2, 3]"), "3i32");
        assert_eq!(run("[sum [1], 2, 3]"), "[1i32, 2i32, 3i32]");
        assert_eq!(run("$loaddata \"two.in\""), "(1i64, [2.0f32])");
        assert_eq!(run("let x = 1 in let x = 2i8 in x"), "lit 2i8");
    }

    #[test]
    fn error_messages() {
        let cases = [
            "nope 1",
            "mk 1",
            "mk 1 true",
            "mk (mk 1 2) 3",
            "norm 1.0",
            "norm (1.0, 2.0)",
            "norm {x = 1.0}",
            "norm {x = 1.0, z = 2.0}",
            "sum [1.0, 2]",
            "sum [[1], [2, 3]]",
            "[mk 1 2]",
            "[sum [1], 2.5]",
            "let (a, b) = mk 1 2 in a",
            "$loaddata \"missing.in\"",
            "$loaddata 1",
            "$system \"ls\"",
            "norm {x = \"a\", y = 1.0}",
        ];
        let text: String = cases
            .iter()
            .map(|c| format!("{c}\n  {}\n", run(c)))
            .collect();
        insta::assert_snapshot!(text);
    }
}
