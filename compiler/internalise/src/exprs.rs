//! Expressions: each source expression becomes IR statements in the body
//! under construction and a static value [`V`].

use std::rc::Rc;

use ir::{BinOp, CmpOp, Exp, LoopForm as IrLoopForm, Operand, PrimType, PrimValue, Size, UnOp};
use semantic::module_eval::ModuleEval;
use syntax::ast::{self, DimIndex, Expr, ExprKind, Literal, QualName, RecordField};

use crate::cx::Cx;
use crate::env::{Env, ModVal};
use crate::error::{IResult, InternaliseError, ir_span};
use crate::fb::{i64c, sc};
use crate::index::Idx;
use crate::patterns::Sizes;
use crate::value::{Closure, FunDef, T, V, size_operand};

/// The IR type of a source primitive type.
pub(crate) fn prim(t: ast::PrimType) -> PrimType {
    PrimType::from_name(t.name()).unwrap_or(PrimType::I32)
}

/// The constant of a literal.
pub(crate) fn literal_const(l: &Literal, span: syntax::Span) -> IResult<PrimValue> {
    let bad = || InternaliseError::at("literal out of range", span);
    Ok(match l {
        Literal::Int { value, ty } => {
            let t = prim(ty.unwrap_or(ast::PrimType::I32));
            if t.is_float() {
                PrimValue::float_of_type(t, *value as f64).ok_or_else(bad)?
            } else {
                PrimValue::int_of_type(t, *value)
                    .or_else(|| PrimValue::int_of_type(t, wrap(t, *value)))
                    .ok_or_else(bad)?
            }
        }
        Literal::Float { value, ty } => {
            PrimValue::float_of_type(prim(ty.unwrap_or(ast::PrimType::F64)), *value)
                .ok_or_else(bad)?
        }
        Literal::Bool(b) => PrimValue::Bool(*b),
        Literal::Char { value, ty } => {
            PrimValue::int_of_type(prim(ty.unwrap_or(ast::PrimType::I32)), *value as i128)
                .ok_or_else(bad)?
        }
        Literal::String(_) => return Err(bad()),
    })
}

/// The IR attributes of source attributes: `inline`, `noinline`, `unsafe`,
/// `sequential`, `true_dep`, `stripmine(n)` and `bound(n)` with a constant
/// `n`. Any other attribute has no IR form and is dropped.
pub(crate) fn ir_attrs(attrs: &[ast::Attr]) -> Vec<ir::Attr> {
    use ast::AttrKind as K;
    let int = |args: &[ast::Attr]| match args {
        [
            ast::Attr {
                kind: K::Int(n), ..
            },
        ] => Some(*n),
        _ => None,
    };
    attrs
        .iter()
        .filter_map(|a| match &a.kind {
            K::Name(n) => match &**n {
                "inline" => Some(ir::Attr::Inline),
                "noinline" => Some(ir::Attr::NoInline),
                "unsafe" => Some(ir::Attr::Unsafe),
                "sequential" => Some(ir::Attr::Sequential),
                "true_dep" => Some(ir::Attr::TrueDep),
                _ => None,
            },
            K::Call(n, args) => match &**n {
                "stripmine" => int(args)
                    .and_then(|k| u32::try_from(k).ok())
                    .map(ir::Attr::Stripmine),
                "bound" => int(args)
                    .and_then(|k| i64::try_from(k).ok())
                    .map(ir::Attr::Bound),
                _ => None,
            },
            K::Int(_) => None,
        })
        .collect()
}

/// The dimensions of the arrays in a type expression whose record fields and
/// constructors are in name order, in the order [`Cx::empty_of`] takes them:
/// constant sizes as written, any other size 0.
fn const_dims(te: &ast::TypeExp, out: &mut Vec<Size>) {
    use ast::TypeExpKind as K;
    match &te.kind {
        K::Array(size, elem) => {
            let n = match size.as_deref().map(|e| &e.kind) {
                Some(ExprKind::Literal(Literal::Int { value, .. })) => {
                    i64::try_from(*value).unwrap_or(0)
                }
                _ => 0,
            };
            out.push(Size::Const(n));
            const_dims(elem, out);
        }
        K::Tuple(ts) => ts.iter().for_each(|t| const_dims(t, out)),
        K::Record(fs) => fs.iter().for_each(|(_, t)| const_dims(t, out)),
        K::Sum(cs) => cs
            .iter()
            .flat_map(|(_, ts)| ts)
            .for_each(|t| const_dims(t, out)),
        K::Unique(t) | K::Existential(_, t) => const_dims(t, out),
        K::Var(..) | K::Arrow(..) => {}
    }
}

/// Two's complement wrapping of `x` into the range of integer type `t`.
fn wrap(t: PrimType, x: i128) -> i128 {
    let bits = 8 * t.byte_size() as u32;
    let m = x & ((1i128 << bits) - 1);
    if t.is_signed_integer() && m >= (1i128 << (bits - 1)) {
        m - (1i128 << bits)
    } else {
        m
    }
}

/// The builtin binary operators.
pub(crate) fn builtin_op(name: &str) -> Option<Result<BinOp, CmpOp>> {
    Some(match name {
        "+" => Ok(BinOp::Add),
        "-" => Ok(BinOp::Sub),
        "*" => Ok(BinOp::Mul),
        "/" => Ok(BinOp::Div),
        "%" => Ok(BinOp::Mod),
        "//" => Ok(BinOp::Quot),
        "%%" => Ok(BinOp::Rem),
        "**" => Ok(BinOp::Pow),
        "&" | "&&" => Ok(BinOp::And),
        "|" | "||" => Ok(BinOp::Or),
        "^" => Ok(BinOp::Xor),
        "<<" => Ok(BinOp::Shl),
        ">>" => Ok(BinOp::Shr),
        ">>>" => Ok(BinOp::UShr),
        "==" => Err(CmpOp::Eq),
        "!=" => Err(CmpOp::Ne),
        "<" => Err(CmpOp::Lt),
        "<=" => Err(CmpOp::Le),
        ">" => Err(CmpOp::Gt),
        ">=" => Err(CmpOp::Ge),
        _ => return None,
    })
}

impl Cx {
    /// Sets the span of the statements emitted for `e`.
    fn at(&mut self, span: syntax::Span) -> ir::Span {
        std::mem::replace(&mut self.fb.span, ir_span(span))
    }

    /// Internalises an expression.
    pub(crate) fn expr(&mut self, e: &Expr, env: &Env) -> IResult<V> {
        let saved = self.at(e.span);
        let r = self.expr_inner(e, env);
        self.fb.span = saved;
        r
    }

