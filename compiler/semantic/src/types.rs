//! The checker's internal representation of types, with sizes, type schemes and
//! substitution, and their display in Futhark syntax.

use std::collections::HashMap;
use std::fmt;
use std::sync::atomic::{AtomicU32, Ordering};
use syntax::ast::{Liftedness, Name, PrimType};

/// A process-wide unique identity for rigid type parameters, sizes, abstract types and
/// bound variables. Unique across files so that environments can be shared.
pub type Uid = u32;

static NEXT_UID: AtomicU32 = AtomicU32::new(2);

/// A fresh process-wide unique identity.
pub fn fresh_uid() -> Uid {
    NEXT_UID.fetch_add(1, Ordering::Relaxed)
}

static CONTEXT_SIZES: std::sync::Mutex<Vec<Uid>> = std::sync::Mutex::new(Vec::new());

/// Records that the size parameter `uid` of a function is named by its return
/// type and by no parameter type (`def rep [n] 't (x: t) : [n]t`): each use takes
/// it from its context. Uids are process-wide, so the record is too.
pub fn mark_context_size(uid: Uid) {
    if let Ok(mut v) = CONTEXT_SIZES.lock() {
        v.push(uid);
    }
}

/// Whether [`mark_context_size`] recorded `uid`.
pub fn is_context_size(uid: Uid) -> bool {
    CONTEXT_SIZES.lock().is_ok_and(|v| v.contains(&uid))
}

/// A dimension of an array type.
#[derive(Clone, Debug, PartialEq)]
pub enum Size {
    /// A size known at compile time.
    Const(i64),
    /// A unification variable (local to one checker run).
    Var(u32),
    /// A rigid named size: a size parameter, a size bound by `let [n]`, a variable of
    /// type `i64` used as a size, or a parameter name of a dependent function type.
    Named(Uid, Name),
    /// A size that is not known statically: equal to anything (used where the checker
    /// cannot follow sizes precisely, so that valid programs are not rejected).
    Any,
    /// An existential size produced by a function result (`[]t` or `?[k].[k]t` in a
    /// return type): equal only to itself.
    Exist(Uid),
    /// An existential size in a declared type (lenient, like `Any`); each application
    /// of a function returning it gets a fresh [`Size::Exist`] in its place.
    Hidden(Uid),
    /// A symbolic size `a + b`, `a - b` or `a * b` over the other kinds (built by
    /// [`size_op`], which folds constants; never over `Any`, `Exist` or `Hidden`).
    Op(SizeOp, Box<Size>, Box<Size>),
}

/// An arithmetic operator of a symbolic size.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SizeOp {
    Add,
    Sub,
    Mul,
    /// Integer division rounding down (`/`); not polynomial, so a division is one
    /// opaque atom of the normal form.
    Div,
    /// The remainder of [`SizeOp::Div`] (`%`); an opaque atom as well.
    Mod,
}

impl SizeOp {
    /// The operator as written.
    pub fn symbol(self) -> &'static str {
        match self {
            SizeOp::Add => "+",
            SizeOp::Sub => "-",
            SizeOp::Mul => "*",
            SizeOp::Div => "/",
            SizeOp::Mod => "%",
        }
    }

    /// The operator of a binary operator name, if it is one.
    pub fn from_name(s: &str) -> Option<SizeOp> {
        match s {
            "+" => Some(SizeOp::Add),
            "-" => Some(SizeOp::Sub),
            "*" => Some(SizeOp::Mul),
            "/" => Some(SizeOp::Div),
            "%" => Some(SizeOp::Mod),
            _ => None,
        }
    }
}

