//! Sum types: a value is its tag and the payloads of the constructors it
//! may have ([`V::Sum`]).
//!
//! The tag of a constructor is a number fixed per constructor name for the
//! whole program ([`Cx::ctor_tag`]), so values built in different places
//! agree without knowing their full type. A constructor expression knows
//! only its own constructor; where values of one sum meet (the branches of
//! an `if` or `match`, the elements of an array literal, a loop parameter
//! with an ascribed type) they are widened to the union of their
//! constructors ([`T::join`], [`Cx::widen`]), the missing payloads filled
//! with blank values. A `match` case for a constructor the value cannot
//! have is dropped statically.

use ir::{
    BinOp, CmpOp, Exp, Lambda, Operand, Param, PrimType, PrimValue, ScanRed, Screma, Size, Type,
    UnOp,
};
use syntax::ast::{self, Name};

use crate::cx::Cx;
use crate::env::Env;
use crate::error::{IResult, InternaliseError};
use crate::value::{T, V, size_operand};

impl Cx {
    /// The tag of constructor `name`.
    pub(crate) fn ctor_tag(&mut self, name: &Name) -> i64 {
        let n = self.ctor_tags.len() as i64;
        *self.ctor_tags.entry(name.clone()).or_insert(n)
    }

    /// The value of `#name args`.
    pub(crate) fn constructor(&mut self, name: &Name, args: Vec<V>) -> V {
        let tag = self.ctor_tag(name);
        V::Sum(
            Box::new(V::Leaf(Operand::i64(tag))),
            vec![(name.clone(), args)],
        )
    }

    /// `v` widened to the sum types the type expression `te` names.
    pub(crate) fn widen_to_type(&mut self, v: V, te: &ast::TypeExp, env: &Env) -> IResult<V> {
        if !mentions_sum(&v) && !type_may_be_sum(te) {
            return Ok(v);
        }
        let Ok(t) = self.type_template(te, env) else {
            return Ok(v);
        };
        match T::join(&v.shape(&self.fb), &t) {
            Some(j) => self.widen(v, &j, te.span),
            None => Ok(v),
        }
    }

    /// `v` widened to the sum types that the ascriptions in `pat` name.
    pub(crate) fn widen_to_pat(&mut self, v: V, pat: &ast::Pat, env: &Env) -> IResult<V> {
        match (&pat.kind, v) {
            (ast::PatKind::Ascribed(p, te), v) => {
                let v = self.widen_to_type(v, te, env)?;
                self.widen_to_pat(v, p, env)
            }
            (ast::PatKind::Attr(_, p), v) => self.widen_to_pat(v, p, env),
            (ast::PatKind::Tuple(ps), V::Tuple(vs)) if ps.len() == vs.len() => Ok(V::Tuple(
                ps.iter()
                    .zip(vs)
                    .map(|(p, v)| self.widen_to_pat(v, p, env))
                    .collect::<IResult<_>>()?,
            )),
            (_, v) => Ok(v),
        }
    }

    /// `v` (of a shape that joins with `t`) with the shape `t`: every sum
    /// inside it gets the constructors of `t` it lacks, with blank payloads.
    pub(crate) fn widen(&mut self, v: V, t: &T, span: syntax::Span) -> IResult<V> {
        self.widen_in(v, t, &[], span)
    }