    /// Internalises an expression that must be a scalar.
    pub(crate) fn scalar(&mut self, e: &Expr, env: &Env) -> IResult<Operand> {
        self.expr(e, env)?
            .scalar()
            .ok_or_else(|| InternaliseError::at("expected a primitive value", e.span))
    }

    fn expr_inner(&mut self, e: &Expr, env: &Env) -> IResult<V> {
        let span = e.span;
        match &e.kind {
            ExprKind::Literal(Literal::String(bytes)) => {
                let ops: Vec<V> = bytes
                    .iter()
                    .map(|b| V::Leaf(Operand::Const(PrimValue::U8(*b))))
                    .collect();
                self.array_lit(ops, Some(&T::Prim(PrimType::U8)), span)
            }
            ExprKind::Literal(l) => Ok(V::Leaf(Operand::Const(literal_const(l, span)?))),
            ExprKind::Var(q) => {
                let v = self.lookup(q, env)?;
                // A function with size parameters passed as a value (`map
                // split xs`) takes the sizes the checker inferred here, and
                // so does a definition with size parameters only (`def iiota
                // [n] : [n]i64`), which `force` then evaluates.
                let v = self.with_size_args(v, &[e], env);
                let v = self.force(v, span)?;
                Ok(self.with_size_args(v, &[e], env))
            }
            ExprKind::Parens(x) => self.expr(x, env),
            ExprKind::Attr(a, x) => {
                // The statements of `x` carry the attribute, those of
                // functions specialised for calls in `x` do not.
                let depth = self.fb.attrs.len();
                for at in ir_attrs(std::slice::from_ref(a)) {
                    if !self.fb.attrs.contains(&at) {
                        self.fb.attrs.push(at);
                    }
                }
                let r = self.expr(x, env);
                self.fb.attrs.truncate(depth);
                r
            }
            ExprKind::QualParens(q, x) => {
                let ModVal::Struct(m) = self.resolve_module(q, env)? else {
                    return Err(InternaliseError::at("cannot open a functor", span));
                };
                self.expr(x, &env.open(m))
            }
            ExprKind::Tuple(es) => Ok(V::Tuple(
                es.iter()
                    .map(|x| self.expr(x, env))
                    .collect::<IResult<_>>()?,
            )),
            ExprKind::Record(fields) => {
                let mut fs = Vec::new();
                for f in fields {
                    let (n, v) = match f {
                        RecordField::Explicit(n, x) => (n.name.clone(), self.expr(x, env)?),
                        RecordField::Pun(n) => {
                            let q = QualName {
                                quals: Vec::new(),
                                name: n.clone(),
                            };
                            let v = self.lookup(&q, env)?;
                            (n.name.clone(), self.force(v, span)?)
                        }
                    };
                    fs.retain(|(m, _): &(ast::Name, V)| *m != n);
                    fs.push((n, v));
                }
                fs.sort_by(|a, b| a.0.cmp(&b.0));
                Ok(V::Record(fs))
            }
            ExprKind::ArrayLit(es) => {
                if es.is_empty() {
                    // The element type the checker recorded: built from
                    // primitive types only, so no environment is needed.
                    let Some(te) = self.empty_array_types.get(&(span.file, e.id)).cloned() else {
                        return Err(InternaliseError::unsupported(
                            "an empty array literal whose element type is not known statically",
                            span,
                        ));
                    };
                    let elem = self.type_template(&te, &Env::default())?;
                    let arr = match elem {
                        T::Arr(r, e) => T::Arr(r + 1, e),
                        e => T::Arr(1, Box::new(e)),
                    };
                    let mut dims = vec![Size::Const(0)];
                    const_dims(&te, &mut dims);
                    return self.blank(&arr, &[], &mut dims.into_iter(), span);
                }
                let vs = es
                    .iter()
                    .map(|x| self.expr(x, env))
                    .collect::<IResult<Vec<_>>>()?;
                self.array_lit(vs, None, span)
            }
            ExprKind::Range {
                start,
                second,
                end_kind,
                end,
            } => {
                let a = self.scalar(start, env)?;
                let s = match second {
                    Some(x) => Some(self.scalar(x, env)?),
                    None => None,
                };
                let b = self.scalar(end, env)?;
                self.range(a, s, *end_kind, b, span)
            }
            ExprKind::Project(x, field) => {
                let v = self.expr(x, env)?;
                project(v, &[field])
            }
            ExprKind::BinOp(op, l, r) => self.binop_expr(e, op, l, r, env),
            ExprKind::Neg(x) => {
                let o = self.scalar(x, env)?;
                if let Operand::Const(c) = o {
                    if let Some(i) = c.as_i128()
                        && !c.prim_type().is_float()
                        && let Some(n) = PrimValue::int_of_type(c.prim_type(), -i)
                    {
                        return Ok(V::Leaf(Operand::Const(n)));
                    }
                    if let Some(f) = c.as_f64()
                        && c.prim_type().is_float()
                        && let Some(n) = PrimValue::float_of_type(c.prim_type(), -f)
                    {
                        return Ok(V::Leaf(Operand::Const(n)));
                    }
                }
                Ok(V::Leaf(self.fb.scalar("neg", Exp::UnOp(UnOp::Neg, o))?))
            }
            ExprKind::Not(x) => {
                let o = self.scalar(x, env)?;
                Ok(V::Leaf(self.fb.scalar("not", Exp::UnOp(UnOp::Not, o))?))
            }
            ExprKind::OpSection(q) => self.operator(q, env),
            ExprKind::OpSectionLeft(q, x) => {
                let f = self.operator(q, env)?;
                let xv = self.expr(x, env)?;
                self.apply(f, vec![xv], span)
            }
            ExprKind::OpSectionRight(q, y) => {
                let f = self.operator(q, env)?;
                let yv = self.expr(y, env)?;
                Ok(V::Fun(Rc::new(Closure::Flip { f, y: yv })))
            }
            ExprKind::ProjectSection(fields) => Ok(V::Fun(Rc::new(Closure::Project(
                fields.iter().map(|f| f.name.clone()).collect(),
            )))),
            ExprKind::IndexSection(idx) => {
                let idx = self.indices(idx, env)?;
                Ok(V::Fun(Rc::new(Closure::Index(idx))))
            }
            ExprKind::PathSection(path) => {
                let path = self.path(path, env)?;
                Ok(V::Fun(Rc::new(Closure::Path(path))))
            }
            ExprKind::Apply(f, args) => {
                let fv = self.expr(f, env)?;
                let fv = self.with_size_args(fv, &[e, f], env);
                let avs = args
                    .iter()
                    .map(|a| self.expr(a, env))
                    .collect::<IResult<Vec<_>>>()?;
                self.apply(fv, avs, span)
            }
            ExprKind::Constructor(name, args) => {
                let vs = args
                    .iter()
                    .map(|a| self.expr(a, env))
                    .collect::<IResult<Vec<_>>>()?;
                Ok(self.constructor(&name.name, vs))
            }
            ExprKind::If(c, t, f) => {
                let cond = self.scalar(c, env)?;
                // An empty array literal or a hole in one branch takes the
                // shape of the other, internalised first.
                let (cond, t, f) = if takes_other_shape(t) && !takes_other_shape(f) {
                    let nc = self.fb.scalar("not", Exp::UnOp(UnOp::Not, cond))?;
                    (nc, &**f, &**t)
                } else {
                    (cond, &**t, &**f)
                };
                let else_ = |cx: &mut Cx| {
                    let shape = cx.then_shape.take();
                    match shape {
                        Some(s) if is_empty_lit(f) => cx.empty_of(&s, f.span),
                        Some(s) if is_hole(f) => cx.hole(&s, f.span),
                        _ => cx.expr(f, env),
                    }
                };
                self.if_(cond, |cx| cx.expr(t, env), else_, span)
            }
            ExprKind::Let {
                sizes,
                pat,
                value,
                body,
            } => {
                let v = self.expr(value, env)?;
                let v = self.widen_to_pat(v, pat, env)?;
                let names: Vec<ast::Name> = sizes.iter().map(|s| s.name.clone()).collect();
                let mut sz = Sizes::new(names.clone());
                let mut env2 = self.bind_pat(pat, v.clone(), env.clone(), &mut sz)?;
                if names.len() == 1
                    && !sz.is_bound(&names[0])
                    && let V::Arr(ds, _) = &v
                {
                    sz.bind(names[0].clone(), V::Leaf(size_operand(ds[0])));
                }
                env2 = sz.bind_all(env2);
                self.expr(body, &env2)
            }
            ExprKind::LetFun {
                name,
                type_params,
                params,
                value,
                body,
                ..
            } => {
                let v = if params.is_empty() {
                    self.expr(value, env)?
                } else {
                    let def = FunDef::new(
                        Some(name.name.clone()),
                        type_params,
                        params.clone(),
                        (**value).clone(),
                    );
                    // The definition's own text: parameters, types and body.
                    let text = syntax::Span {
                        end: value.span.end,
                        ..span
                    };
                    let captures = self.captures(env, text);
                    V::Fun(Rc::new(Closure::Def {
                        def: Rc::new(def),
                        env: env.clone(),
                        top: false,
                        captures,
                    }))
                };
                self.expr(body, &env.bind(name.name.clone(), v))
            }
            ExprKind::LetWith {
                dest,
                indices,
                value,
                body,
            } => {
                let idx = self.indices(indices, env)?;
                let x = self.expr(value, env)?;
                let q = QualName {
                    quals: Vec::new(),
                    name: dest.clone(),
                };
                let target = self.lookup(&q, env)?;
                let new = self.update(&target, &idx, &x, span)?;
                self.expr(body, &env.bind(dest.name.clone(), new))
            }
            ExprKind::Update {
                target,
                indices,
                value,
            } => {
                let idx = self.indices(indices, env)?;
                let x = self.expr(value, env)?;
                let t = self.expr(target, env)?;
                self.update(&t, &idx, &x, span)
            }
            ExprKind::UpdatePath {
                target,
                path,
                value,
            } => {
                let path = self.path(path, env)?;
                let x = self.expr(value, env)?;
                let t = self.expr(target, env)?;
                self.update_path(t, &path, x, span)
            }
            ExprKind::RecordUpdate {
                target,
                fields,
                value,
            } => {
                let x = self.expr(value, env)?;
                let t = self.expr(target, env)?;
                record_update(t, fields, x, span)
            }
            ExprKind::Lambda { params, body, .. } => {
                let def = FunDef::new(None, &[], params.clone(), (**body).clone());
                let captures = self.captures(env, span);
                Ok(V::Fun(Rc::new(Closure::Def {
                    def: Rc::new(def),
                    env: env.clone(),
                    top: false,
                    captures,
                })))
            }
            ExprKind::Loop {
                pat,
                init,
                form,
                body,
            } => self.loop_(pat, init.as_deref(), form, body, env, span),
            ExprKind::Match(scrut, cases) => {
                let v = self.expr(scrut, env)?;
                self.match_(&v, cases, env, span)
            }
            ExprKind::Ascribe(x, t) | ExprKind::Coerce(x, t) => {
                if let ExprKind::ArrayLit(es) = &strip(x).kind
                    && es.is_empty()
                {
                    let tmpl = self.type_template(t, env)?;
                    return self.empty_of(&tmpl, span);
                }
                let v = self.expr(x, env)?;
                let v = self.widen_to_type(v, t, env)?;
                self.coerce(v, t, env, x, span)
            }
            ExprKind::Index(x, idx) => {
                let v = self.expr(x, env)?;
                let idx = self.indices(idx, env)?;
                self.index(&v, &idx, span)
            }
            ExprKind::Assert(c, x) => {
                let cond = self.scalar(c, env)?;
                let msg = self.source_text(c);
                self.fb.push(
                    Vec::new(),
                    Exp::Assert {
                        cond,
                        msg,
                        args: Vec::new(),
                    },
                );
                self.expr(x, env)
            }
            ExprKind::Hole => Err(InternaliseError::unsupported("holes (???)", span)),
        }
    }

