//! Result types of expressions.
//!
//! [`TypeCtx::exp_types`] checks the operands of one expression (their
//! types, ranks and arities, and the signatures of the lambdas of SOACs)
//! and returns the types of its results. It does not look inside nested
//! bodies beyond their declared types; [`crate::verify`] does that, and the
//! builder uses this module to infer the types of new variables.

use values::PrimType;

use crate::arena::PrimaryMap;
use crate::ids::{FunId, VarId};
use crate::print::type_string;
use crate::syntax::*;
use crate::types::{Size, Type};

/// What typing an expression needs: the function's variables and the
/// program's functions (for applications).
#[derive(Clone, Copy)]
pub struct TypeCtx<'a> {
    /// The variables of the function being typed.
    pub vars: &'a PrimaryMap<VarId, VarInfo>,
    /// The functions of the program, for [`Exp::Apply`].
    pub functions: Option<&'a PrimaryMap<FunId, Function>>,
}

type R<T> = Result<T, String>;

impl<'a> TypeCtx<'a> {
    /// The type of a variable.
    pub fn var(&self, v: VarId) -> R<&'a Type> {
        self.vars
            .get(v)
            .map(|i| &i.ty)
            .ok_or_else(|| format!("unknown variable {v:?}"))
    }

    /// The name of a variable, for messages.
    pub fn name(&self, v: VarId) -> String {
        self.vars
            .get(v)
            .map(|i| i.name.clone())
            .unwrap_or_else(|| format!("{v:?}"))
    }

    /// The type of an operand.
    pub fn operand(&self, o: &Operand) -> R<Type> {
        match o {
            Operand::Var(v) => self.var(*v).cloned(),
            Operand::Const(c) => Ok(Type::scalar(c.prim_type())),
        }
    }

    fn show(&self, t: &Type) -> String {
        type_string(self.vars, t)
    }

    fn show_op(&self, o: &Operand) -> String {
        match o {
            Operand::Var(v) => format!("`{}`", self.name(*v)),
            Operand::Const(c) => format!("`{c}`"),
        }
    }

    fn scalar(&self, o: &Operand, what: &str) -> R<PrimType> {
        let t = self.operand(o)?;
        if t.is_scalar() {
            Ok(t.elem)
        } else {
            Err(format!(
                "{what}: {} has type {}, expected a scalar",
                self.show_op(o),
                self.show(&t)
            ))
        }
    }

    fn expect_prim(&self, o: &Operand, p: PrimType, what: &str) -> R<()> {
        let t = self.operand(o)?;
        if t.is_prim(p) {
            Ok(())
        } else {
            Err(format!(
                "{what}: {} has type {}, expected {p}",
                self.show_op(o),
                self.show(&t)
            ))
        }
    }

    fn array(&self, v: VarId, what: &str) -> R<&'a Type> {
        let t = self.var(v)?;
        if t.acc || t.shape.is_empty() {
            return Err(format!(
                "{what}: `{}` has type {}, expected an array",
                self.name(v),
                self.show(t)
            ));
        }
        Ok(t)
    }

    /// Checks that `actual` is compatible with `expected`.
    pub fn expect_type(&self, actual: &Type, expected: &Type, what: &str) -> R<()> {
        if actual.compatible(expected) {
            Ok(())
        } else {
            Err(format!(
                "{what}: type {} does not match {}",
                self.show(actual),
                self.show(expected)
            ))
        }
    }

    fn expect_types(&self, actual: &[Type], expected: &[Type], what: &str) -> R<()> {
        if actual.len() != expected.len() {
            return Err(format!(
                "{what}: {} values where {} are expected",
                actual.len(),
                expected.len()
            ));
        }
        for (i, (a, e)) in actual.iter().zip(expected).enumerate() {
            self.expect_type(a, e, &format!("{what} (value {i})"))?;
        }
        Ok(())
    }

    /// The types of a lambda's parameters.
    pub fn lambda_params(&self, l: &Lambda) -> R<Vec<Type>> {
        l.params.iter().map(|p| self.var(p.var).cloned()).collect()
    }

    fn operands(&self, os: &[Operand]) -> R<Vec<Type>> {
        os.iter().map(|o| self.operand(o)).collect()
    }

    /// Checks that `l` is a binary operator on values of types `elems`:
    /// `2k` parameters and `k` results, all of those types.
    fn check_operator(&self, l: &Lambda, elems: &[Type], what: &str) -> R<()> {
        let params = self.lambda_params(l)?;
        let mut twice = elems.to_vec();
        twice.extend_from_slice(elems);
        self.expect_types(&params, &twice, &format!("{what} operator parameters"))?;
        self.expect_types(&l.ret, elems, &format!("{what} operator results"))
    }

    /// The parameter types a SOAC's map lambda must have for `inputs`: the
    /// row types of the arrays (outer size compatible with `w`), or the
    /// accumulator type itself, and optionally a last `i64` parameter, the
    /// iteration index (see [`crate::syntax::Screma`]).
    fn map_inputs(&self, w: &Operand, inputs: &[VarId], l: &Lambda, what: &str) -> R<()> {
        self.expect_prim(w, PrimType::I64, &format!("{what} width"))?;
        let mut rows = Vec::new();
        for &v in inputs {
            let t = self.var(v)?;
            if t.acc {
                rows.push(t.clone());
                continue;
            }
            let t = self.array(v, &format!("{what} input"))?;
            if t.shape[0].known_different(w.to_size()) {
                return Err(format!(
                    "{what} input `{}` of type {} does not have outer size {}",
                    self.name(v),
                    self.show(t),
                    self.show_op(w)
                ));
            }
            rows.push(t.row().unwrap_or_else(|| t.clone()));
        }
        // One parameter more than inputs: the last is the iteration index.
        if l.params.len() == inputs.len() + 1 {
            rows.push(Type::scalar(PrimType::I64));
        }
        let params = self.lambda_params(l)?;
        self.expect_types(&params, &rows, &format!("{what} lambda parameters"))
    }

    fn dim_index(&self, d: &DimIndex) -> R<Option<Size>> {
        match d {
            DimIndex::Fix(i) => {
                self.expect_prim(i, PrimType::I64, "index")?;
                Ok(None)
            }
            DimIndex::Range { start, len, stride } => {
                self.expect_prim(start, PrimType::I64, "slice start")?;
                self.expect_prim(len, PrimType::I64, "slice length")?;
                self.expect_prim(stride, PrimType::I64, "slice stride")?;
                Ok(Some(len.to_size()))
            }
        }
    }

    /// The type of `arr[idx]`.
    pub fn index_type(&self, arr: VarId, idx: &[DimIndex]) -> R<Type> {
        let t = self.array(arr, "indexing")?;
        if idx.len() > t.rank() {
            return Err(format!(
                "{} indices for `{}` of rank {}",
                idx.len(),
                self.name(arr),
                t.rank()
            ));
        }
        let mut shape = Vec::new();
        for d in idx {
            if let Some(s) = self.dim_index(d)? {
                shape.push(s);
            }
        }
        shape.extend_from_slice(&t.shape[idx.len()..]);
        Ok(Type::array(t.elem, shape))
    }

    fn check_sizes(&self, shape: &[Size], what: &str) -> R<()> {
        for s in shape {
            match s {
                Size::Var(v) => {
                    let t = self.var(*v)?;
                    if !t.is_prim(PrimType::I64) {
                        return Err(format!(
                            "{what}: size `{}` has type {}, expected i64",
                            self.name(*v),
                            self.show(t)
                        ));
                    }
                }
                Size::Const(n) if *n < 0 => {
                    return Err(format!("{what}: negative size {n}"));
                }
                Size::Const(_) => {}
                Size::Any => return Err(format!("{what}: size `?` is not allowed here")),
            }
        }
        Ok(())
    }

    fn body_types(&self, b: &Body) -> R<Vec<Type>> {
        self.operands(&b.result)
    }

    /// The types of the results of `e`, after checking its operands.
    pub fn exp_types(&self, e: &Exp) -> R<Vec<Type>> {
        match e {
            Exp::Atom(o) => Ok(vec![self.operand(o)?]),
            Exp::UnOp(op, x) => {
                let t = self.scalar(x, op.name())?;
                let ok = match op {
                    UnOp::Neg | UnOp::Abs | UnOp::Signum => t != PrimType::Bool,
                    UnOp::Not => !t.is_float(),
                };
                if !ok {
                    return Err(format!("`{}` is not defined on {t}", op.name()));
                }
                Ok(vec![Type::scalar(t)])
            }
            Exp::BinOp(op, x, y) => {
                let t = self.scalar(x, op.name())?;
                self.expect_prim(y, t, op.name())?;
                use BinOp::*;
                let ok = match op {
                    Add | Sub | Mul | Div | Mod | Rem | Pow | Min | Max => t != PrimType::Bool,
                    Quot | Shl | Shr | UShr => t.is_integer(),
                    And | Or | Xor => !t.is_float(),
                };
                if !ok {
                    return Err(format!("`{}` is not defined on {t}", op.name()));
                }
                Ok(vec![Type::scalar(t)])
            }
            Exp::Cmp(op, x, y) => {
                let t = self.scalar(x, op.name())?;
                self.expect_prim(y, t, op.name())?;
                Ok(vec![Type::scalar(PrimType::Bool)])
            }
            Exp::Convert(kind, to, x) => {
                let from = self.scalar(x, "conversion")?;
                if *kind == ConvKind::Bitcast
                    && (from.byte_size() != to.byte_size()
                        || from == PrimType::Bool
                        || *to == PrimType::Bool)
                {
                    return Err(format!("cannot reinterpret the bits of {from} as {to}"));
                }
                Ok(vec![Type::scalar(*to)])
            }
            Exp::Math(f, args) => {
                if args.len() != f.arity() {
                    return Err(format!(
                        "`{}` takes {} arguments, not {}",
                        f.name(),
                        f.arity(),
                        args.len()
                    ));
                }
                let t = self.scalar(&args[0], f.name())?;
                for a in &args[1..] {
                    self.expect_prim(a, t, f.name())?;
                }
                let int_fn = matches!(f, MathFn::Popc | MathFn::Clz | MathFn::Ctz | MathFn::MulHi);
                if int_fn != t.is_integer() || (!int_fn && !t.is_float()) {
                    return Err(format!("`{}` is not defined on {t}", f.name()));
                }
                let ret = match f {
                    MathFn::IsNan | MathFn::IsInf => PrimType::Bool,
                    MathFn::Popc | MathFn::Clz | MathFn::Ctz => PrimType::I32,
                    _ => t,
                };
                Ok(vec![Type::scalar(ret)])
            }
            Exp::Index(arr, idx) => Ok(vec![self.index_type(*arr, idx)?]),
            Exp::Update(arr, idx, v) => {
                let slot = self.index_type(*arr, idx)?;
                let vt = self.operand(v)?;
                self.expect_type(&vt, &slot, "updated value")?;
                Ok(vec![self.var(*arr)?.clone()])
            }
            Exp::Iota { n, start, step } => {
                self.expect_prim(n, PrimType::I64, "iota length")?;
                let t = self.scalar(start, "iota start")?;
                if !t.is_integer() {
                    return Err(format!("iota of non-integer type {t}"));
                }
                self.expect_prim(step, t, "iota step")?;
                Ok(vec![Type::array(t, vec![n.to_size()])])
            }
            Exp::Replicate { shape, value } => {
                self.check_sizes(shape, "replicate")?;
                let t = self.operand(value)?;
                if t.acc {
                    return Err("cannot replicate an accumulator".into());
                }
                let mut s = shape.clone();
                s.extend_from_slice(&t.shape);
                Ok(vec![Type::array(t.elem, s)])
            }
            Exp::Reshape { shape, arr } => {
                self.check_sizes(shape, "reshape")?;
                let t = self.array(*arr, "reshape")?;
                let count = |s: &[Size]| {
                    s.iter().try_fold(1i64, |acc, d| match d {
                        Size::Const(n) => acc.checked_mul(*n),
                        _ => None,
                    })
                };
                if let (Some(a), Some(b)) = (count(&t.shape), count(shape))
                    && a != b
                {
                    return Err(format!("reshape of {a} elements into {b}"));
                }
                Ok(vec![Type::array(t.elem, shape.clone())])
            }
            Exp::Rearrange { perm, arr } => {
                let t = self.array(*arr, "rearrange")?;
                let mut seen = vec![false; t.rank()];
                if perm.len() != t.rank() {
                    return Err(format!(
                        "rearrange of rank {} array by permutation of length {}",
                        t.rank(),
                        perm.len()
                    ));
                }
                for &p in perm {
                    match seen.get_mut(p) {
                        Some(s) if !*s => *s = true,
                        _ => return Err(format!("{perm:?} is not a permutation")),
                    }
                }
                let shape = perm.iter().map(|&p| t.shape[p]).collect();
                Ok(vec![Type::array(t.elem, shape)])
            }
            Exp::Concat { dim, len, arrs } => {
                self.check_sizes(&[*len], "concat")?;
                let Some(first) = arrs.first() else {
                    return Err("concat of no arrays".into());
                };
                let t = self.array(*first, "concat")?;
                if *dim >= t.rank() {
                    return Err(format!(
                        "concat along dimension {dim} of a rank {} array",
                        t.rank()
                    ));
                }
                let mut total = Some(0i64);
                for &a in arrs {
                    let u = self.array(a, "concat")?;
                    let mut u2 = u.clone();
                    if u2.rank() == t.rank() {
                        u2.shape[*dim] = t.shape[*dim];
                    }
                    self.expect_type(&u2, t, "concat operand")?;
                    total = match (total, u.shape[*dim]) {
                        (Some(s), Size::Const(n)) => s.checked_add(n),
                        _ => None,
                    };
                }
                if let (Some(s), Size::Const(n)) = (total, len)
                    && s != *n
                {
                    return Err(format!("concat of {s} elements declared as {n}"));
                }
                let mut r = t.clone();
                r.shape[*dim] = *len;
                Ok(vec![r])
            }
            Exp::Copy(arr) => Ok(vec![self.array(*arr, "copy")?.clone()]),
            Exp::Scratch { elem, shape } => {
                self.check_sizes(shape, "scratch")?;
                Ok(vec![Type::array(*elem, shape.clone())])
            }
            Exp::If {
                cond, then_body, ..
            } => {
                self.expect_prim(cond, PrimType::Bool, "if condition")?;
                self.body_types(then_body)
            }
            Exp::Loop { params, form, .. } => {
                if let LoopForm::For { bound, .. } = form {
                    let t = self.scalar(bound, "loop bound")?;
                    if !t.is_integer() {
                        return Err(format!("loop bound of type {t}"));
                    }
                }
                params
                    .iter()
                    .map(|(p, _)| self.var(p.var).cloned())
                    .collect()
            }
            Exp::Apply { fun, args } => {
                let f = self
                    .functions
                    .and_then(|fs| fs.get(*fun))
                    .ok_or_else(|| format!("unknown function {fun:?}"))?;
                if f.params.len() != args.len() {
                    return Err(format!(
                        "`{}` takes {} arguments, not {}",
                        f.name,
                        f.params.len(),
                        args.len()
                    ));
                }
                let subst = |s: Size| -> Size {
                    match s {
                        Size::Var(v) => f
                            .params
                            .iter()
                            .position(|p| p.var == v)
                            .map(|i| args[i].to_size())
                            .unwrap_or(Size::Any),
                        s => s,
                    }
                };
                let callee = |t: &Type| Type {
                    shape: t.shape.iter().map(|s| subst(*s)).collect(),
                    ..t.clone()
                };
                for (i, (p, a)) in f.params.iter().zip(args).enumerate() {
                    let pt = f.vars.get(p.var).map(|v| callee(&v.ty)).ok_or_else(|| {
                        format!(
                            "function `{}` has a parameter that is not its variable",
                            f.name
                        )
                    })?;
                    let at = self.operand(a)?;
                    self.expect_type(&at, &pt, &format!("argument {i} of `{}`", f.name))?;
                }
                Ok(f.ret.iter().map(callee).collect())
            }
            Exp::Assert { cond, args, .. } => {
                self.expect_prim(cond, PrimType::Bool, "assertion")?;
                for a in args {
                    self.scalar(a, "assertion message")?;
                }
                Ok(vec![])
            }
            Exp::Screma(s) => self.screma_types(s),
            Exp::Hist(h) => {
                self.map_inputs(&h.w, &h.inputs, &h.map, "hist")?;
                let mut expected_ret = Vec::new();
                let mut results = Vec::new();
                for op in &h.hists {
                    if op.dests.len() != op.neutral.len() || op.dests.is_empty() {
                        return Err(format!(
                            "hist with {} destinations and {} neutral elements",
                            op.dests.len(),
                            op.neutral.len()
                        ));
                    }
                    let mut elems = Vec::new();
                    for (&d, ne) in op.dests.iter().zip(&op.neutral) {
                        let t = self.array(d, "hist destination")?;
                        let row = t.row().unwrap_or_else(|| t.clone());
                        self.expect_type(&self.operand(ne)?, &row, "hist neutral element")?;
                        elems.push(row);
                        results.push(t.clone());
                    }
                    self.check_operator(&op.op, &elems, "hist")?;
                    expected_ret.push(Type::scalar(PrimType::I64));
                    expected_ret.extend(elems);
                }
                self.expect_types(&h.map.ret, &expected_ret, "hist lambda results")?;
                Ok(results)
            }
            Exp::Scatter(s) => {
                self.map_inputs(&s.w, &s.inputs, &s.map, "scatter")?;
                let mut expected_ret = Vec::new();
                let mut results = Vec::new();
                for d in &s.dests {
                    let t = self.array(d.arr, "scatter destination")?;
                    if d.rank == 0 || d.rank > t.rank() {
                        return Err(format!(
                            "scatter with {} indices into `{}` of rank {}",
                            d.rank,
                            self.name(d.arr),
                            t.rank()
                        ));
                    }
                    for _ in 0..d.rank {
                        expected_ret.push(Type::scalar(PrimType::I64));
                    }
                    expected_ret.push(Type::array(t.elem, t.shape[d.rank..].to_vec()));
                    results.push(t.clone());
                }
                self.expect_types(&s.map.ret, &expected_ret, "scatter lambda results")?;
                Ok(results)
            }
            Exp::WithAcc(w) => {
                let mut accs = Vec::new();
                let mut results = Vec::new();
                for i in &w.inputs {
                    let t = self.array(i.arr, "with_acc input")?;
                    if let Some((op, ne)) = &i.op {
                        let elem = Type::scalar(t.elem);
                        self.expect_type(&self.operand(ne)?, &elem, "with_acc neutral element")?;
                        self.check_operator(op, &[elem], "with_acc")?;
                    }
                    accs.push(t.to_acc());
                    results.push(t.clone());
                }
                let params = self.lambda_params(&w.lambda)?;
                self.expect_types(&params, &accs, "with_acc lambda parameters")?;
                if w.lambda.ret.len() < accs.len() {
                    return Err("with_acc lambda returns fewer values than accumulators".into());
                }
                let (acc_ret, rest) = w.lambda.ret.split_at(accs.len());
                self.expect_types(acc_ret, &accs, "with_acc lambda results")?;
                results.extend_from_slice(rest);
                Ok(results)
            }
            Exp::UpdateAcc { acc, idx, value } => {
                let t = self.var(*acc)?;
                if !t.acc {
                    return Err(format!(
                        "update_acc of `{}` of type {}, not an accumulator",
                        self.name(*acc),
                        self.show(t)
                    ));
                }
                if idx.len() > t.rank() {
                    return Err(format!(
                        "{} indices for an accumulator of rank {}",
                        idx.len(),
                        t.rank()
                    ));
                }
                for i in idx {
                    self.expect_prim(i, PrimType::I64, "update_acc index")?;
                }
                let slot = Type::array(t.elem, t.shape[idx.len()..].to_vec());
                self.expect_type(&self.operand(value)?, &slot, "update_acc value")?;
                Ok(vec![t.clone()])
            }
            Exp::Jvp(ad) => {
                let params = self.lambda_params(&ad.lambda)?;
                self.expect_types(&self.operands(&ad.primals)?, &params, "jvp primals")?;
                self.expect_types(&self.operands(&ad.seeds)?, &params, "jvp tangents")?;
                let mut r = ad.lambda.ret.clone();
                r.extend_from_slice(&ad.lambda.ret);
                Ok(r)
            }
            Exp::Vjp(ad) => {
                let params = self.lambda_params(&ad.lambda)?;
                self.expect_types(&self.operands(&ad.primals)?, &params, "vjp primals")?;
                self.expect_types(&self.operands(&ad.seeds)?, &ad.lambda.ret, "vjp adjoints")?;
                let mut r = ad.lambda.ret.clone();
                r.extend(params);
                Ok(r)
            }
            Exp::CustomVjp(c) => {
                let params = self.lambda_params(&c.f)?;
                self.expect_types(&self.operands(&c.args)?, &params, "custom_vjp arguments")?;
                let mut twice = c.f.ret.clone();
                twice.extend_from_slice(&c.f.ret);
                let fparams = self.lambda_params(&c.fprime)?;
                self.expect_types(&fparams, &twice, "custom_vjp derivative parameters")?;
                self.expect_types(&c.fprime.ret, &params, "custom_vjp derivative results")?;
                Ok(c.f.ret.clone())
            }
        }
    }

    fn screma_types(&self, s: &Screma) -> R<Vec<Type>> {
        self.map_inputs(&s.w, &s.inputs, &s.map, "screma")?;
        let w = s.w.to_size();
        let mut expected = Vec::new();
        let mut results = Vec::new();
        for (kind, ops) in [("scan", &s.scans), ("reduce", &s.reduces)] {
            for op in ops {
                let elems = self.operands(&op.neutral)?;
                if elems.is_empty() {
                    return Err(format!("{kind} with no neutral elements"));
                }
                self.check_operator(&op.op, &elems, kind)?;
                for e in &elems {
                    results.push(if kind == "scan" {
                        e.array_of(w)
                    } else {
                        e.clone()
                    });
                }
                expected.extend(elems);
            }
        }
        let n_red = expected.len();
        if s.map.ret.len() < n_red {
            return Err(format!(
                "screma lambda returns {} values, but its scans and reductions take {n_red}",
                s.map.ret.len()
            ));
        }
        let (red_ret, map_ret) = s.map.ret.split_at(n_red);
        self.expect_types(red_ret, &expected, "screma lambda results")?;
        for t in map_ret {
            results.push(if t.acc { t.clone() } else { t.array_of(w) });
        }
        Ok(results)
    }
}
