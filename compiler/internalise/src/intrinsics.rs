//! Prelude intrinsics as IR expressions: SOACs (`map`, `reduce`, `scan`,
//! `reduce_by_index`, `scatter`), array constructors and reshapings, and
//! the per-type scalar functions and conversions.

use ir::{
    BinOp, ConvKind, Exp, Hist, HistOp, Lambda, MathFn, Operand, Param, PrimType, ScanRed, Scatter,
    ScatterDest, Screma, Size,
};

use crate::cx::Cx;
use crate::error::{IResult, InternaliseError};
use crate::exprs::wrap_arr;
use crate::fb::i64c;
use crate::value::{V, size_operand};

impl Cx {
    /// Applies the intrinsic `name` to its arguments.
    pub(crate) fn intrinsic(&mut self, name: &str, args: Vec<V>, span: syntax::Span) -> IResult<V> {
        let bad = || InternaliseError::at(format!("bad arguments to intrinsic {name}"), span);
        match (name, args.as_slice()) {
            ("map", [f, xs]) => self.map(f, xs, span),
            ("reduce" | "reduce_comm", [op, ne, xs]) => {
                self.reduce_scan(op, ne, xs, name == "reduce_comm", false, span)
            }
            ("scan", [op, ne, xs]) => self.reduce_scan(op, ne, xs, false, true, span),
            ("reduce_by_index", [dest, op, ne, is, vs]) => self.hist(dest, op, ne, is, vs, span),
            ("scatter", [dest, is, vs]) => self.scatter(dest, is, vs, span),
            ("iota", [n]) => {
                let n = n.scalar().ok_or_else(bad)?;
                let v = self.fb.bind1(
                    "iota",
                    Exp::Iota {
                        n,
                        start: i64c(0),
                        step: i64c(1),
                    },
                )?;
                Ok(V::Arr(
                    vec![n.to_size()],
                    Box::new(V::Leaf(Operand::Var(v))),
                ))
            }
            ("replicate", [n, x]) => {
                let n = n.scalar().ok_or_else(bad)?;
                let mut new = Vec::new();
                for l in x.leaf_list() {
                    new.push(Operand::Var(self.fb.bind1(
                        "rep",
                        Exp::Replicate {
                            shape: vec![n.to_size()],
                            value: l,
                        },
                    )?));
                }
                Ok(wrap_arr(
                    vec![n.to_size()],
                    x.with_leaves(&mut new.into_iter()),
                ))
            }
            ("copy", [x]) => {
                let mut new = Vec::new();
                for l in x.leaf_list() {
                    new.push(match l {
                        Operand::Var(v) if !self.fb.ty(v).shape.is_empty() => {
                            Operand::Var(self.fb.bind1("copy", Exp::Copy(v))?)
                        }
                        o => o,
                    });
                }
                Ok(x.with_leaves(&mut new.into_iter()))
            }
            ("concat", [V::Arr(dx, ex), V::Arr(dy, ey)]) => {
                let n = self.fb.scalar(
                    "n",
                    Exp::BinOp(BinOp::Add, size_operand(dx[0]), size_operand(dy[0])),
                )?;
                let ys = ey.leaf_list();
                let mut new = Vec::new();
                for (a, b) in ex.leaf_list().into_iter().zip(ys) {
                    let (Operand::Var(a), Operand::Var(b)) = (a, b) else {
                        return Err(bad());
                    };
                    new.push(Operand::Var(self.fb.bind1(
                        "concat",
                        Exp::Concat {
                            dim: 0,
                            len: n.to_size(),
                            arrs: vec![a, b],
                        },
                    )?));
                }
                let mut ds = dx.clone();
                ds[0] = n.to_size();
                Ok(V::Arr(ds, Box::new(ex.with_leaves(&mut new.into_iter()))))
            }
            ("flatten", [V::Arr(ds, e)]) if ds.len() >= 2 => {
                let n = self.fb.scalar(
                    "n",
                    Exp::BinOp(BinOp::Mul, size_operand(ds[0]), size_operand(ds[1])),
                )?;
                let mut nds = vec![n.to_size()];
                nds.extend_from_slice(&ds[2..]);
                self.reshape(&nds, ds.len(), e)
            }
            ("unflatten", [n, m, V::Arr(ds, e)]) => {
                let n = n.scalar().ok_or_else(bad)?;
                let m = m.scalar().ok_or_else(bad)?;
                let mut nds = vec![n.to_size(), m.to_size()];
                nds.extend_from_slice(&ds[1..]);
                self.reshape(&nds, ds.len(), e)
            }
            ("transpose", [V::Arr(ds, e)]) if ds.len() >= 2 => {
                let mut new = Vec::new();
                for l in e.leaf_list() {
                    let Operand::Var(a) = l else {
                        return Err(bad());
                    };
                    let rank = self.fb.ty(a).rank();
                    let mut perm: Vec<usize> = (0..rank).collect();
                    perm.swap(0, 1);
                    new.push(Operand::Var(
                        self.fb.bind1("tr", Exp::Rearrange { perm, arr: a })?,
                    ));
                }
                let mut nds = ds.clone();
                nds.swap(0, 1);
                Ok(V::Arr(nds, Box::new(e.with_leaves(&mut new.into_iter()))))
            }
            ("zip", [V::Arr(dx, ex), V::Arr(dy, ey)]) => {
                let (a, b) = (size_operand(dx[0]), size_operand(dy[0]));
                if a != b {
                    let cond = self.fb.scalar("size_ok", Exp::Cmp(ir::CmpOp::Eq, a, b))?;
                    let msg = "Size mismatch: zip of arrays of different sizes.".to_string();
                    self.fb.push(
                        Vec::new(),
                        Exp::Assert {
                            cond,
                            msg,
                            args: Vec::new(),
                        },
                    );
                }
                let row = |ds: &[Size], e: &V| {
                    if ds.len() > 1 {
                        V::Arr(ds[1..].to_vec(), Box::new(e.clone()))
                    } else {
                        e.clone()
                    }
                };
                Ok(V::Arr(
                    vec![dx[0]],
                    Box::new(V::Tuple(vec![row(dx, ex), row(dy, ey)])),
                ))
            }
            ("unzip", [V::Arr(ds, e)]) => match &**e {
                V::Tuple(parts) => Ok(V::Tuple(
                    parts
                        .iter()
                        .map(|p| wrap_arr(ds.clone(), p.clone()))
                        .collect(),
                )),
                _ => Err(bad()),
            },
            ("jvp2" | "vjp2", [f, x, d]) => self.ad(name == "jvp2", f, x, d, span),
            ("jmp2" | "mjp2", [f, x, ds]) => {
                // The primal once, and one derivative per seed.
                let primal = self.apply(f.clone(), vec![x.clone()], span)?;
                let deriv = V::Fun(std::rc::Rc::new(crate::value::Closure::Deriv {
                    forward: name == "jmp2",
                    f: f.clone(),
                    x: x.clone(),
                }));
                let derivs = self.map(&deriv, ds, span)?;
                Ok(V::Tuple(vec![primal, derivs]))
            }
            ("with_vjp", [f, fprime, x]) => self.with_vjp(f, fprime, x, span),
            _ => self.scalar_intrinsic(name, &args, span),
        }
    }