/// Builds the symbolic size `a op b`, and an operand that is not known symbolically
/// (`Any`, `Exist`, `Hidden`) makes the whole size `Any`. Constants are kept as
/// written (`2 * 3`, not `6`), so that the size parameters of `[n * m]` can be
/// inferred from them by matching the structure, as for `unflatten (flatten xss)`;
/// [`size_poly`] still equates `2 * 3` with `6`.
pub fn size_op(op: SizeOp, a: Size, b: Size) -> Size {
    match (&a, &b) {
        (Size::Any | Size::Exist(_) | Size::Hidden(_), _)
        | (_, Size::Any | Size::Exist(_) | Size::Hidden(_)) => Size::Any,
        (_, Size::Const(0)) if matches!(op, SizeOp::Add | SizeOp::Sub) => a,
        (Size::Const(0), _) if op == SizeOp::Add => b,
        (_, Size::Const(1)) if op == SizeOp::Div => a,
        (_, Size::Const(1)) | (Size::Const(1), _) if op == SizeOp::Mul => {
            if matches!(a, Size::Const(1)) { b } else { a }
        }
        _ => Size::Op(op, Box::new(a), Box::new(b)),
    }
}

/// An atom of a normalised size polynomial: a rigid name (`0`, uid), a size
/// variable (`1`, index) or a quotient or remainder (`2`, its index in
/// [`quotient_atom`]'s table).
pub type SizeAtom = (u8, u32);

/// The atom of `a / b` or `a % b` for the normal forms of `a` and `b`: equal
/// operands give the same atom, so `(n - 1) / k + 1` equals itself written again.
fn quotient_atom(op: SizeOp, a: SizePoly, b: SizePoly) -> SizeAtom {
    type Table = Vec<(SizeOp, SizePoly, SizePoly)>;
    thread_local! {
        static QUOTIENTS: std::cell::RefCell<Table> = const { std::cell::RefCell::new(Vec::new()) };
    }
    QUOTIENTS.with(|t| {
        let mut t = t.borrow_mut();
        let i = match t
            .iter()
            .position(|(o, x, y)| *o == op && *x == a && *y == b)
        {
            Some(i) => i,
            None => {
                t.push((op, a, b));
                t.len() - 1
            }
        };
        (2, i as u32)
    })
}

/// A size in normal form: a sum of monomials (sorted atom lists) with their non-zero
/// coefficients. Two sizes with the same normal form are equal.
pub type SizePoly = std::collections::BTreeMap<Vec<SizeAtom>, i64>;

/// The normal form of a size, or `None` for sizes that are not symbolic.
pub fn size_poly(s: &Size) -> Option<SizePoly> {
    let mut p = SizePoly::new();
    match s {
        Size::Const(c) => {
            if *c != 0 {
                p.insert(Vec::new(), *c);
            }
        }
        Size::Named(u, _) => {
            p.insert(vec![(0, *u)], 1);
        }
        Size::Var(v) => {
            p.insert(vec![(1, *v)], 1);
        }
        Size::Any | Size::Exist(_) | Size::Hidden(_) => return None,
        Size::Op(op, a, b) => {
            if let Some(c) = const_value(s) {
                if c != 0 {
                    p.insert(Vec::new(), c);
                }
                return Some(p);
            }
            let x = size_poly(a)?;
            let y = size_poly(b)?;
            match op {
                SizeOp::Div | SizeOp::Mod => {
                    p.insert(vec![quotient_atom(*op, x, y)], 1);
                }
                SizeOp::Add | SizeOp::Sub => {
                    p = x;
                    let sign = if *op == SizeOp::Add { 1 } else { -1 };
                    for (m, c) in y {
                        *p.entry(m).or_insert(0) += sign * c;
                    }
                }
                SizeOp::Mul => {
                    for (m1, c1) in &x {
                        for (m2, c2) in &y {
                            let mut m = m1.clone();
                            m.extend(m2.iter().copied());
                            m.sort();
                            *p.entry(m).or_insert(0) += c1.wrapping_mul(*c2);
                        }
                    }
                }
            }
            p.retain(|_, c| *c != 0);
        }
    }
    Some(p)
}