    /// The source text of an expression.
    fn source_text(&self, e: &Expr) -> String {
        if let ExprKind::Parens(inner) = &e.kind {
            return self.source_text(inner);
        }
        self.sources
            .get(&e.span.file)
            .and_then(|s| s.get(e.span.start as usize..e.span.end as usize))
            .map(str::to_string)
            .unwrap_or_else(|| "assertion".to_string())
    }

    /// Evaluates a module-level constant when it is referred to.
    pub(crate) fn force(&mut self, v: V, span: syntax::Span) -> IResult<V> {
        if let V::Fun(c) = &v
            && let Closure::Partial { f, args, sizes } = &**c
            && args.is_empty()
            && matches!(&**f, Closure::Def { def, .. } if def.params.is_empty())
        {
            let (f, sizes) = (f.clone(), sizes.clone());
            return self.call(&f, Vec::new(), &sizes, span);
        }
        if let V::Fun(c) = &v
            && let Closure::Def { def, env, .. } = &**c
            && def.params.is_empty()
        {
            let (def, env) = (def.clone(), env.clone());
            self.enter(span)?;
            let r = self.expr(&def.body, &env);
            self.depth -= 1;
            return r;
        }
        if let V::Fun(c) = &v
            && let Closure::Intrinsic { name, arity: 0 } = &**c
        {
            return Err(InternaliseError::unsupported(
                format!("the intrinsic constant {name}"),
                span,
            ));
        }
        Ok(v)
    }

