//! The interpreter's run-time values.
//!
//! Arrays are regular: a shared (`Rc`) vector of rows, each an element value, plus an
//! example element kept for empty arrays so that their element type and inner shape
//! survive. Cloning a value is cheap; updates copy a buffer only when it is shared.

use std::cell::RefCell;
use std::rc::{Rc, Weak};

use syntax::ast::{self, Name};

use crate::env::Env;
use crate::scalar::{BinOp, Scalar};

/// A run-time value.
#[derive(Clone, Debug)]
pub enum Value {
    /// A primitive.
    Scalar(Scalar),
    /// A regular array.
    Array(Array),
    /// A tuple; the empty tuple is the unit value.
    Tuple(Rc<[Value]>),
    /// A record, fields sorted by name.
    Record(Rc<Vec<(Name, Value)>>),
    /// A constructor of a sum type with its payload.
    Sum(Rc<(Name, Vec<Value>)>),
    /// A function.
    Fun(Rc<Closure>),
}

/// The components of a tuple value, in one allocation.
pub fn tup(vs: Vec<Value>) -> Rc<[Value]> {
    Rc::from(vs)
}

/// A regular array.
#[derive(Clone, Debug)]
pub struct Array {
    /// The rows.
    pub elems: Rc<Vec<Value>>,
    /// An example element, kept so that an empty array knows its element shape and
    /// type; `None` when not known.
    pub proto: Option<Rc<Value>>,
}

impl Array {
    /// An array of the given rows; `proto` is an example element for the empty case.
    pub fn new(elems: Vec<Value>, proto: Option<Rc<Value>>) -> Array {
        let proto = if elems.is_empty() { proto } else { None };
        Array {
            elems: Rc::new(elems),
            proto,
        }
    }

    /// The number of rows.
    pub fn len(&self) -> usize {
        self.elems.len()
    }

    /// True if there are no rows.
    pub fn is_empty(&self) -> bool {
        self.elems.is_empty()
    }

    /// An element to describe the row type: the first row, or the prototype.
    pub fn example(&self) -> Option<Value> {
        self.elems
            .first()
            .cloned()
            .or_else(|| self.proto.as_deref().cloned())
    }

    /// A prototype for arrays derived from this one (slices, filters).
    pub fn proto_rc(&self) -> Option<Rc<Value>> {
        match self.elems.first() {
            Some(v) => Some(Rc::new(v.clone())),
            None => self.proto.clone(),
        }
    }
}

/// A user function with its defining code.
#[derive(Debug)]
pub struct FunDef {
    /// The name, for functions bound with `def` or `let`.
    pub name: Option<Name>,
    /// Type and size parameters.
    pub type_params: Vec<ast::TypeParam>,
    /// Value parameters.
    pub params: Vec<ast::Pat>,
    /// The declared return type.
    pub ret: Option<ast::TypeExp>,
    /// The body.
    pub body: ast::Expr,
    /// The names of the size parameters (from `type_params`).
    pub size_names: Vec<Name>,
    /// The names of the type parameters (from `type_params`).
    pub type_names: Vec<Name>,
    /// Which parameters are declared unique (`*t`): their arguments are consumed.
    pub unique: Rc<Vec<bool>>,
    /// A recognised simple shape of the function, which the SOACs run without
    /// evaluating the body through the general machinery.
    pub kernel: Kernel,
    /// Whether checking a result against `ret` is trivial (binds and checks no
    /// size), with the scope and limit of the environment that was decided in.
    pub(crate) ret_trivial: RefCell<Option<(Weak<crate::env::Scope>, u32, bool)>>,
}

/// Simple function shapes with a fast path in `map`, `reduce` and `scan`.
#[derive(Clone, Debug, PartialEq)]
pub enum Kernel {
    /// Nothing recognised.
    None,
    /// `\x y -> x op y` with plain (or primitive-ascribed) parameters: the builtin
    /// operator named `op`, unless a binding of that name is in scope.
    BinOp(Name, BinOp),
    /// `\(x1, …, xn) -> g x1 … xn` with `g` a variable of the closure's environment:
    /// spreads a tuple over the arguments of `g` (the lambdas of `map2`, `map3`, …).
    Spread(Name, usize),
}