/// The value of a size made of constants only (`2 * 3` is 6), if it is one.
pub fn const_value(s: &Size) -> Option<i64> {
    match s {
        Size::Const(c) => Some(*c),
        Size::Op(op, a, b) => {
            let (x, y) = (const_value(a)?, const_value(b)?);
            Some(match op {
                SizeOp::Add => x.wrapping_add(y),
                SizeOp::Sub => x.wrapping_sub(y),
                SizeOp::Mul => x.wrapping_mul(y),
                SizeOp::Div => floor_div(x, y)?,
                SizeOp::Mod => x.checked_sub(floor_div(x, y)?.wrapping_mul(y))?,
            })
        }
        _ => None,
    }
}

/// `x / y` rounding down, as `/` on integers does; `None` for a zero divisor or
/// an overflow.
fn floor_div(x: i64, y: i64) -> Option<i64> {
    let q = x.checked_div(y)?;
    Some(if x % y != 0 && (x < 0) != (y < 0) {
        q - 1
    } else {
        q
    })
}

/// Whether a size mentions the rigid size `uid`.
pub fn size_mentions(s: &Size, uid: Uid) -> bool {
    match s {
        Size::Named(u, _) => *u == uid,
        Size::Op(_, a, b) => size_mentions(a, uid) || size_mentions(b, uid),
        _ => false,
    }
}

/// Whether a type mentions the type parameter or rigid size `uid`.
pub fn ty_mentions(t: &Ty, uid: Uid) -> bool {
    match t {
        Ty::Param(u, _) => *u == uid,
        Ty::Abs(u, _, args) => {
            *u == uid
                || args.iter().any(|a| match a {
                    TyArg::Ty(t) => ty_mentions(t, uid),
                    TyArg::Size(s) => size_mentions(s, uid),
                })
        }
        Ty::Array(e, ds) => ds.iter().any(|d| size_mentions(d, uid)) || ty_mentions(e, uid),
        Ty::Tuple(ts) => ts.iter().any(|t| ty_mentions(t, uid)),
        Ty::Record(fs) => fs.iter().any(|(_, t)| ty_mentions(t, uid)),
        Ty::Sum(cs) => cs
            .iter()
            .any(|(_, ts)| ts.iter().any(|t| ty_mentions(t, uid))),
        Ty::Arrow(a) => {
            a.pname.as_ref().is_some_and(|(u, _)| *u == uid)
                || ty_mentions(&a.param, uid)
                || ty_mentions(&a.ret, uid)
        }
        Ty::Prim(_) | Ty::Var(_) | Ty::Error => false,
    }
}

/// Whether a size mentions a size variable.
pub fn size_has_var(s: &Size) -> bool {
    match s {
        Size::Var(_) => true,
        Size::Op(_, a, b) => size_has_var(a) || size_has_var(b),
        _ => false,
    }
}

/// A type.
#[derive(Clone, Debug, PartialEq)]
pub enum Ty {
    /// A primitive type.
    Prim(PrimType),
    /// A unification variable (local to one checker run).
    Var(u32),
    /// A rigid type parameter (or a parameter of a type abbreviation or scheme).
    Param(Uid, Name),
    /// An abstract type introduced by a module type, with its arguments.
    Abs(Uid, Name, Vec<TyArg>),
    /// An array; the element is never itself an array once normalised.
    Array(Box<Ty>, Vec<Size>),
    /// A tuple of two or more components, or the unit type (zero components).
    Tuple(Vec<Ty>),
    /// A record, fields sorted by name.
    Record(Vec<(Name, Ty)>),
    /// A sum type, constructors sorted by name.
    Sum(Vec<(Name, Vec<Ty>)>),
    /// A function type.
    Arrow(Box<Arrow>),
    /// The type of an erroneous expression: unifies with everything.
    Error,
}

/// A function type `(name: param) -> ret`.
#[derive(Clone, Debug, PartialEq)]
pub struct Arrow {
    /// The parameter name when sizes in `ret` refer to it (`(n: i64) -> [n]t`).
    pub pname: Option<(Uid, Name)>,
    /// The parameter type.
    pub param: Ty,
    /// The result type.
    pub ret: Ty,
    /// Whether the parameter is unique (the function consumes its argument).
    pub consume: bool,
    /// Whether the result is unique (aliases none of the arguments).
    pub ret_unique: bool,
    /// For a tuple parameter whose components are marked individually
    /// (`(i64, *[]i64)`): which components the function consumes. Empty otherwise.
    pub consume_parts: Vec<bool>,
    /// For a tuple result whose components are marked individually: which components
    /// are unique. Empty otherwise.
    pub ret_parts: Vec<bool>,
}