    /// Resolves `a.b.c`: a member of the module `a` where `a` names a
    /// module that has it (values and modules have namespaces of their own,
    /// so a value `a` does not hide the module), record projection off the
    /// value `a` otherwise. A module's member itself is returned unforced
    /// ([`Self::force`]).
    pub(crate) fn lookup(&mut self, q: &QualName, env: &Env) -> IResult<V> {
        let unknown =
            |n: &ast::Ident| InternaliseError::at(format!("unknown name {}", n.name), n.span);
        if q.quals.is_empty() {
            return env.val(&q.name.name).ok_or_else(|| unknown(&q.name));
        }
        let first = &q.quals[0];
        let rest: Vec<&ast::Ident> = q.quals[1..]
            .iter()
            .chain(std::iter::once(&q.name))
            .collect();
        if let Some(mut m) = env.module(&first.name) {
            for (k, n) in rest.iter().enumerate() {
                let ModVal::Struct(s) = &m else {
                    return Err(InternaliseError::at("a functor has no members", q.span()));
                };
                if let Some(sub) = s.mods.get(&n.name)
                    && k + 1 < rest.len()
                {
                    m = sub.clone();
                    continue;
                }
                if let Some(v) = s.vals.get(&n.name).cloned() {
                    if k + 1 == rest.len() {
                        // The member itself: the caller forces it, after
                        // giving a size-only definition its sizes.
                        return Ok(v);
                    }
                    let v = self.force(v, q.span())?;
                    return project(v, &rest[k + 1..]);
                }
                break;
            }
        }
        let v = env.val(&first.name).ok_or_else(|| unknown(first))?;
        let v = self.force(v, q.span())?;
        project(v, &rest)
    }

    /// The function an operator name stands for.
    fn operator(&mut self, q: &QualName, env: &Env) -> IResult<V> {
        if !q.quals.is_empty() {
            let v = self.lookup(q, env)?;
            return self.force(v, q.span());
        }
        if let Some(v) = env.val(&q.name.name) {
            return self.force(v, q.span());
        }
        if builtin_op(&q.name.name).is_some() {
            return Ok(V::Fun(Rc::new(Closure::Op(q.name.name.clone()))));
        }
        Err(InternaliseError::at(
            format!("unknown operator {}", q.name.name),
            q.span(),
        ))
    }

    fn binop_expr(&mut self, e: &Expr, op: &QualName, l: &Expr, r: &Expr, env: &Env) -> IResult<V> {
        let span = e.span;
        let user = if !op.quals.is_empty() || env.val(&op.name.name).is_some() {
            Some(self.operator(op, env)?)
        } else {
            None
        };
        if let Some(f) = user {
            let f = self.with_size_args(f, &[e], env);
            let lv = self.expr(l, env)?;
            let rv = self.expr(r, env)?;
            return self.apply(f, vec![lv, rv], span);
        }
        let name = &*op.name.name;
        let lv = self.expr(l, env)?;
        if name == "&&" || name == "||" {
            let a = lv
                .scalar()
                .ok_or_else(|| InternaliseError::at("expected a boolean", l.span))?;
            let short = V::Leaf(Operand::Const(PrimValue::Bool(name == "||")));
            return if name == "&&" {
                self.if_(a, |cx| cx.expr(r, env), |_| Ok(short), span)
            } else {
                self.if_(a, |_| Ok(short), |cx| cx.expr(r, env), span)
            };
        }
        let rv = self.expr(r, env)?;
        self.builtin_binop(name, &lv, &rv, span)
    }

    /// A builtin operator on two values.
    pub(crate) fn builtin_binop(
        &mut self,
        name: &str,
        a: &V,
        b: &V,
        span: syntax::Span,
    ) -> IResult<V> {
        let Some(op) = builtin_op(name) else {
            return Err(InternaliseError::at(
                format!("unknown operator {name}"),
                span,
            ));
        };
        match (a, b, op) {
            (V::Leaf(x), V::Leaf(y), Ok(op)) => {
                Ok(V::Leaf(self.fb.scalar("r", Exp::BinOp(op, *x, *y))?))
            }
            (V::Leaf(x), V::Leaf(y), Err(op)) => {
                Ok(V::Leaf(self.fb.scalar("c", Exp::Cmp(op, *x, *y))?))
            }
            (_, _, Err(op @ (CmpOp::Eq | CmpOp::Ne))) => Ok(V::Leaf(if op == CmpOp::Eq {
                self.equal(a, b, span)?
            } else {
                self.not_equal(a, b, span)?
            })),
            _ => Err(InternaliseError::unsupported(
                format!("the operator {name} on arrays"),
                span,
            )),
        }
    }

    /// Evaluates index expressions.
    pub(crate) fn indices(&mut self, idx: &[DimIndex], env: &Env) -> IResult<Vec<Idx>> {
        let mut out = Vec::new();
        for d in idx {
            out.push(match d {
                DimIndex::Fix(x) => Idx::Fix(self.scalar(x, env)?),
                DimIndex::Slice { start, end, stride } => {
                    let mut opt = |x: &Option<Expr>| -> IResult<Option<Operand>> {
                        match x {
                            Some(x) => Ok(Some(self.scalar(x, env)?)),
                            None => Ok(None),
                        }
                    };
                    Idx::Slice {
                        start: opt(start)?,
                        end: opt(end)?,
                        stride: opt(stride)?,
                    }
                }
            });
        }
        Ok(out)
    }