    /// `v` widened to `t` like [`Cx::widen`], where `v` is one of the
    /// elements of an array literal and `others` are all of them: a
    /// constructor `v` lacks gets a blank payload of the dimensions that
    /// another element's payload of that constructor has, as every element
    /// of an array has the same shape (`[#none, #some [1, 2, 3]]`).
    pub(crate) fn widen_like(
        &mut self,
        v: V,
        t: &T,
        others: &[&V],
        span: syntax::Span,
    ) -> IResult<V> {
        Ok(match (v, t) {
            (V::Tuple(vs), T::Tuple(ts)) if vs.len() == ts.len() => {
                let mut out = Vec::new();
                for (i, (v, t)) in vs.into_iter().zip(ts).enumerate() {
                    let os: Vec<&V> = others
                        .iter()
                        .filter_map(|o| match o {
                            V::Tuple(xs) => xs.get(i),
                            _ => None,
                        })
                        .collect();
                    out.push(self.widen_like(v, t, &os, span)?);
                }
                V::Tuple(out)
            }
            (V::Record(fs), T::Record(ts)) if fs.len() == ts.len() => {
                let mut out = Vec::new();
                for ((n, v), (_, t)) in fs.into_iter().zip(ts) {
                    let os: Vec<&V> = others
                        .iter()
                        .filter_map(|o| match o {
                            V::Record(xs) => xs.iter().find(|(m, _)| *m == n).map(|(_, x)| x),
                            _ => None,
                        })
                        .collect();
                    let w = self.widen_like(v, t, &os, span)?;
                    out.push((n, w));
                }
                V::Record(out)
            }
            (V::Sum(tag, cs), T::Sum(ts)) => {
                let mut cs = cs;
                let mut out = Vec::new();
                for (n, pts) in ts {
                    let donors: Vec<&Vec<V>> = others
                        .iter()
                        .filter_map(|o| match o {
                            V::Sum(_, ocs) => ocs.iter().find(|(m, _)| m == n).map(|(_, p)| p),
                            _ => None,
                        })
                        .collect();
                    let p = match cs.iter().position(|(m, _)| m == n) {
                        Some(i) => {
                            let (_, p) = cs.swap_remove(i);
                            let mut ws = Vec::new();
                            for (k, (v, t)) in p.into_iter().zip(pts).enumerate() {
                                let os: Vec<&V> = donors.iter().filter_map(|d| d.get(k)).collect();
                                ws.push(self.widen_like(v, t, &os, span)?);
                            }
                            ws
                        }
                        None => match donors.first() {
                            Some(d) if d.len() == pts.len() => {
                                let mut ws = Vec::new();
                                for (x, t) in d.iter().zip(pts) {
                                    let mut dims = Vec::new();
                                    x.dims(&mut dims);
                                    let b = self.blank_with_dims(t, dims, span)?;
                                    ws.push(b);
                                }
                                ws
                            }
                            _ => pts
                                .iter()
                                .map(|t| self.empty_value(t, &[], span))
                                .collect::<IResult<_>>()?,
                        },
                    };
                    out.push((n.clone(), p));
                }
                V::Sum(tag, out)
            }
            (v, t) => self.widen(v, t, span)?,
        })
    }

    /// Widens the element `e` of an array with outer dimensions `outer`
    /// (a value of its own when `outer` is empty): its blank payloads are
    /// blank arrays of those dimensions.
    fn widen_in(&mut self, e: V, t: &T, outer: &[ir::Size], span: syntax::Span) -> IResult<V> {
        Ok(match (e, t) {
            (V::Tuple(vs), T::Tuple(ts)) if vs.len() == ts.len() => V::Tuple(
                vs.into_iter()
                    .zip(ts)
                    .map(|(v, t)| self.widen_in(v, t, outer, span))
                    .collect::<IResult<_>>()?,
            ),
            (V::Record(fs), T::Record(ts)) if fs.len() == ts.len() => V::Record(
                fs.into_iter()
                    .zip(ts)
                    .map(|((n, v), (_, t))| Ok((n, self.widen_in(v, t, outer, span)?)))
                    .collect::<IResult<_>>()?,
            ),
            (V::Arr(ds, e), T::Arr(_, te)) if outer.is_empty() && needs_widening(&e, te) => {
                // Payloads of arrays of sums: blank arrays of the same
                // outer dimensions.
                let e = self.widen_in(*e, te, &ds, span)?;
                V::Arr(ds, Box::new(e))
            }
            (V::Sum(tag, cs), T::Sum(ts)) => {
                let mut cs = cs;
                let mut out = Vec::new();
                for (n, pts) in ts {
                    match cs.iter().position(|(m, _)| m == n) {
                        Some(i) => {
                            let (m, p) = cs.swap_remove(i);
                            let p = p
                                .into_iter()
                                .zip(pts)
                                .map(|(v, t)| self.widen_in(v, t, outer, span))
                                .collect::<IResult<_>>()?;
                            out.push((m, p));
                        }
                        None => {
                            let p = pts
                                .iter()
                                .map(|t| self.empty_value(t, outer, span))
                                .collect::<IResult<_>>()?;
                            out.push((n.clone(), p));
                        }
                    }
                }
                V::Sum(tag, out)
            }
            (v, _) => v,
        })
    }