/// An argument of an abstract type.
#[derive(Clone, Debug, PartialEq)]
pub enum TyArg {
    Ty(Ty),
    Size(Size),
}

/// A type or size parameter of a scheme or type abbreviation.
#[derive(Clone, Debug, PartialEq)]
pub enum TParam {
    /// A type parameter with its liftedness.
    Type(Uid, Name, Liftedness),
    /// A size parameter.
    Size(Uid, Name),
}

impl TParam {
    /// The parameter's identity.
    pub fn uid(&self) -> Uid {
        match self {
            TParam::Type(u, _, _) | TParam::Size(u, _) => *u,
        }
    }
}

/// A polymorphic type: the parameters are quantified.
#[derive(Clone, Debug, PartialEq)]
pub struct Scheme {
    pub params: Vec<TParam>,
    /// Equality constraints of quantified inferred variables (by uid).
    pub eq_params: Vec<Uid>,
    pub ty: Ty,
}

impl Scheme {
    /// A monomorphic scheme.
    pub fn mono(ty: Ty) -> Scheme {
        Scheme {
            params: Vec::new(),
            eq_params: Vec::new(),
            ty,
        }
    }
}

/// A type binding: a transparent abbreviation (parameters substituted into `ty`) or an
/// abstract type (`ty` is [`Ty::Abs`] over the parameters).
#[derive(Clone, Debug, PartialEq)]
pub struct TypeDef {
    pub params: Vec<TParam>,
    pub ty: Ty,
    pub liftedness: Liftedness,
}

/// What a substitution maps a uid to.
#[derive(Clone, Debug)]
pub enum SubstTarget {
    Ty(Ty),
    Size(Size),
    /// An abstract type made concrete (or freshened) by a type definition.
    Def(TypeDef),
}

/// A substitution over uids.
pub type Subst = HashMap<Uid, SubstTarget>;

/// Applies a substitution to a size.
pub fn subst_size(s: &Size, sub: &Subst) -> Size {
    match s {
        Size::Named(u, _) => match sub.get(u) {
            Some(SubstTarget::Size(n)) => n.clone(),
            _ => s.clone(),
        },
        Size::Op(op, a, b) => size_op(*op, subst_size(a, sub), subst_size(b, sub)),
        _ => s.clone(),
    }
}

/// Applies a substitution to a type.
pub fn subst_ty(t: &Ty, sub: &Subst) -> Ty {
    if sub.is_empty() {
        return t.clone();
    }
    match t {
        Ty::Prim(_) | Ty::Var(_) | Ty::Error => t.clone(),
        Ty::Param(u, _) => match sub.get(u) {
            Some(SubstTarget::Ty(n)) => n.clone(),
            _ => t.clone(),
        },
        Ty::Abs(u, name, args) => {
            let args: Vec<TyArg> = args.iter().map(|a| subst_arg(a, sub)).collect();
            match sub.get(u) {
                Some(SubstTarget::Def(def)) => apply_def(def, &args),
                _ => Ty::Abs(*u, name.clone(), args),
            }
        }
        Ty::Array(e, shape) => make_array(
            subst_ty(e, sub),
            shape.iter().map(|s| subst_size(s, sub)).collect(),
        ),
        Ty::Tuple(ts) => Ty::Tuple(ts.iter().map(|t| subst_ty(t, sub)).collect()),
        Ty::Record(fs) => Ty::Record(
            fs.iter()
                .map(|(n, t)| (n.clone(), subst_ty(t, sub)))
                .collect(),
        ),
        Ty::Sum(cs) => Ty::Sum(
            cs.iter()
                .map(|(n, ts)| (n.clone(), ts.iter().map(|t| subst_ty(t, sub)).collect()))
                .collect(),
        ),
        Ty::Arrow(a) => Ty::Arrow(Box::new(Arrow {
            pname: a.pname.clone(),
            param: subst_ty(&a.param, sub),
            ret: subst_ty(&a.ret, sub),
            consume: a.consume,
            ret_unique: a.ret_unique,
            consume_parts: a.consume_parts.clone(),
            ret_parts: a.ret_parts.clone(),
        })),
    }
}