    /// `if cond then t else f`: both branches' values cross as their
    /// dimensions and leaves.
    pub(crate) fn if_(
        &mut self,
        cond: Operand,
        t: impl FnOnce(&mut Cx) -> IResult<V>,
        f: impl FnOnce(&mut Cx) -> IResult<V>,
        span: syntax::Span,
    ) -> IResult<V> {
        self.fb.begin();
        let vt = match t(self) {
            Ok(v) => v,
            Err(e) => {
                self.fb.end(Vec::new());
                return Err(e);
            }
        };
        let then_stms = self.fb.end(Vec::new()).stms;
        self.then_shape = Some(vt.shape(&self.fb));
        self.fb.begin();
        let vf = match f(self) {
            Ok(v) => v,
            Err(e) => {
                self.fb.end(Vec::new());
                return Err(e);
            }
        };
        let else_stms = self.fb.end(Vec::new()).stms;
        let (st, sf) = (vt.shape(&self.fb), vf.shape(&self.fb));
        let Some(shape) = T::join(&st, &sf) else {
            return Err(InternaliseError::unsupported(
                "branches whose values differ in shape (functions or ranks)",
                span,
            ));
        };
        // Sums are widened to the constructors of both branches; a payload
        // only the other branch has is blank, with that branch's dimensions
        // where they are known outside it (`if c then #some (replicate 2 x)
        // else #none` makes arrays of two elements in both).
        let visible = |v: &V, stms: &[ir::Stm]| {
            let bound: std::collections::HashSet<ir::VarId> =
                stms.iter().flat_map(|s| s.pat.iter().copied()).collect();
            v.map_dims(&|d| match d {
                Size::Var(x) if bound.contains(&x) => Size::Const(0),
                d => d,
            })
        };
        let (donor_t, donor_f) = (visible(&vt, &then_stms), visible(&vf, &else_stms));
        self.fb.reopen(then_stms);
        let vt = self.widen_like(vt, &shape, &[&donor_f], span);
        let then_body = self.fb.end(vt.as_ref().map(V::flat).unwrap_or_default());
        self.fb.reopen(else_stms);
        let vf = self.widen_like(vf, &shape, &[&donor_t], span);
        let else_body = self.fb.end(vf.as_ref().map(V::flat).unwrap_or_default());
        let known = same_dims(&vt?, &vf?, &then_body, &else_body);
        let (v, pat) =
            shape.instantiate_known(&mut self.fb, "b", &known, &mut |fb, n, t| fb.var(n, t));
        self.fb.push(
            pat,
            Exp::If {
                cond,
                then_body,
                else_body,
            },
        );
        Ok(v)
    }

    /// An array literal of the values `vs` (all of one shape).
    pub(crate) fn array_lit(
        &mut self,
        vs: Vec<V>,
        elem: Option<&T>,
        span: syntax::Span,
    ) -> IResult<V> {
        let k = vs.len() as i64;
        // Elements of a sum type take the constructors of all elements.
        let mut joined = vs.first().map(|v| v.shape(&self.fb));
        for v in vs.iter().skip(1) {
            let s = v.shape(&self.fb);
            joined = joined.and_then(|j| T::join(&j, &s));
        }
        let vs = match joined {
            Some(j) if vs.len() > 1 => {
                let all = vs.clone();
                let others: Vec<&V> = all.iter().collect();
                vs.into_iter()
                    .map(|v| self.widen_like(v, &j, &others, span))
                    .collect::<IResult<Vec<_>>>()?
            }
            _ => vs,
        };
        let Some(first) = vs.first() else {
            let t = elem.ok_or_else(|| {
                InternaliseError::unsupported("an empty array literal without a type", span)
            })?;
            let arr = match t {
                T::Arr(r, e) => T::Arr(r + 1, e.clone()),
                t => T::Arr(1, Box::new(t.clone())),
            };
            return self.empty_of(&arr, span);
        };
        if first.has_fun() {
            return Err(InternaliseError::at("an array of functions", span));
        }
        let leaves0 = first.leaf_list();
        let mut news = Vec::new();
        for (j, l) in leaves0.iter().enumerate() {
            let t = self.fb.op_ty(l);
            let mut shape = vec![Size::Const(k)];
            shape.extend(t.shape.iter().copied());
            let mut acc = self.fb.bind1(
                "arr",
                Exp::Scratch {
                    elem: t.elem,
                    shape,
                },
            )?;
            for (i, v) in vs.iter().enumerate() {
                let x =
                    v.leaf_list().get(j).copied().ok_or_else(|| {
                        InternaliseError::at("array elements differ in shape", span)
                    })?;
                acc = self.fb.bind1(
                    "arr",
                    Exp::Update(acc, vec![ir::DimIndex::Fix(i64c(i as i64))], x),
                )?;
            }
            news.push(Operand::Var(acc));
        }
        Ok(wrap_arr(
            vec![Size::Const(k)],
            first.with_leaves(&mut news.into_iter()),
        ))
    }

    /// A blank value of shape `t` inside arrays of dimensions `outer`
    /// (every dimension of its own arrays 0).
    pub(crate) fn empty_value(&mut self, t: &T, outer: &[Size], span: syntax::Span) -> IResult<V> {
        let mut di = vec![Size::Const(0); t.num_dims()].into_iter();
        self.blank(t, outer, &mut di, span)
    }

    /// A value of shape `t` whose arrays have the dimensions `dims` (in the
    /// order of [`V::dims`]) and hold zeros or nothing.
    pub(crate) fn blank_with_dims(
        &mut self,
        t: &T,
        dims: Vec<Size>,
        span: syntax::Span,
    ) -> IResult<V> {
        let mut di = dims.into_iter();
        self.blank(t, &[], &mut di, span)
    }

    /// An empty array of shape `t` (an array template; every dimension 0).
    /// A hole `???` of shape `t`: an assertion that fails when it is
    /// reached, and then a value of that shape (empty arrays and zeros).
    fn hole(&mut self, t: &T, span: syntax::Span) -> IResult<V> {
        let saved = self.at(span);
        let msg = "Reached a hole (???).".to_string();
        self.fb.push(
            Vec::new(),
            Exp::Assert {
                cond: Operand::Const(PrimValue::Bool(false)),
                msg,
                args: Vec::new(),
            },
        );
        let r = self.empty_of(t, span);
        self.fb.span = saved;
        r
    }

    /// A value of shape `t` whose arrays are empty and scalars zero.
    pub(crate) fn empty_of(&mut self, t: &T, span: syntax::Span) -> IResult<V> {
        let n = t.num_dims();
        let dims = vec![Size::Const(0); n];
        let mut di = dims.into_iter();
        self.blank(t, &[], &mut di, span)
    }