    fn reshape(&mut self, nds: &[Size], old_rank: usize, e: &V) -> IResult<V> {
        let mut new = Vec::new();
        for l in e.leaf_list() {
            let Operand::Var(a) = l else {
                return Err(InternaliseError::internal(
                    "reshape of a constant",
                    self.fb.span,
                ));
            };
            let t = self.fb.ty(a);
            let mut shape = nds.to_vec();
            shape.extend_from_slice(&t.shape[old_rank..]);
            new.push(Operand::Var(
                self.fb.bind1("reshape", Exp::Reshape { shape, arr: a })?,
            ));
        }
        Ok(V::Arr(
            nds.to_vec(),
            Box::new(e.with_leaves(&mut new.into_iter())),
        ))
    }

    fn scalar_intrinsic(&mut self, name: &str, args: &[V], span: syntax::Span) -> IResult<V> {
        let unsupported = || InternaliseError::unsupported(format!("the intrinsic {name}"), span);
        let Some((ty, fun)) = name.split_once('.') else {
            return Err(unsupported());
        };
        let Some(t) = PrimType::from_name(ty) else {
            return Err(unsupported());
        };
        let ops: Vec<Operand> = args
            .iter()
            .map(|a| a.scalar().ok_or_else(unsupported))
            .collect::<IResult<_>>()?;
        if fun == "ldexp" && t.is_float() && ops.len() == 2 {
            return Ok(V::Leaf(self.ldexp(t, ops[0], ops[1])?));
        }
        let exp = if let Some(from) = PrimType::from_name(fun) {
            let _ = from;
            Exp::Convert(ConvKind::Convert, t, ops[0])
        } else if fun == "to_bits" {
            let to = match t {
                PrimType::F16 => PrimType::U16,
                PrimType::F32 => PrimType::U32,
                _ => PrimType::U64,
            };
            Exp::Convert(ConvKind::Bitcast, to, ops[0])
        } else if fun == "from_bits" {
            Exp::Convert(ConvKind::Bitcast, t, ops[0])
        } else if let Some(m) = MathFn::from_name(fun) {
            if m.arity() != ops.len() {
                return Err(unsupported());
            }
            Exp::Math(m, ops)
        } else {
            return Err(unsupported());
        };
        Ok(V::Leaf(self.fb.scalar(fun, exp)?))
    }