    /// The test that `v` was built with constructor `name`, and its
    /// payload; `None` when `v` cannot have that constructor.
    pub(crate) fn ctor_parts(
        &mut self,
        v: &V,
        name: &Name,
        span: syntax::Span,
    ) -> IResult<Option<(Operand, Vec<V>)>> {
        let V::Sum(tag, cs) = v else {
            return Err(InternaliseError::at(
                "a constructor pattern on a value that is not of a sum type",
                span,
            ));
        };
        let Some((_, payload)) = cs.iter().find(|(n, _)| n == name) else {
            return Ok(None);
        };
        let t = tag
            .scalar()
            .ok_or_else(|| InternaliseError::at("a sum tag that is not a scalar", span))?;
        let k = Operand::i64(self.ctor_tag(name));
        let test = if cs.len() == 1 {
            Operand::Const(PrimValue::Bool(true))
        } else {
            self.fb.scalar("is_ctor", Exp::Cmp(CmpOp::Eq, t, k))?
        };
        Ok(Some((test, payload.clone())))
    }

    /// `a == b` on values without functions. Arrays are equal when their
    /// shapes are and (only then checked) all their elements are.
    pub(crate) fn equal(&mut self, a: &V, b: &V, span: syntax::Span) -> IResult<Operand> {
        let yes = Operand::Const(PrimValue::Bool(true));
        let bad = || InternaliseError::at("comparing values of different shapes", span);
        match (a, b) {
            (V::Leaf(x), V::Leaf(y)) => self.fb.scalar("eq", Exp::Cmp(CmpOp::Eq, *x, *y)),
            (V::Arr(da, ea), V::Arr(db, eb)) if da.len() == db.len() => {
                let mut same = yes;
                for (x, y) in da.iter().zip(db) {
                    let c = self.fb.scalar(
                        "same_dim",
                        Exp::Cmp(CmpOp::Eq, size_operand(*x), size_operand(*y)),
                    )?;
                    same = if same == yes {
                        c
                    } else {
                        self.fb
                            .scalar("same_shape", Exp::BinOp(BinOp::And, same, c))?
                    };
                }
                let no = V::Leaf(Operand::Const(PrimValue::Bool(false)));
                let r = self.if_(
                    same,
                    |cx| Ok(V::Leaf(cx.elems_equal(da, ea, eb, span)?)),
                    |_| Ok(no),
                    span,
                )?;
                r.scalar().ok_or_else(bad)
            }
            (V::Tuple(xs), V::Tuple(ys)) if xs.len() == ys.len() => {
                self.all_equal(xs.iter().zip(ys), span)
            }
            (V::Record(xs), V::Record(ys)) if xs.len() == ys.len() => {
                self.all_equal(xs.iter().map(|x| &x.1).zip(ys.iter().map(|y| &y.1)), span)
            }
            (V::Sum(ta, ca), V::Sum(tb, cb)) => {
                let (Some(ta), Some(tb)) = (ta.scalar(), tb.scalar()) else {
                    return Err(bad());
                };
                let mut acc = self.fb.scalar("eq", Exp::Cmp(CmpOp::Eq, ta, tb))?;
                for (n, pa) in ca {
                    let Some((_, pb)) = cb.iter().find(|(m, _)| m == n) else {
                        continue;
                    };
                    if pa.is_empty() {
                        continue;
                    }
                    // Payloads matter only when `a` has this constructor.
                    let k = Operand::i64(self.ctor_tag(n));
                    let other = self.fb.scalar("ne", Exp::Cmp(CmpOp::Ne, ta, k))?;
                    let same = self.all_equal(pa.iter().zip(pb), span)?;
                    let ok = self.fb.scalar("eq", Exp::BinOp(BinOp::Or, other, same))?;
                    acc = self.fb.scalar("eq", Exp::BinOp(BinOp::And, acc, ok))?;
                }
                Ok(acc)
            }
            (V::Tuple(xs), V::Tuple(ys)) if xs.is_empty() && ys.is_empty() => Ok(yes),
            _ => Err(bad()),
        }
    }