    fn blank(
        &mut self,
        t: &T,
        outer: &[Size],
        dims: &mut dyn Iterator<Item = Size>,
        span: syntax::Span,
    ) -> IResult<V> {
        Ok(match t {
            T::Prim(p) => {
                if outer.is_empty() {
                    V::Leaf(Operand::Const(zero(*p)))
                } else {
                    V::Leaf(Operand::Var(self.fb.bind1(
                        "empty",
                        Exp::Scratch {
                            elem: *p,
                            shape: outer.to_vec(),
                        },
                    )?))
                }
            }
            T::Tuple(ts) => V::Tuple(
                ts.iter()
                    .map(|t| self.blank(t, outer, dims, span))
                    .collect::<IResult<_>>()?,
            ),
            T::Record(fs) => V::Record(
                fs.iter()
                    .map(|(n, t)| Ok((n.clone(), self.blank(t, outer, dims, span)?)))
                    .collect::<IResult<_>>()?,
            ),
            T::Arr(r, e) => {
                let ds: Vec<Size> = (0..*r)
                    .map(|_| dims.next().unwrap_or(Size::Const(0)))
                    .collect();
                let mut all = outer.to_vec();
                all.extend(ds.iter().copied());
                let ev = self.blank(e, &all, dims, span)?;
                V::Arr(ds, Box::new(ev))
            }
            T::Fun(_) => return Err(InternaliseError::at("an array of functions", span)),
            T::Sum(cs) => {
                let tag = self.blank(&T::Prim(PrimType::I64), outer, dims, span)?;
                let mut out = Vec::new();
                for (n, ts) in cs {
                    let p = ts
                        .iter()
                        .map(|t| self.blank(t, outer, dims, span))
                        .collect::<IResult<_>>()?;
                    out.push((n.clone(), p));
                }
                V::Sum(Box::new(tag), out)
            }
        })
    }

    /// A range `a..s..b`.
    fn range(
        &mut self,
        a: Operand,
        s: Option<Operand>,
        kind: ast::RangeEnd,
        b: Operand,
        span: syntax::Span,
    ) -> IResult<V> {
        let t = self.fb.op_ty(&a).elem;
        let one = PrimValue::int_of_type(t, 1)
            .ok_or_else(|| InternaliseError::at("a range of a non-integer type", span))?;
        let step = match (s, kind) {
            (Some(s), _) => self.fb.scalar("step", Exp::BinOp(BinOp::Sub, s, a))?,
            (None, ast::RangeEnd::DownToExclusive) => {
                let m = PrimValue::int_of_type(t, -1).unwrap_or(one);
                Operand::Const(m)
            }
            (None, _) => Operand::Const(one),
        };
        let a64 = self.as_i64(a)?;
        let b64 = self.as_i64(b)?;
        let s64 = self.as_i64(step)?;
        let d = self.fb.scalar("d", Exp::BinOp(BinOp::Sub, b64, a64))?;
        // The reference interpreter's validity rule: the step goes towards
        // the end, and an exclusive end lies on the step's side.
        let zero = i64c(0);
        let valid = match kind {
            ast::RangeEnd::Inclusive => {
                let sg = self.fb.scalar("sg", Exp::UnOp(UnOp::Signum, s64))?;
                let nz = self.fb.scalar("ok", Exp::Cmp(CmpOp::Ne, s64, zero))?;
                let dir = self.fb.scalar("dir", Exp::BinOp(BinOp::Mul, d, sg))?;
                let fw = self.fb.scalar("ok", Exp::Cmp(CmpOp::Ge, dir, zero))?;
                self.fb.scalar("ok", Exp::BinOp(BinOp::And, nz, fw))?
            }
            ast::RangeEnd::UpToExclusive => {
                let up = self.fb.scalar("ok", Exp::Cmp(CmpOp::Gt, s64, zero))?;
                let fw = self.fb.scalar("ok", Exp::Cmp(CmpOp::Ge, d, zero))?;
                self.fb.scalar("ok", Exp::BinOp(BinOp::And, up, fw))?
            }
            ast::RangeEnd::DownToExclusive => {
                let down = self.fb.scalar("ok", Exp::Cmp(CmpOp::Lt, s64, zero))?;
                let fw = self.fb.scalar("ok", Exp::Cmp(CmpOp::Le, d, zero))?;
                self.fb.scalar("ok", Exp::BinOp(BinOp::And, down, fw))?
            }
        };
        // The reference interpreter's message, with the values of the
        // bounds: `Invalid range: 1..0...5.`.
        let op = match kind {
            ast::RangeEnd::Inclusive => "...",
            ast::RangeEnd::UpToExclusive => "..<",
            ast::RangeEnd::DownToExclusive => "..>",
        };
        let (msg, args) = match s {
            Some(s) => (format!("Invalid range: {{}}..{{}}{op}{{}}."), vec![a, s, b]),
            None => (format!("Invalid range: {{}}{op}{{}}."), vec![a, b]),
        };
        self.fb.push(
            Vec::new(),
            Exp::Assert {
                cond: valid,
                msg,
                args,
            },
        );
        let n = match kind {
            ast::RangeEnd::Inclusive => {
                let q = self.fb.scalar("q", Exp::BinOp(BinOp::Quot, d, s64))?;
                self.fb.scalar("n", Exp::BinOp(BinOp::Add, q, i64c(1)))?
            }
            ast::RangeEnd::UpToExclusive | ast::RangeEnd::DownToExclusive => {
                let sg = self.fb.scalar("sg", Exp::UnOp(UnOp::Signum, s64))?;
                let x = self.fb.scalar("x", Exp::BinOp(BinOp::Add, d, s64))?;
                let y = self.fb.scalar("y", Exp::BinOp(BinOp::Sub, x, sg))?;
                self.fb.scalar("n", Exp::BinOp(BinOp::Quot, y, s64))?
            }
        };
        let n = self.fb.scalar("n", Exp::BinOp(BinOp::Max, n, i64c(0)))?;
        let v = self.fb.bind1("range", Exp::Iota { n, start: a, step })?;
        Ok(V::Arr(
            vec![n.to_size()],
            Box::new(V::Leaf(Operand::Var(v))),
        ))
    }