    /// `jvp2 f x dx` (`forward`) or `vjp2 f x dy`: an IR `jvp` or `vjp`
    /// node over a lambda for `f`, giving `(f x, derivative)`, which the
    /// `ad` pass expands.
    pub(crate) fn ad(
        &mut self,
        forward: bool,
        f: &V,
        x: &V,
        seed: &V,
        span: syntax::Span,
    ) -> IResult<V> {
        if x.has_fun() || seed.has_fun() {
            return Err(InternaliseError::at(
                "differentiating with respect to a function",
                span,
            ));
        }
        let types: Vec<ir::Type> = x.leaf_list().iter().map(|o| self.fb.op_ty(o)).collect();
        let (lambda, rv, inner) =
            self.lambda_inner_dims(f, &[(x.clone(), types.clone())], None, span)?;
        // Result sizes computed inside the function are extra `i64` results
        // of the lambda (as for `map`): their adjoints are zero, and the
        // primal and tangent arrays are reshaped to the primal sizes.
        let ret = lambda.ret.clone();
        let n = ret.len() - inner.len();
        let leaf_types: Vec<ir::Type> = rv.leaf_list().iter().map(|o| self.fb.op_ty(o)).collect();
        let mut seeds = seed.leaf_list();
        if !forward {
            seeds.extend(inner.iter().map(|_| i64c(0)));
        }
        let invariant = self.invariant_sizes(&lambda, &inner)?;
        let primals = x.leaf_list();
        let mut pat = Vec::new();
        for t in &ret {
            pat.push(self.fb.var("primal", t.clone()));
        }
        let deriv_types = if forward { ret.clone() } else { types };
        let mut derivs = Vec::new();
        for t in &deriv_types {
            derivs.push(self.fb.var("deriv", t.clone()));
        }
        pat.extend(derivs.iter().copied());
        let ad = Box::new(ir::AdExp {
            lambda,
            primals,
            seeds,
        });
        self.fb.push(
            pat.clone(),
            if forward { Exp::Jvp(ad) } else { Exp::Vjp(ad) },
        );
        let subst: Vec<(ir::VarId, Size)> = inner
            .iter()
            .enumerate()
            .map(|(k, v)| {
                (
                    *v,
                    invariant[k].map_or(Size::Var(pat[n + k]), |d| d.to_size()),
                )
            })
            .collect();
        let sub = |s: Size| match s {
            Size::Var(v) => subst
                .iter()
                .find(|(u, _)| *u == v)
                .map(|(_, d)| *d)
                .unwrap_or(s),
            s => s,
        };
        let rv = subst_dims(&rv, &sub);
        let primal_leaves = self.reshape_leaves(&pat[..n], &leaf_types, &sub)?;
        let mut ps = primal_leaves.into_iter();
        let primal = rv.with_leaves(&mut ps);
        let deriv = if forward {
            let tangents = self.reshape_leaves(&derivs[..n], &leaf_types, &sub)?;
            rv.with_leaves(&mut tangents.into_iter())
        } else {
            x.with_leaves(&mut derivs.into_iter().map(Operand::Var))
        };
        Ok(V::Tuple(vec![primal, deriv]))
    }