    /// Are the elements of two arrays of the same shape `ds` equal? A
    /// `screma` over the outer dimension comparing rows, reduced with `&&`.
    fn elems_equal(&mut self, ds: &[Size], ea: &V, eb: &V, span: syntax::Span) -> IResult<Operand> {
        let w = size_operand(ds[0]);
        let row_v = |e: &V| {
            if ds.len() > 1 {
                V::Arr(ds[1..].to_vec(), Box::new(e.clone()))
            } else {
                e.clone()
            }
        };
        // The second array's leaves take the first's shape (checked equal).
        let mut inputs = Vec::new();
        let mut row_types = Vec::new();
        for (i, e) in [ea, eb].into_iter().enumerate() {
            for l in e.leaf_list() {
                let Operand::Var(v) = l else {
                    return Err(InternaliseError::at("comparing a constant array", span));
                };
                let mut t = self.fb.ty(v);
                let v = if i == 1 {
                    let mut shape = ds.to_vec();
                    shape.extend(t.shape.iter().skip(ds.len()).copied());
                    if t.shape != shape {
                        t.shape = shape.clone();
                        self.fb.bind1("cmp_arr", Exp::Reshape { shape, arr: v })?
                    } else {
                        v
                    }
                } else {
                    v
                };
                inputs.push(v);
                row_types.push(t.row().unwrap_or(t));
            }
        }
        self.fb.begin_scope();
        let mut params = Vec::new();
        let mut leaves = Vec::new();
        for t in &row_types {
            let v = self.fb.var("x", t.clone());
            params.push(Param::new(v));
            leaves.push(Operand::Var(v));
        }
        let n = ea.leaf_list().len();
        let ra = row_v(ea).with_leaves(&mut leaves[..n].iter().copied());
        let rb = row_v(eb).with_leaves(&mut leaves[n..].iter().copied());
        let c = match self.equal(&ra, &rb, span) {
            Ok(c) => c,
            Err(e) => {
                self.fb.end_scope(Vec::new());
                return Err(e);
            }
        };
        let body = self.fb.end_scope(vec![c]);
        let bool_t = Type::scalar(PrimType::Bool);
        let map = Lambda {
            params,
            ret: vec![bool_t.clone()],
            body,
        };
        self.fb.begin_scope();
        let x = self.fb.var("x", bool_t.clone());
        let y = self.fb.var("y", bool_t.clone());
        let r = self.fb.scalar(
            "and",
            Exp::BinOp(BinOp::And, Operand::Var(x), Operand::Var(y)),
        );
        let r = match r {
            Ok(r) => r,
            Err(e) => {
                self.fb.end_scope(Vec::new());
                return Err(e);
            }
        };
        let body = self.fb.end_scope(vec![r]);
        let op = Lambda {
            params: vec![Param::new(x), Param::new(y)],
            ret: vec![bool_t.clone()],
            body,
        };
        let res = self.fb.var("all_eq", bool_t);
        self.fb.push(
            vec![res],
            Exp::Screma(Box::new(Screma {
                w,
                inputs,
                scans: Vec::new(),
                reduces: vec![ScanRed {
                    op,
                    neutral: vec![Operand::Const(PrimValue::Bool(true))],
                    commutative: true,
                }],
                map,
            })),
        );
        Ok(Operand::Var(res))
    }

    fn all_equal<'a>(
        &mut self,
        pairs: impl Iterator<Item = (&'a V, &'a V)>,
        span: syntax::Span,
    ) -> IResult<Operand> {
        let mut acc = Operand::Const(PrimValue::Bool(true));
        for (x, y) in pairs {
            let c = self.equal(x, y, span)?;
            acc = if acc == Operand::Const(PrimValue::Bool(true)) {
                c
            } else {
                self.fb.scalar("eq", Exp::BinOp(BinOp::And, acc, c))?
            };
        }
        Ok(acc)
    }

    /// `a != b`.
    pub(crate) fn not_equal(&mut self, a: &V, b: &V, span: syntax::Span) -> IResult<Operand> {
        let e = self.equal(a, b, span)?;
        self.fb.scalar("ne", Exp::UnOp(UnOp::Not, e))
    }
}

/// Can `v` match `pat`? False when the pattern names a constructor that
/// the value cannot have here.
pub(crate) fn pat_possible(pat: &ast::Pat, v: &V) -> bool {
    use ast::PatKind as P;
    match (&pat.kind, v) {
        (P::Constructor(n, ps), V::Sum(_, cs)) => match cs.iter().find(|(m, _)| *m == n.name) {
            Some((_, payload)) => ps.iter().zip(payload).all(|(p, x)| pat_possible(p, x)),
            None => false,
        },
        (P::Tuple(ps), V::Tuple(vs)) => ps.iter().zip(vs).all(|(p, x)| pat_possible(p, x)),
        (P::Record(fs), V::Record(_)) => fs.iter().all(|(n, p)| {
            crate::exprs::field(v.clone(), &n.name).is_none_or(|x| pat_possible(p, &x))
        }),
        (P::Ascribed(p, _) | P::Attr(_, p), v) => pat_possible(p, v),
        _ => true,
    }
}