    /// `loop pat = init for/while … do body`.
    fn loop_(
        &mut self,
        pat: &ast::Pat,
        init: Option<&Expr>,
        form: &ast::LoopForm,
        body: &Expr,
        env: &Env,
        span: syntax::Span,
    ) -> IResult<V> {
        let init_v = match init {
            Some(e) => self.expr(e, env)?,
            None => self.pattern_value(pat, env)?,
        };
        let init_v = self.widen_to_pat(init_v, pat, env)?;
        if init_v.has_fun() {
            return Err(InternaliseError::at("a loop over functions", span));
        }
        let shape = init_v.shape(&self.fb);
        let inits = init_v.flat();
        let (form_ir, bound_form) = match form {
            ast::LoopForm::For(i, n) => {
                let bound = self.scalar(n, env)?;
                (Some((i.name.clone(), bound)), None)
            }
            ast::LoopForm::ForIn(p, xs) => {
                let xv = self.expr(xs, env)?;
                let V::Arr(ds, _) = &xv else {
                    return Err(InternaliseError::at("for-in needs an array", xs.span));
                };
                let n = size_operand(ds[0]);
                (None, Some((p, xv.clone(), n)))
            }
            ast::LoopForm::While(_) => (None, None),
        };
        let while_cond = match form {
            ast::LoopForm::While(c) => {
                let mut sz = Sizes::new(Vec::new());
                let env1 = self.bind_pat(pat, init_v.clone(), env.clone(), &mut sz)?;
                Some((c, self.scalar(c, &env1)?))
            }
            _ => None,
        };
        self.fb.begin_scope();
        let mut params = Vec::new();
        let cond_param = while_cond
            .as_ref()
            .map(|_| self.fb.param("cond", sc(PrimType::Bool), false));
        let (pv, vars) = shape.instantiate(&mut self.fb, "acc", &mut |fb, n, t| {
            let unique = !t.shape.is_empty();
            let p = fb.param(n, t, unique);
            p.var
        });
        for v in &vars {
            let unique = !self.fb.ty(*v).shape.is_empty();
            params.push(ir::Param { var: *v, unique });
        }
        let mut sz = Sizes::new(Vec::new());
        let mut benv = self.bind_pat(pat, pv, env.clone(), &mut sz)?;
        let form_out;
        match (&form_ir, &bound_form) {
            (Some((iname, bound)), _) => {
                let it = self.fb.op_ty(bound).elem;
                let i = self.fb.var(iname, sc(it));
                benv = benv.bind(iname.clone(), V::Leaf(Operand::Var(i)));
                form_out = IrLoopForm::For { i, bound: *bound };
            }
            (None, Some((p, xv, n))) => {
                let i = self.fb.var("i", sc(PrimType::I64));
                let row = self.index(xv, &[Idx::Fix(Operand::Var(i))], span)?;
                let mut sz2 = Sizes::new(Vec::new());
                benv = self.bind_pat(p, row, benv, &mut sz2)?;
                form_out = IrLoopForm::For { i, bound: *n };
            }
            _ => {
                let c = cond_param.map(|p| p.var).unwrap_or(vars[0]);
                form_out = IrLoopForm::While { cond: c };
            }
        }
        let r = self.expr(body, &benv);
        let bv = match r {
            Ok(v) => v,
            Err(e) => {
                self.fb.end_scope(Vec::new());
                return Err(e);
            }
        };
        let mut result = bv.flat();
        if let Some((c, _)) = &while_cond {
            let mut sz = Sizes::new(Vec::new());
            let cenv = match self.bind_pat(pat, bv.clone(), env.clone(), &mut sz) {
                Ok(e) => e,
                Err(e) => {
                    self.fb.end_scope(Vec::new());
                    return Err(e);
                }
            };
            let c2 = match self.scalar(c, &cenv) {
                Ok(c) => c,
                Err(e) => {
                    self.fb.end_scope(Vec::new());
                    return Err(e);
                }
            };
            result.insert(0, c2);
        }
        let lbody = self.fb.end_scope(result);
        // Array parameters the body consumes are unique, and their initial
        // values are consumed (copied first where they may not be); the
        // others are not, and leave their initial values intact.
        let consumed = self.consumed_roots(&lbody);
        for p in params.iter_mut() {
            p.unique = p.unique && consumed.contains(&p.var);
        }
        let uniq: Vec<bool> = params.iter().map(|p| p.unique).collect();
        let mut inits_out = Vec::new();
        for (k, (&unique, o)) in uniq.iter().zip(&inits).enumerate() {
            let o = match *o {
                Operand::Var(v) if unique => {
                    let shared = inits
                        .iter()
                        .enumerate()
                        .any(|(j, o2)| j != k && *o2 == Operand::Var(v));
                    if shared {
                        let name = self.fb.vars.arena()[v].name.clone();
                        Operand::Var(self.fb.bind1(&name, Exp::Copy(v))?)
                    } else {
                        Operand::Var(self.fb.own(v)?)
                    }
                }
                o => o,
            };
            inits_out.push(o);
        }
        let inits = inits_out;
        let mut all_params = Vec::new();
        if let (Some(cp), Some((_, c0))) = (cond_param, &while_cond) {
            all_params.push((cp, *c0));
        }
        all_params.extend(params.into_iter().zip(inits));
        let cond_out = while_cond
            .as_ref()
            .map(|_| self.fb.var("cond_out", sc(PrimType::Bool)));
        let (v, mut pat_vars) =
            shape.instantiate(&mut self.fb, "loop", &mut |fb, n, t| fb.var(n, t));
        // The results of parameters that are not unique may alias the
        // initial values.
        let shared: Vec<ir::VarId> = pat_vars
            .iter()
            .zip(&uniq)
            .filter(|(_, u)| !**u)
            .map(|(v, _)| *v)
            .collect();
        if let Some(c) = cond_out {
            pat_vars.insert(0, c);
        }
        self.fb.push(
            pat_vars,
            Exp::Loop {
                params: all_params,
                form: form_out,
                body: lbody,
            },
        );
        for v in shared {
            self.fb.disown(v);
        }
        Ok(v)
    }

    /// The variables a loop or lambda body consumes, each taken to the
    /// variable it aliases. A call of a function still being built (a
    /// recursive one, whose parameters are not known yet) consumes every
    /// argument.
    fn consumed_roots(&self, body: &ir::Body) -> std::collections::HashSet<ir::VarId> {
        fn unknown_calls(cx: &Cx, b: &ir::Body, out: &mut std::collections::HashSet<ir::VarId>) {
            for s in &b.stms {
                if let Exp::Apply { fun, args } = &s.exp
                    && cx
                        .prog
                        .functions
                        .get(*fun)
                        .is_none_or(|f| f.params.len() != args.len())
                {
                    out.extend(args.iter().filter_map(|a| match a {
                        Operand::Var(v) => Some(*v),
                        Operand::Const(_) => None,
                    }));
                }
                for (_, b) in ir::uses::nested_bodies(&s.exp) {
                    unknown_calls(cx, b, out);
                }
            }
        }
        let mut out = std::collections::HashSet::new();
        for s in &body.stms {
            ir::uses::exp_consumes(&self.prog.functions, self.fb.vars.arena(), &s.exp, &mut out);
        }
        unknown_calls(self, body, &mut out);
        out.into_iter().map(|v| self.fb.alias_root(v)).collect()
    }