/// Replaces every array size (and size argument) of a type by `f` of it.
pub fn map_sizes(t: &Ty, f: &mut dyn FnMut(&Size) -> Size) -> Ty {
    match t {
        Ty::Prim(_) | Ty::Var(_) | Ty::Error | Ty::Param(..) => t.clone(),
        Ty::Abs(u, name, args) => Ty::Abs(
            *u,
            name.clone(),
            args.iter()
                .map(|a| match a {
                    TyArg::Ty(t) => TyArg::Ty(map_sizes(t, f)),
                    TyArg::Size(s) => TyArg::Size(f(s)),
                })
                .collect(),
        ),
        Ty::Array(e, shape) => make_array(map_sizes(e, f), shape.iter().map(&mut *f).collect()),
        Ty::Tuple(ts) => Ty::Tuple(ts.iter().map(|t| map_sizes(t, f)).collect()),
        Ty::Record(fs) => Ty::Record(
            fs.iter()
                .map(|(n, t)| (n.clone(), map_sizes(t, f)))
                .collect(),
        ),
        Ty::Sum(cs) => Ty::Sum(
            cs.iter()
                .map(|(n, ts)| (n.clone(), ts.iter().map(|t| map_sizes(t, f)).collect()))
                .collect(),
        ),
        Ty::Arrow(a) => Ty::Arrow(Box::new(Arrow {
            param: map_sizes(&a.param, f),
            ret: map_sizes(&a.ret, f),
            ..(**a).clone()
        })),
    }
}

fn subst_arg(a: &TyArg, sub: &Subst) -> TyArg {
    match a {
        TyArg::Ty(t) => TyArg::Ty(subst_ty(t, sub)),
        TyArg::Size(s) => TyArg::Size(subst_size(s, sub)),
    }
}

/// Instantiates a type definition with arguments (missing arguments are left as the
/// parameters themselves; arity is checked by the caller).
pub fn apply_def(def: &TypeDef, args: &[TyArg]) -> Ty {
    if def.params.is_empty() {
        return def.ty.clone();
    }
    let mut sub = Subst::new();
    for (p, a) in def.params.iter().zip(args) {
        match (p, a) {
            (TParam::Type(u, _, _), TyArg::Ty(t)) => {
                sub.insert(*u, SubstTarget::Ty(t.clone()));
            }
            (TParam::Size(u, _), TyArg::Size(s)) => {
                sub.insert(*u, SubstTarget::Size(s.clone()));
            }
            _ => {}
        }
    }
    subst_ty(&def.ty, &sub)
}

/// Builds an array type, flattening nested arrays; an empty shape gives the element.
pub fn make_array(elem: Ty, mut shape: Vec<Size>) -> Ty {
    if shape.is_empty() {
        return elem;
    }
    match elem {
        Ty::Array(e, inner) => {
            shape.extend(inner);
            Ty::Array(e, shape)
        }
        Ty::Error => Ty::Error,
        e => Ty::Array(Box::new(e), shape),
    }
}

/// Gives every placeholder existential size (`Exist(0)`) in a type a fresh identity:
/// the result of one application has its own unknown sizes.
pub fn fresh_exists(t: &Ty) -> Ty {
    fresh_exists_in(t, &mut Vec::new())
}