/// Does the value hold a sum?
fn mentions_sum(v: &V) -> bool {
    match v {
        V::Leaf(_) | V::Fun(_) => false,
        V::Tuple(vs) => vs.iter().any(mentions_sum),
        V::Record(fs) => fs.iter().any(|(_, v)| mentions_sum(v)),
        V::Arr(_, e) => mentions_sum(e),
        V::Sum(..) => true,
    }
}

/// Might the type expression denote a type with a sum inside? (Names of
/// types are looked up only when it might.)
fn type_may_be_sum(te: &ast::TypeExp) -> bool {
    use ast::TypeExpKind as K;
    match &te.kind {
        K::Var(q, args) => {
            !q.quals.is_empty()
                || !args.is_empty()
                || ast::PrimType::from_name(&q.name.name).is_none()
        }
        K::Tuple(ts) => ts.iter().any(type_may_be_sum),
        K::Record(fs) => fs.iter().any(|(_, t)| type_may_be_sum(t)),
        K::Array(_, t) | K::Unique(t) | K::Existential(_, t) => type_may_be_sum(t),
        K::Sum(_) => true,
        K::Arrow(..) => false,
    }
}

/// Does the element `e` lack constructors that `t` has?
fn needs_widening(e: &V, t: &T) -> bool {
    match (e, t) {
        (V::Tuple(vs), T::Tuple(ts)) => vs.iter().zip(ts).any(|(v, t)| needs_widening(v, t)),
        (V::Record(fs), T::Record(ts)) => fs
            .iter()
            .zip(ts)
            .any(|((_, v), (_, t))| needs_widening(v, t)),
        (V::Sum(_, cs), T::Sum(ts)) => {
            cs.len() != ts.len()
                || cs
                    .iter()
                    .zip(ts)
                    .any(|((_, p), (_, pt))| p.iter().zip(pt).any(|(v, t)| needs_widening(v, t)))
        }
        (V::Arr(_, e), T::Arr(_, t)) => needs_widening(e, t),
        _ => false,
    }
}

impl T {
    /// The least shape both `a` and `b` widen to: equal shapes, except that
    /// sums take the union of their constructors. `None` when the shapes
    /// differ otherwise.
    pub fn join(a: &T, b: &T) -> Option<T> {
        Some(match (a, b) {
            (T::Prim(x), T::Prim(y)) if x == y => T::Prim(*x),
            (T::Tuple(xs), T::Tuple(ys)) if xs.len() == ys.len() => T::Tuple(
                xs.iter()
                    .zip(ys)
                    .map(|(x, y)| T::join(x, y))
                    .collect::<Option<_>>()?,
            ),
            (T::Record(xs), T::Record(ys))
                if xs.len() == ys.len() && xs.iter().zip(ys).all(|(x, y)| x.0 == y.0) =>
            {
                T::Record(
                    xs.iter()
                        .zip(ys)
                        .map(|(x, y)| Some((x.0.clone(), T::join(&x.1, &y.1)?)))
                        .collect::<Option<_>>()?,
                )
            }
            (T::Arr(r, x), T::Arr(s, y)) if r == s => T::Arr(*r, Box::new(T::join(x, y)?)),
            (T::Fun(f), T::Fun(g)) if std::rc::Rc::ptr_eq(f, g) => T::Fun(f.clone()),
            (T::Sum(xs), T::Sum(ys)) => {
                let mut out: Vec<(Name, Vec<T>)> = Vec::new();
                for (n, p) in xs {
                    match ys.iter().find(|(m, _)| m == n) {
                        Some((_, q)) if p.len() == q.len() => out.push((
                            n.clone(),
                            p.iter()
                                .zip(q)
                                .map(|(x, y)| T::join(x, y))
                                .collect::<Option<_>>()?,
                        )),
                        Some(_) => return None,
                        None => out.push((n.clone(), p.clone())),
                    }
                }
                for (n, q) in ys {
                    if !xs.iter().any(|(m, _)| m == n) {
                        out.push((n.clone(), q.clone()));
                    }
                }
                out.sort_by(|a, b| a.0.cmp(&b.0));
                T::Sum(out)
            }
            _ => return None,
        })
    }
}