    /// `with_vjp f f' x`: an IR `custom_vjp` over a lambda for `f` (taking
    /// the leaves of `x`) and one for `f'` (taking the leaves of `y = f x`
    /// and of its adjoint, returning those of `x`'s adjoint).
    fn with_vjp(&mut self, f: &V, fprime: &V, x: &V, span: syntax::Span) -> IResult<V> {
        if x.has_fun() {
            return Err(InternaliseError::at(
                "with_vjp with respect to a function",
                span,
            ));
        }
        let types: Vec<ir::Type> = x.leaf_list().iter().map(|o| self.fb.op_ty(o)).collect();
        let (f_lam, rv, inner) =
            self.lambda_inner_dims(f, &[(x.clone(), types.clone())], None, span)?;
        if !inner.is_empty() {
            return Err(InternaliseError::unsupported(
                "a with_vjp function whose result size is computed inside it",
                span,
            ));
        }
        let ret = f_lam.ret.clone();
        let protos = [(rv.clone(), ret.clone()), (rv.clone(), ret.clone())];
        let (mut fprime_lam, _, inner) = self.lambda_inner_dims(fprime, &protos, None, span)?;
        if !inner.is_empty()
            || fprime_lam.ret.len() != types.len()
            || fprime_lam
                .ret
                .iter()
                .zip(&types)
                .any(|(r, t)| r.elem != t.elem || r.rank() != t.rank())
        {
            return Err(InternaliseError::unsupported(
                "a with_vjp derivative whose result does not have the input's type",
                span,
            ));
        }
        // Results whose sizes are written differently from the input's are
        // reshaped to the input's type.
        self.fb.begin_scope();
        let res = self.reshaped_to(std::mem::take(&mut fprime_lam.body.result), &types)?;
        let tail = self.fb.end_scope(res);
        fprime_lam.body.stms.extend(tail.stms);
        fprime_lam.body.result = tail.result;
        fprime_lam.ret = types;
        let pat: Vec<ir::VarId> = ret.iter().map(|t| self.fb.var("y", t.clone())).collect();
        self.fb.push(
            pat.clone(),
            Exp::CustomVjp(Box::new(ir::CustomVjp {
                f: f_lam,
                fprime: fprime_lam,
                args: x.leaf_list(),
            })),
        );
        Ok(rv.with_leaves(&mut pat.into_iter().map(Operand::Var)))
    }

    /// `vars`, each reshaped to the corresponding type of `types` with its
    /// sizes mapped by `sub` (where that differs from the variable's type).
    fn reshape_leaves(
        &mut self,
        vars: &[ir::VarId],
        types: &[ir::Type],
        sub: &dyn Fn(Size) -> Size,
    ) -> IResult<Vec<Operand>> {
        let mut out = Vec::new();
        for (var, t) in vars.iter().zip(types) {
            let shape: Vec<Size> = t.shape.iter().map(|s| sub(*s)).collect();
            if self.fb.ty(*var).shape == shape {
                out.push(Operand::Var(*var));
            } else {
                let r = self.fb.bind1("res", Exp::Reshape { shape, arr: *var })?;
                out.push(Operand::Var(r));
            }
        }
        Ok(out)
    }