fn fresh_exists_in(t: &Ty, map: &mut Vec<(Uid, Uid)>) -> Ty {
    match t {
        Ty::Array(e, s) if s.iter().any(|d| matches!(d, Size::Hidden(_))) => Ty::Array(
            e.clone(),
            s.iter()
                .map(|d| match d {
                    Size::Hidden(h) => match map.iter().find(|(k, _)| k == h) {
                        Some((_, u)) => Size::Exist(*u),
                        None => {
                            let u = fresh_uid();
                            map.push((*h, u));
                            Size::Exist(u)
                        }
                    },
                    d => d.clone(),
                })
                .collect(),
        ),
        Ty::Tuple(ts) => Ty::Tuple(ts.iter().map(|t| fresh_exists_in(t, map)).collect()),
        Ty::Record(fs) => Ty::Record(
            fs.iter()
                .map(|(n, t)| (n.clone(), fresh_exists_in(t, map)))
                .collect(),
        ),
        t => t.clone(),
    }
}

/// A record type, or the tuple type it denotes when its fields are `0`..`n-1`
/// (n ≥ 2). Fields must be sorted by name.
pub fn record(fields: Vec<(Name, Ty)>) -> Ty {
    let n = fields.len();
    if n >= 2 && (0..n).all(|i| fields.iter().any(|(f, _)| **f == *i.to_string())) {
        let mut ts = vec![Ty::Error; n];
        for (f, t) in fields {
            if let Ok(i) = f.parse::<usize>() {
                ts[i] = t;
            }
        }
        return Ty::Tuple(ts);
    }
    Ty::Record(fields)
}

impl Ty {
    /// The unit type `()`.
    pub fn unit() -> Ty {
        Ty::Tuple(Vec::new())
    }

    /// Whether the type contains a function type anywhere (not looking through
    /// unification variables).
    pub fn has_arrow(&self) -> bool {
        match self {
            Ty::Arrow(_) => true,
            Ty::Array(e, _) => e.has_arrow(),
            Ty::Tuple(ts) => ts.iter().any(Ty::has_arrow),
            Ty::Record(fs) => fs.iter().any(|(_, t)| t.has_arrow()),
            Ty::Sum(cs) => cs.iter().any(|(_, ts)| ts.iter().any(Ty::has_arrow)),
            _ => false,
        }
    }
}

/// Display of a size inside brackets.
impl fmt::Display for Size {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Size::Const(n) => write!(f, "{n}"),
            Size::Named(_, n) => write!(f, "{n}"),
            Size::Var(_) | Size::Any | Size::Exist(_) | Size::Hidden(_) => Ok(()),
            // A size of constants only is shown by its value (`5`, not `3+2`).
            Size::Op(..) if const_value(self).is_some() => {
                write!(f, "{}", const_value(self).unwrap_or_default())
            }
            Size::Op(op, a, b) => {
                let paren = |s: &Size| matches!(s, Size::Op(..));
                let show = |s: &Size| {
                    if matches!(s, Size::Var(_)) {
                        // A size not yet inferred, inside a compound size.
                        "?".to_string()
                    } else if paren(s) {
                        format!("({s})")
                    } else {
                        s.to_string()
                    }
                };
                write!(f, "{}{}{}", show(a), op.symbol(), show(b))
            }
        }
    }
}

impl fmt::Display for Ty {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write_ty(f, self, 0)
    }
}

fn var_name(v: u32) -> String {
    let letter = (b'a' + (v % 26) as u8) as char;
    if v < 26 {
        format!("'{letter}")
    } else {
        format!("'{letter}{}", v / 26)
    }
}