    /// The value of the variables of a loop pattern (short form).
    fn pattern_value(&mut self, pat: &ast::Pat, env: &Env) -> IResult<V> {
        use ast::PatKind;
        match &pat.kind {
            PatKind::Id(i) => env.val(&i.name).ok_or_else(|| {
                InternaliseError::at(format!("unknown variable {}", i.name), i.span)
            }),
            PatKind::Tuple(ps) => Ok(V::Tuple(
                ps.iter()
                    .map(|p| self.pattern_value(p, env))
                    .collect::<IResult<_>>()?,
            )),
            PatKind::Record(fs) => {
                let mut out: Vec<(ast::Name, V)> = fs
                    .iter()
                    .map(|(n, p)| Ok((n.name.clone(), self.pattern_value(p, env)?)))
                    .collect::<IResult<_>>()?;
                out.sort_by(|a, b| a.0.cmp(&b.0));
                Ok(V::Record(out))
            }
            PatKind::Ascribed(p, _) | PatKind::Attr(_, p) => self.pattern_value(p, env),
            _ => Err(InternaliseError::at(
                "this pattern cannot be a short-form loop parameter",
                pat.span,
            )),
        }
    }

    /// `match v case … `: nested ifs on the cases' tests.
    fn match_(&mut self, v: &V, cases: &[ast::Case], env: &Env, span: syntax::Span) -> IResult<V> {
        // Cases for a constructor this value cannot have are dropped, so
        // the last case that can match needs no test.
        let cases: Vec<&ast::Case> = cases
            .iter()
            .filter(|c| crate::sums::pat_possible(&c.pat, v))
            .collect();
        self.match_possible(v, &cases, env, span)
    }

    fn match_possible(
        &mut self,
        v: &V,
        cases: &[&ast::Case],
        env: &Env,
        span: syntax::Span,
    ) -> IResult<V> {
        let Some((case, rest)) = cases.split_first() else {
            return Err(InternaliseError::at("no case matches", span));
        };
        if rest.is_empty() {
            let mut sz = Sizes::new(Vec::new());
            let env2 = self.bind_pat(&case.pat, v.clone(), env.clone(), &mut sz)?;
            return self.expr(&case.body, &env2);
        }
        let cond = self.pat_test(&case.pat, v)?;
        self.if_(
            cond,
            |cx| {
                let mut sz = Sizes::new(Vec::new());
                let env2 = cx.bind_pat(&case.pat, v.clone(), env.clone(), &mut sz)?;
                cx.expr(&case.body, &env2)
            },
            |cx| cx.match_possible(v, rest, env, span),
            span,
        )
    }
}

/// Is `e` the literal `[]`?
fn is_empty_lit(e: &Expr) -> bool {
    matches!(&strip(e).kind, ExprKind::ArrayLit(es) if es.is_empty())
}

/// Is `e` a hole `???`?
fn is_hole(e: &Expr) -> bool {
    matches!(strip(e).kind, ExprKind::Hole)
}

/// Does `e`, as a branch of an `if`, take the shape of the other branch?
fn takes_other_shape(e: &Expr) -> bool {
    is_empty_lit(e) || is_hole(e)
}

/// The expression inside parentheses.
fn strip(e: &Expr) -> &Expr {
    match &e.kind {
        ExprKind::Parens(x) => strip(x),
        _ => e,
    }
}

/// `Arr(ds, e)`, merging with an array element.
pub(crate) fn wrap_arr(ds: Vec<Size>, e: V) -> V {
    match e {
        V::Arr(inner, e2) => {
            let mut all = ds;
            all.extend(inner);
            V::Arr(all, e2)
        }
        e => V::Arr(ds, Box::new(e)),
    }
}

/// A zero of a primitive type.
pub(crate) fn zero(t: PrimType) -> PrimValue {
    if t == PrimType::Bool {
        PrimValue::Bool(false)
    } else if t.is_float() {
        PrimValue::float_of_type(t, 0.0).unwrap_or(PrimValue::F64(0.0))
    } else {
        PrimValue::int_of_type(t, 0).unwrap_or(PrimValue::I64(0))
    }
}

/// Projects fields (or tuple components) out of a value.
pub(crate) fn project(mut v: V, fields: &[&ast::Ident]) -> IResult<V> {
    for f in fields {
        v = field(v, &f.name).ok_or_else(|| {
            InternaliseError::at(format!("value has no field {}", f.name), f.span)
        })?;
    }
    Ok(v)
}

/// One field of a record or tuple (of arrays: the array of that field).
pub(crate) fn field(v: V, name: &str) -> Option<V> {
    match v {
        V::Record(fs) => fs.into_iter().find(|(n, _)| &**n == name).map(|(_, v)| v),
        V::Tuple(vs) => {
            let i: usize = name.parse().ok()?;
            vs.into_iter().nth(i)
        }
        _ => None,
    }
}

fn record_update(t: V, fields: &[ast::Ident], v: V, span: syntax::Span) -> IResult<V> {
    let Some((first, rest)) = fields.split_first() else {
        return Ok(v);
    };
    let err = || InternaliseError::at(format!("no field {}", first.name), first.span);
    match t {
        V::Record(mut fs) => {
            let slot = fs
                .iter_mut()
                .find(|(n, _)| *n == first.name)
                .ok_or_else(err)?;
            let old = std::mem::replace(&mut slot.1, V::unit());
            slot.1 = record_update(old, rest, v, span)?;
            Ok(V::Record(fs))
        }
        V::Tuple(mut vs) => {
            let i: usize = first.name.parse().map_err(|_| err())?;
            let slot = vs.get_mut(i).ok_or_else(err)?;
            let old = std::mem::replace(slot, V::unit());
            *slot = record_update(old, rest, v, span)?;
            Ok(V::Tuple(vs))
        }
        _ => Err(InternaliseError::at("record update of a non-record", span)),
    }
}

/// For each dimension of an `if`'s value (in [`V::dims`] order), the size
/// both branches give it when it is the same constant or the same variable
/// bound outside the `if`: the `if`'s value has that size, as the checker
/// says (`if c then replicate n 0 else xss[i]` with `xss : [m][n]i64`), and
/// sizes computed from it (a `map`'s rows when it runs no iteration, a
/// call's result) know it without running a branch.
fn same_dims(vt: &V, vf: &V, then_body: &ir::Body, else_body: &ir::Body) -> Vec<Option<Size>> {
    let (mut dt, mut df) = (Vec::new(), Vec::new());
    vt.dims(&mut dt);
    vf.dims(&mut df);
    if dt.len() != df.len() {
        return Vec::new();
    }
    let mut bound = std::collections::HashSet::new();
    ir::uses::body_binds(then_body, &mut bound);
    ir::uses::body_binds(else_body, &mut bound);
    dt.iter()
        .zip(&df)
        .map(|(a, b)| match (a, b) {
            (Size::Const(x), Size::Const(y)) if x == y => Some(*a),
            (Size::Var(x), Size::Var(y)) if x == y && !bound.contains(x) => Some(*a),
            _ => None,
        })
        .collect()
}