    /// `ldexp x k` = x·2^k: `k` is clamped to where the result saturates
    /// and split into three parts, each a power of two the type represents
    /// exactly, multiplied in turn.
    fn ldexp(&mut self, t: PrimType, x: Operand, k: Operand) -> IResult<Operand> {
        let limit: i32 = match t {
            PrimType::F16 => 45,
            PrimType::F32 => 300,
            _ => 2300,
        };
        let lo = Operand::Const(ir::PrimValue::I32(-limit));
        let hi = Operand::Const(ir::PrimValue::I32(limit));
        let k = self.fb.scalar("k", Exp::BinOp(BinOp::Min, k, hi))?;
        let k = self.fb.scalar("k", Exp::BinOp(BinOp::Max, k, lo))?;
        let three = Operand::Const(ir::PrimValue::I32(3));
        let two = Operand::Const(ir::PrimValue::I32(2));
        let a = self.fb.scalar("k", Exp::BinOp(BinOp::Quot, k, three))?;
        let rest = self.fb.scalar("k", Exp::BinOp(BinOp::Sub, k, a))?;
        let b = self.fb.scalar("k", Exp::BinOp(BinOp::Quot, rest, two))?;
        let c = self.fb.scalar("k", Exp::BinOp(BinOp::Sub, rest, b))?;
        let base = Operand::Const(
            ir::PrimValue::float_of_type(t, 2.0)
                .ok_or_else(|| InternaliseError::internal("ldexp of a non-float", self.fb.span))?,
        );
        let mut acc = x;
        for part in [a, b, c] {
            let e = self
                .fb
                .scalar("e", Exp::Convert(ConvKind::Convert, t, part))?;
            let p = self.fb.scalar("p", Exp::BinOp(BinOp::Pow, base, e))?;
            acc = self.fb.scalar("ldexp", Exp::BinOp(BinOp::Mul, acc, p))?;
        }
        Ok(acc)
    }

    /// A lambda for an operator (of reduce, scan, hist) whose parameters
    /// have the shapes of `protos` (values whose leaves give the parameter
    /// types), applying `f` to them. Its results have the types of the
    /// first parameter (reshaped to them where `f` computes their sizes).
    fn lambda_of(
        &mut self,
        f: &V,
        protos: &[(V, Vec<ir::Type>)],
        span: syntax::Span,
    ) -> IResult<(Lambda, V)> {
        let result_types = protos.first().map(|p| p.1.clone());
        let (lam, rv, inner) = self.lambda_inner_dims(f, protos, result_types.as_deref(), span)?;
        if !inner.is_empty() {
            return Err(InternaliseError::unsupported(
                "an operator whose result size is computed inside it",
                span,
            ));
        }
        Ok((lam, rv))
    }

    /// Each of `ops` reshaped to its type in `types` where its shape is
    /// written differently (the same sizes, as other expressions). On an
    /// error the current scope is closed.
    fn reshaped_to(&mut self, ops: Vec<Operand>, types: &[ir::Type]) -> IResult<Vec<Operand>> {
        let mut out = Vec::new();
        for (o, t) in ops.into_iter().zip(types) {
            out.push(match o {
                Operand::Var(v) if self.fb.ty(v).shape != t.shape => {
                    let exp = Exp::Reshape {
                        shape: t.shape.clone(),
                        arr: v,
                    };
                    match self.fb.bind1("res", exp) {
                        Ok(r) => Operand::Var(r),
                        Err(e) => {
                            self.fb.end_scope(Vec::new());
                            return Err(e);
                        }
                    }
                }
                o => o,
            });
        }
        Ok(out)
    }