/// The name a parameter binds, if it is a plain name, possibly ascribed with a
/// primitive type.
fn plain_param(p: &ast::Pat) -> Option<&Name> {
    match &p.kind {
        ast::PatKind::Id(i) => Some(&i.name),
        ast::PatKind::Attr(_, q) => plain_param(q),
        ast::PatKind::Ascribed(q, t) => match &t.kind {
            ast::TypeExpKind::Var(n, args)
                if n.quals.is_empty()
                    && args.is_empty()
                    && ast::PrimType::from_name(&n.name.name).is_some() =>
            {
                plain_param(q)
            }
            _ => None,
        },
        _ => None,
    }
}

/// The name an expression refers to, if it is an unqualified variable.
fn plain_var(e: &ast::Expr) -> Option<&Name> {
    match &e.kind {
        ast::ExprKind::Var(q) if q.quals.is_empty() => Some(&q.name.name),
        ast::ExprKind::Parens(x) => plain_var(x),
        _ => None,
    }
}

fn strip_parens(e: &ast::Expr) -> &ast::Expr {
    match &e.kind {
        ast::ExprKind::Parens(x) => strip_parens(x),
        _ => e,
    }
}

/// Recognises the shapes of [`Kernel`].
fn kernel_of(
    type_params: &[ast::TypeParam],
    params: &[ast::Pat],
    ret: Option<&ast::TypeExp>,
    body: &ast::Expr,
) -> Kernel {
    let prim_ret = match ret.map(|t| &t.kind) {
        None => true,
        Some(ast::TypeExpKind::Var(n, args)) => {
            n.quals.is_empty()
                && args.is_empty()
                && ast::PrimType::from_name(&n.name.name).is_some()
        }
        Some(_) => false,
    };
    if !prim_ret
        || type_params
            .iter()
            .any(|p| matches!(p, ast::TypeParam::Size(_)))
    {
        return Kernel::None;
    }
    let body = strip_parens(body);
    match (params, &body.kind) {
        ([p, q], ast::ExprKind::BinOp(op, l, r)) if op.quals.is_empty() => {
            let (Some(x), Some(y)) = (plain_param(p), plain_param(q)) else {
                return Kernel::None;
            };
            match (
                BinOp::from_symbol(&op.name.name),
                plain_var(l),
                plain_var(r),
            ) {
                (Some(b), Some(l), Some(r)) if l == x && r == y && x != y => {
                    Kernel::BinOp(op.name.name.clone(), b)
                }
                _ => Kernel::None,
            }
        }
        ([p], ast::ExprKind::Apply(g, args)) => {
            let ast::PatKind::Tuple(ps) = &p.kind else {
                return Kernel::None;
            };
            let Some(g) = plain_var(g) else {
                return Kernel::None;
            };
            let names: Vec<&Name> = ps.iter().filter_map(plain_param).collect();
            let ok = names.len() == ps.len()
                && names.len() == args.len()
                && !names.contains(&g)
                && names
                    .iter()
                    .enumerate()
                    .all(|(i, n)| !names[..i].contains(n))
                && args
                    .iter()
                    .zip(&names)
                    .all(|(a, n)| plain_var(a) == Some(*n));
            if ok {
                Kernel::Spread(g.clone(), names.len())
            } else {
                Kernel::None
            }
        }
        _ => Kernel::None,
    }
}

/// Is a parameter pattern annotated with a unique type?
pub fn unique_param(p: &ast::Pat) -> bool {
    match &p.kind {
        ast::PatKind::Ascribed(_, t) => matches!(t.kind, ast::TypeExpKind::Unique(_)),
        ast::PatKind::Attr(_, q) => unique_param(q),
        _ => false,
    }
}

impl FunDef {
    /// A function definition; the parameter name lists are derived here.
    pub fn new(
        name: Option<Name>,
        type_params: Vec<ast::TypeParam>,
        params: Vec<ast::Pat>,
        ret: Option<ast::TypeExp>,
        body: ast::Expr,
    ) -> FunDef {
        let mut size_names = Vec::new();
        let mut type_names = Vec::new();
        for p in &type_params {
            match p {
                ast::TypeParam::Size(i) => size_names.push(i.name.clone()),
                ast::TypeParam::Type(i, _) => type_names.push(i.name.clone()),
            }
        }
        let unique = Rc::new(params.iter().map(unique_param).collect());
        let kernel = kernel_of(&type_params, &params, ret.as_ref(), &body);
        FunDef {
            name,
            type_params,
            params,
            ret,
            body,
            size_names,
            type_names,
            unique,
            kernel,
            ret_trivial: RefCell::new(None),
        }
    }
}