/// Precedence: 0 = anywhere, 1 = left of an arrow, 2 = argument position.
fn write_ty(f: &mut fmt::Formatter<'_>, t: &Ty, prec: u8) -> fmt::Result {
    match t {
        Ty::Prim(p) => write!(f, "{p}"),
        Ty::Var(v) => write!(f, "{}", var_name(*v)),
        Ty::Param(_, n) => write!(f, "{n}"),
        Ty::Abs(_, n, args) => {
            if args.is_empty() {
                return write!(f, "{n}");
            }
            if prec >= 2 {
                write!(f, "(")?;
            }
            write!(f, "{n}")?;
            for a in args {
                match a {
                    TyArg::Ty(t) => {
                        write!(f, " ")?;
                        write_ty(f, t, 2)?;
                    }
                    TyArg::Size(s) => write!(f, " [{s}]")?,
                }
            }
            if prec >= 2 {
                write!(f, ")")?;
            }
            Ok(())
        }
        Ty::Array(e, shape) => {
            for s in shape {
                write!(f, "[{s}]")?;
            }
            write_ty(f, e, 2)
        }
        Ty::Tuple(ts) => {
            write!(f, "(")?;
            for (i, t) in ts.iter().enumerate() {
                if i > 0 {
                    write!(f, ", ")?;
                }
                write_ty(f, t, 0)?;
            }
            write!(f, ")")
        }
        Ty::Record(fs) => {
            write!(f, "{{")?;
            for (i, (n, t)) in fs.iter().enumerate() {
                if i > 0 {
                    write!(f, ", ")?;
                }
                write!(f, "{n}: ")?;
                write_ty(f, t, 0)?;
            }
            write!(f, "}}")
        }
        Ty::Sum(cs) => {
            if prec >= 1 {
                write!(f, "(")?;
            }
            for (i, (n, ts)) in cs.iter().enumerate() {
                if i > 0 {
                    write!(f, " | ")?;
                }
                write!(f, "#{n}")?;
                for t in ts {
                    write!(f, " ")?;
                    write_ty(f, t, 2)?;
                }
            }
            if prec >= 1 {
                write!(f, ")")?;
            }
            Ok(())
        }
        Ty::Arrow(a) => {
            if prec >= 1 {
                write!(f, "(")?;
            }
            if let Some((_, n)) = &a.pname {
                write!(f, "({n}: ")?;
                if a.consume {
                    write!(f, "*")?;
                }
                write_ty(f, &a.param, 0)?;
                write!(f, ")")?;
            } else {
                if a.consume {
                    write!(f, "*")?;
                }
                write_ty(f, &a.param, 1)?;
            }
            write!(f, " -> ")?;
            if a.ret_unique {
                write!(f, "*")?;
            }
            write_ty(f, &a.ret, 0)?;
            if prec >= 1 {
                write!(f, ")")?;
            }
            Ok(())
        }
        Ty::Error => write!(f, "<error>"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn n(s: &str) -> Name {
        Name::from(s)
    }

    #[test]
    fn displays_in_futhark_syntax() {
        let t = Ty::Arrow(Box::new(Arrow {
            pname: None,
            param: make_array(Ty::Prim(PrimType::I32), vec![Size::Const(3)]),
            ret: Ty::Tuple(vec![Ty::Prim(PrimType::F64), Ty::Prim(PrimType::Bool)]),
            consume: true,
            ret_unique: false,
            consume_parts: Vec::new(),
            ret_parts: Vec::new(),
        }));
        assert_eq!(t.to_string(), "*[3]i32 -> (f64, bool)");
        let r = Ty::Record(vec![(n("x"), Ty::Prim(PrimType::F32))]);
        assert_eq!(r.to_string(), "{x: f32}");
        let s = Ty::Sum(vec![
            (n("a"), vec![Ty::Prim(PrimType::I32)]),
            (n("b"), vec![]),
        ]);
        assert_eq!(s.to_string(), "#a i32 | #b");
    }

    #[test]
    fn nested_arrays_flatten() {
        let inner = make_array(Ty::Prim(PrimType::I32), vec![Size::Const(2)]);
        let outer = make_array(inner, vec![Size::Const(3)]);
        assert_eq!(outer.to_string(), "[3][2]i32");
    }

    #[test]
    fn substitution_replaces_params_and_sizes() {
        let a = fresh_uid();
        let k = fresh_uid();
        let t = make_array(Ty::Param(a, n("a")), vec![Size::Named(k, n("k"))]);
        let mut sub = Subst::new();
        sub.insert(a, SubstTarget::Ty(Ty::Prim(PrimType::U8)));
        sub.insert(k, SubstTarget::Size(Size::Const(7)));
        assert_eq!(subst_ty(&t, &sub).to_string(), "[7]u8");
    }
}