    /// Like [`Cx::lambda_of`], but result sizes computed inside the lambda
    /// are allowed: each such size variable is returned as an extra `i64`
    /// result after the others (listed in the third component), and the
    /// declared result types have `?` in its place. With `result_types`,
    /// results of a different type are first reshaped to them.
    fn lambda_inner_dims(
        &mut self,
        f: &V,
        protos: &[(V, Vec<ir::Type>)],
        result_types: Option<&[ir::Type]>,
        span: syntax::Span,
    ) -> IResult<(Lambda, V, Vec<ir::VarId>)> {
        let start = self.fb.vars.arena().len();
        self.fb.begin_scope();
        let mut params = Vec::new();
        let mut args = Vec::new();
        for (p, types) in protos {
            let mut new = Vec::new();
            for t in types {
                let v = self.fb.var("x", t.clone());
                params.push(Param::new(v));
                new.push(Operand::Var(v));
            }
            args.push(p.with_leaves(&mut new.into_iter()));
        }
        let r = self.apply(f.clone(), args, span);
        let rv = match r {
            Ok(v) => v,
            Err(e) => {
                self.fb.end_scope(Vec::new());
                return Err(e);
            }
        };
        let mut rv = rv;
        if let Some(want) = result_types {
            let leaves = rv.leaf_list();
            if leaves.len() == want.len() {
                let new = self.reshaped_to(leaves, want)?;
                let mut row = protos[0].0.with_leaves(&mut new.into_iter());
                if rv.has_fun() {
                    row = rv.clone();
                }
                rv = row;
            }
        }
        let mut res = rv.leaf_list();
        let mut ret: Vec<ir::Type> = res.iter().map(|o| self.fb.op_ty(o)).collect();
        let is_inner = |s: &Size| matches!(s, Size::Var(v) if v.as_u32() as usize >= start);
        let mut ds = Vec::new();
        rv.dims(&mut ds);
        let mut inner = Vec::new();
        for s in ds.iter().chain(ret.iter().flat_map(|t| t.shape.iter())) {
            if let Size::Var(v) = s
                && is_inner(s)
                && !inner.contains(v)
            {
                inner.push(*v);
            }
        }
        for t in &mut ret {
            for s in &mut t.shape {
                if is_inner(s) {
                    *s = Size::Any;
                }
            }
        }
        for v in &inner {
            res.push(Operand::Var(*v));
            ret.push(ir::Type::scalar(PrimType::I64));
        }
        let body = self.fb.end_scope(res);
        if rv.has_fun() {
            return Err(InternaliseError::at(
                "a SOAC function returning a function",
                span,
            ));
        }
        Ok((Lambda { params, ret, body }, rv, inner))
    }

    /// The row of an array value (its element for one outer index), with
    /// the leaves' row types as prototypes.
    fn row_proto(&mut self, ds: &[Size], e: &V) -> (V, Vec<ir::Type>) {
        let types = e
            .leaf_list()
            .iter()
            .map(|l| {
                let t = self.fb.op_ty(l);
                t.row().unwrap_or(t)
            })
            .collect();
        let ev = e.clone();
        let v = if ds.len() > 1 {
            V::Arr(ds[1..].to_vec(), Box::new(ev))
        } else {
            ev
        };
        (v, types)
    }

    fn array_parts(&self, xs: &V, span: syntax::Span) -> IResult<(Vec<Size>, V, Vec<ir::VarId>)> {
        let V::Arr(ds, e) = xs else {
            return Err(InternaliseError::at("a SOAC over a non-array", span));
        };
        let mut vars = Vec::new();
        for l in e.leaf_list() {
            match l {
                Operand::Var(v) => vars.push(v),
                Operand::Const(_) => {
                    return Err(InternaliseError::at("a SOAC over a constant", span));
                }
            }
        }
        Ok((ds.clone(), (**e).clone(), vars))
    }

    fn map(&mut self, f: &V, xs: &V, span: syntax::Span) -> IResult<V> {
        let (ds, e, inputs) = self.array_parts(xs, span)?;
        let w = size_operand(ds[0]);
        let proto = self.row_proto(&ds, &e);
        let (lam, rv, inner) = self.lambda_inner_dims(f, &[proto], None, span)?;
        let pat: Vec<ir::VarId> = lam
            .ret
            .iter()
            .map(|t| self.fb.var("map", t.array_of(w.to_size())))
            .collect();
        // The types of the lambda's results with inner sizes, before `?`.
        let leaf_types: Vec<ir::Type> = rv.leaf_list().iter().map(|o| self.fb.op_ty(o)).collect();
        let invariant = self.invariant_sizes(&lam, &inner)?;
        self.fb.push(
            pat.clone(),
            Exp::Screma(Box::new(Screma {
                w,
                inputs,
                scans: Vec::new(),
                reduces: Vec::new(),
                map: lam,
            })),
        );
        let n = pat.len() - inner.len();
        if inner.is_empty() {
            let mut it = pat.into_iter().map(Operand::Var);
            return Ok(wrap_arr(vec![w.to_size()], rv.with_leaves(&mut it)));
        }
        // Sizes computed per element: the map is regular, so every element
        // has the first element's sizes (the interpreter checks that the
        // rows agree); an empty map has size 0, unless the size does not
        // depend on the element (`crate::invariant`).
        let mut subst = Vec::new();
        for (k, v) in inner.iter().enumerate() {
            let d = match invariant[k] {
                Some(d) => d,
                None => self.first_or_zero(w, pat[n + k])?,
            };
            subst.push((*v, d.to_size()));
        }
        let sub = |s: Size| match s {
            Size::Var(v) => subst
                .iter()
                .find(|(u, _)| *u == v)
                .map(|(_, d)| *d)
                .unwrap_or(s),
            s => s,
        };
        let mut leaves = Vec::new();
        for (var, t) in pat[..n].iter().zip(&leaf_types) {
            let mut shape = vec![w.to_size()];
            shape.extend(t.shape.iter().map(|s| sub(*s)));
            leaves.push(Operand::Var(
                self.fb.bind1("map", Exp::Reshape { shape, arr: *var })?,
            ));
        }
        let rv = subst_dims(&rv, &sub);
        let mut it = leaves.into_iter();
        Ok(wrap_arr(vec![w.to_size()], rv.with_leaves(&mut it)))
    }