/// A function value.
#[derive(Debug)]
pub enum Closure {
    /// A user function (from `def`, `let` or a lambda) with its environment and the
    /// arguments applied so far.
    User {
        def: Rc<FunDef>,
        env: Env,
        args: Vec<Value>,
        /// Size parameters instantiated by the type checker at the use site (for
        /// sizes that argument shapes do not determine, such as `n` in `[n*m]`).
        sizes: Vec<(Name, i64)>,
    },
    /// A natively implemented function with its arity and the arguments so far.
    Intrinsic {
        name: Name,
        arity: usize,
        args: Vec<Value>,
        /// Which parameters are declared unique.
        unique: Rc<Vec<bool>>,
    },
    /// A builtin operator used as a function, with the arguments so far.
    Op { op: BinOp, args: Vec<Value> },
    /// `\x -> f x y`: a right operator section.
    Flip { f: Value, y: Value },
    /// `(.a.b)`.
    Project(Vec<Name>),
    /// `(.[i, j])` with the index values evaluated.
    Index(Vec<crate::slicing::DimIdx>),
    /// `(.[i].f)`, `(.a[1:3])`: a path of fields and indices, the indices evaluated.
    Path(Vec<PathVal>),
}

/// One step of a path with its index values evaluated.
#[derive(Clone, Debug)]
pub enum PathVal {
    /// A field (or tuple component) name.
    Field(ast::Ident),
    /// An index or slice, with the span of its brackets.
    Index(Vec<crate::slicing::DimIdx>, syntax::Span),
}

impl Closure {
    /// For each remaining parameter position, whether its argument is consumed.
    pub fn consumed_args(&self) -> &[bool] {
        match self {
            Closure::User { def, args, .. } => def.unique.get(args.len()..).unwrap_or(&[]),
            Closure::Intrinsic { unique, args, .. } => unique.get(args.len()..).unwrap_or(&[]),
            _ => &[],
        }
    }
}

impl Value {
    /// The unit value `()`.
    pub fn unit() -> Value {
        Value::Tuple(crate::value::tup(Vec::new()))
    }

    /// A bool value.
    pub fn bool(b: bool) -> Value {
        Value::Scalar(Scalar::Bool(b))
    }

    /// An `i64` value.
    pub fn i64(x: i64) -> Value {
        Value::Scalar(Scalar::I64(x))
    }

    /// A one-dimensional array of values.
    pub fn array(elems: Vec<Value>, proto: Option<Rc<Value>>) -> Value {
        Value::Array(Array::new(elems, proto))
    }

    /// The scalar, if this is one.
    pub fn as_scalar(&self) -> Option<&Scalar> {
        match self {
            Value::Scalar(s) => Some(s),
            _ => None,
        }
    }

    /// The array, if this is one.
    pub fn as_array(&self) -> Option<&Array> {
        match self {
            Value::Array(a) => Some(a),
            _ => None,
        }
    }

    /// The shape of an array value (outer dimensions down to the first non-array
    /// element); empty for anything else.
    pub fn shape(&self) -> Vec<usize> {
        let mut shape = Vec::new();
        let mut v = self.clone();
        while let Value::Array(a) = v {
            shape.push(a.len());
            match a.example() {
                Some(e) => v = e,
                None => break,
            }
        }
        shape
    }

    /// A record or tuple field by name (`"0"`, `"1"` for tuples).
    pub fn field(&self, name: &str) -> Option<Value> {
        match self {
            Value::Record(fs) => fs
                .iter()
                .find(|(n, _)| crate::env::same_name(n, name))
                .map(|(_, v)| v.clone()),
            Value::Tuple(vs) => name.parse::<usize>().ok().and_then(|i| vs.get(i).cloned()),
            _ => None,
        }
    }