    /// `xs[0]` of an `i64` array of `w` elements, or 0 when `w` is 0.
    fn first_or_zero(&mut self, w: Operand, xs: ir::VarId) -> IResult<Operand> {
        let nonempty = self
            .fb
            .scalar("nonempty", Exp::Cmp(ir::CmpOp::Gt, w, i64c(0)))?;
        self.fb.begin();
        let x = self
            .fb
            .scalar("d", Exp::Index(xs, vec![ir::DimIndex::Fix(i64c(0))]))?;
        let then_body = self.fb.end(vec![x]);
        let else_body = ir::Body {
            stms: Vec::new(),
            result: vec![i64c(0)],
        };
        let d = self.fb.var("d", ir::Type::scalar(PrimType::I64));
        self.fb.push(
            vec![d],
            Exp::If {
                cond: nonempty,
                then_body,
                else_body,
            },
        );
        Ok(Operand::Var(d))
    }

    fn identity_lambda(&mut self, types: &[ir::Type]) -> Lambda {
        self.fb.begin_scope();
        let mut params = Vec::new();
        let mut ret = Vec::new();
        for t in types {
            let v = self.fb.var("x", t.clone());
            params.push(Param::new(v));
            ret.push(t.clone());
        }
        let res = params.iter().map(|p| Operand::Var(p.var)).collect();
        let body = self.fb.end_scope(res);
        Lambda { params, ret, body }
    }

    fn reduce_scan(
        &mut self,
        op: &V,
        ne: &V,
        xs: &V,
        commutative: bool,
        scan: bool,
        span: syntax::Span,
    ) -> IResult<V> {
        let (ds, e, inputs) = self.array_parts(xs, span)?;
        let w = size_operand(ds[0]);
        let proto = self.row_proto(&ds, &e);
        let (lam, rv) = self.lambda_of(op, &[proto.clone(), proto.clone()], span)?;
        let map = self.identity_lambda(&proto.1);
        let neutral = ne.leaf_list();
        let sr = ScanRed {
            op: lam,
            neutral,
            commutative,
        };
        let types: Vec<ir::Type> = map.ret.clone();
        let pat: Vec<ir::VarId> = types
            .iter()
            .map(|t| {
                if scan {
                    self.fb.var("scan", t.array_of(w.to_size()))
                } else {
                    self.fb.var("red", t.clone())
                }
            })
            .collect();
        let (scans, reduces) = if scan {
            (vec![sr], Vec::new())
        } else {
            (Vec::new(), vec![sr])
        };
        self.fb.push(
            pat.clone(),
            Exp::Screma(Box::new(Screma {
                w,
                inputs,
                scans,
                reduces,
                map,
            })),
        );
        let mut it = pat.into_iter().map(Operand::Var);
        let v = rv.with_leaves(&mut it);
        Ok(if scan {
            wrap_arr(vec![w.to_size()], v)
        } else {
            v
        })
    }

    fn hist(&mut self, dest: &V, op: &V, ne: &V, is: &V, vs: &V, span: syntax::Span) -> IResult<V> {
        let (dd, de, dests) = self.array_parts(dest, span)?;
        let (ids, _, is_vars) = self.array_parts(is, span)?;
        let (vds, ve, v_vars) = self.array_parts(vs, span)?;
        let w = size_operand(ids[0]);
        let proto = self.row_proto(&dd, &de);
        let (lam, _) = self.lambda_of(op, &[proto.clone(), proto], span)?;
        let vproto = self.row_proto(&vds, &ve);
        let mut inputs = is_vars;
        inputs.extend(v_vars);
        let mut types = vec![ir::Type::scalar(PrimType::I64)];
        types.extend(vproto.1);
        let map = self.identity_lambda(&types);
        self.write_dests("hist", &dests, dd, &de, |owned| {
            Exp::Hist(Box::new(Hist {
                w,
                inputs,
                hists: vec![HistOp {
                    dests: owned,
                    neutral: ne.leaf_list(),
                    op: lam,
                }],
                map,
            }))
        })
    }

    fn scatter(&mut self, dest: &V, is: &V, vs: &V, span: syntax::Span) -> IResult<V> {
        let (dd, de, dests) = self.array_parts(dest, span)?;
        let (ids, _, is_vars) = self.array_parts(is, span)?;
        let (vds, ve, v_vars) = self.array_parts(vs, span)?;
        let w = size_operand(ids[0]);
        let vproto = self.row_proto(&vds, &ve);
        let mut inputs = is_vars;
        inputs.extend(v_vars.iter().copied());
        // The map gives, per destination, the index and the value.
        self.fb.begin_scope();
        let i = self.fb.var("i", ir::Type::scalar(PrimType::I64));
        let mut params = vec![Param::new(i)];
        let mut res = Vec::new();
        let mut ret = Vec::new();
        for t in vproto.1 {
            let v = self.fb.var("v", t.clone());
            params.push(Param::new(v));
            res.push(Operand::Var(i));
            res.push(Operand::Var(v));
            ret.push(ir::Type::scalar(PrimType::I64));
            ret.push(t);
        }
        let body = self.fb.end_scope(res);
        let map = Lambda { params, ret, body };
        self.write_dests("scatter", &dests, dd, &de, |owned| {
            Exp::Scatter(Box::new(Scatter {
                w,
                inputs,
                dests: owned
                    .iter()
                    .map(|a| ScatterDest { arr: *a, rank: 1 })
                    .collect(),
                map,
            }))
        })
    }

    /// Binds the statement `make(owned)`, which consumes the destinations
    /// `dests` (`owned`: each one, or a copy where it may not be consumed
    /// here), to a new `name` per destination; returns them as an array
    /// value of dimensions `dd` and elements shaped like `de`.
    fn write_dests(
        &mut self,
        name: &str,
        dests: &[ir::VarId],
        dd: Vec<Size>,
        de: &V,
        make: impl FnOnce(Vec<ir::VarId>) -> Exp,
    ) -> IResult<V> {
        let mut owned = Vec::new();
        for d in dests {
            owned.push(self.fb.own(*d)?);
        }
        let pat: Vec<ir::VarId> = owned
            .iter()
            .map(|d| {
                let t = self.fb.ty(*d);
                self.fb.var(name, t)
            })
            .collect();
        self.fb.push(pat.clone(), make(owned));
        let mut it = pat.into_iter().map(Operand::Var);
        Ok(V::Arr(dd, Box::new(de.with_leaves(&mut it))))
    }
}

/// `v` with every array dimension replaced by `f` of it.
fn subst_dims(v: &V, f: &dyn Fn(Size) -> Size) -> V {
    match v {
        V::Leaf(_) | V::Fun(_) => v.clone(),
        V::Tuple(vs) => V::Tuple(vs.iter().map(|x| subst_dims(x, f)).collect()),
        V::Record(fs) => V::Record(
            fs.iter()
                .map(|(n, x)| (n.clone(), subst_dims(x, f)))
                .collect(),
        ),
        V::Arr(ds, e) => V::Arr(
            ds.iter().map(|d| f(*d)).collect(),
            Box::new(subst_dims(e, f)),
        ),
        V::Sum(t, cs) => V::Sum(
            t.clone(),
            cs.iter()
                .map(|(n, p)| (n.clone(), p.iter().map(|x| subst_dims(x, f)).collect()))
                .collect(),
        ),
    }
}