    /// A record from fields in any order; fields named `0..n` (n ≠ 1) form a tuple.
    pub fn record(mut fields: Vec<(Name, Value)>) -> Value {
        let n = fields.len();
        if n != 1 {
            let mut slots: Vec<Option<Value>> = vec![None; n];
            let mut tuple = true;
            for (name, v) in &fields {
                match name.parse::<usize>() {
                    Ok(i) if i < n && slots[i].is_none() && name.as_ref() == i.to_string() => {
                        slots[i] = Some(v.clone())
                    }
                    _ => {
                        tuple = false;
                        break;
                    }
                }
            }
            if tuple && n > 0 {
                return Value::Tuple(crate::value::tup(slots.into_iter().flatten().collect()));
            }
        }
        fields.sort_by(|a, b| a.0.cmp(&b.0));
        Value::Record(Rc::new(fields))
    }
}

/// Structural equality: arrays, tuples, records and sums compare element-wise;
/// floats compare as numbers (NaN is unequal to itself).
pub fn values_equal(a: &Value, b: &Value) -> bool {
    match (a, b) {
        (Value::Scalar(x), Value::Scalar(y)) => matches!(
            crate::scalar::binop_plain(BinOp::Eq, &x.strip(), &y.strip()),
            Ok(Scalar::Bool(true))
        ),
        (Value::Array(x), Value::Array(y)) => {
            x.len() == y.len()
                && (Rc::ptr_eq(&x.elems, &y.elems) && x.elems.iter().all(|v| !contains_float(v))
                    || x.elems
                        .iter()
                        .zip(y.elems.iter())
                        .all(|(p, q)| values_equal(p, q)))
                && a.shape() == b.shape()
        }
        (Value::Tuple(x), Value::Tuple(y)) => {
            x.len() == y.len() && x.iter().zip(y.iter()).all(|(p, q)| values_equal(p, q))
        }
        (Value::Record(x), Value::Record(y)) => {
            x.len() == y.len()
                && x.iter()
                    .zip(y.iter())
                    .all(|((n, p), (m, q))| n == m && values_equal(p, q))
        }
        (Value::Sum(x), Value::Sum(y)) => {
            x.0 == y.0
                && x.1.len() == y.1.len()
                && x.1.iter().zip(y.1.iter()).all(|(p, q)| values_equal(p, q))
        }
        _ => false,
    }
}

fn contains_float(v: &Value) -> bool {
    match v {
        Value::Scalar(s) => s.is_float(),
        Value::Array(a) => a.example().is_some_and(|e| contains_float(&e)),
        _ => true,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ints(xs: &[i32]) -> Value {
        Value::array(
            xs.iter().map(|&x| Value::Scalar(Scalar::I32(x))).collect(),
            None,
        )
    }

    #[test]
    fn shapes_of_nested_arrays() {
        let m = Value::array(vec![ints(&[1, 2, 3]), ints(&[4, 5, 6])], None);
        assert_eq!(m.shape(), vec![2, 3]);
        let empty = Value::array(Vec::new(), Some(Rc::new(ints(&[1, 2, 3]))));
        assert_eq!(empty.shape(), vec![0, 3]);
    }

    #[test]
    fn structural_equality() {
        assert!(values_equal(&ints(&[1, 2]), &ints(&[1, 2])));
        assert!(!values_equal(&ints(&[1, 2]), &ints(&[1, 3])));
        assert!(!values_equal(&ints(&[1, 2]), &ints(&[1])));
        let nan = Value::Scalar(Scalar::F64(f64::NAN));
        assert!(!values_equal(&nan, &nan));
        let t = Value::Tuple(crate::value::tup(vec![ints(&[1]), Value::bool(true)]));
        assert!(values_equal(&t, &t.clone()));
    }

    #[test]
    fn numeric_records_are_tuples() {
        let r = Value::record(vec![
            ("1".into(), Value::bool(true)),
            ("0".into(), Value::i64(3)),
        ]);
        assert!(matches!(&r, Value::Tuple(v) if v.len() == 2));
        assert!(matches!(
            r.field("1"),
            Some(Value::Scalar(Scalar::Bool(true)))
        ));
        let r = Value::record(vec![
            ("y".into(), Value::i64(1)),
            ("x".into(), Value::i64(2)),
        ]);
        assert!(matches!(&r, Value::Record(fs) if &*fs[0].0 == "x"));
    }
}
