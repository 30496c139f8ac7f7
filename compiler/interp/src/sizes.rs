//! Run-time size checking: matching type annotations against value shapes.
//!
//! Parameter annotations bind size parameters (`[n]`) from argument shapes; a size
//! that is already known (bound earlier, a variable in scope, a constant, or an
//! expression such as `n * m`) is checked, and a difference is a `Size mismatch`
//! error. Type abbreviations are expanded so that sizes inside them are seen too.
//!
//! Most abbreviations carry no sizes at all (`type v3 = {x: f64, y: f64, z: f64}`):
//! matching against them can neither bind nor check anything. Each abbreviation
//! records, once computed, whether it is such a trivial one, and matching against it
//! then returns at once.

use std::rc::Rc;

use semantic::module_eval::{ModuleEval, module_path};
use syntax::Span;
use syntax::ast::{self, Expr, ExprKind, Literal, Name, PrimType, TypeArg, TypeExp, TypeExpKind};

use crate::env::{Env, ModVal, TypeDef};
use crate::error::{R, rt_err};
use crate::eval::Interp;
use crate::value::Value;

/// Sizes bound and checks pending while matching one set of annotations.
///
/// The binder and type parameter lists are borrowed (from the function definition),
/// so that making a context for a call allocates nothing.
#[derive(Debug, Default)]
pub struct SizeCtx<'a> {
    binders: &'a [Name],
    /// Binders introduced inside the annotations (existential sizes).
    extra_binders: Vec<Name>,
    type_names: &'a [Name],
    bound: Vec<(Name, i64)>,
    deferred: Vec<(Expr, i64, Span)>,
}

impl<'a> SizeCtx<'a> {
    /// A context in which `binders` may be bound from shapes and `type_names` are
    /// type parameters (matching anything).
    pub fn new(binders: &'a [Name], type_names: &'a [Name]) -> SizeCtx<'a> {
        SizeCtx {
            binders,
            extra_binders: Vec::new(),
            type_names,
            bound: Vec::new(),
            deferred: Vec::new(),
        }
    }

    /// Is `n` a size that may be bound from a shape?
    fn is_binder(&self, n: &str) -> bool {
        self.binders.iter().any(|b| &**b == n) || self.extra_binders.iter().any(|b| &**b == n)
    }

    /// Has size `n` been bound?
    pub fn is_bound(&self, n: &str) -> bool {
        self.get(n).is_some()
    }

    /// The value bound to size `n`.
    pub fn get(&self, n: &str) -> Option<i64> {
        self.bound.iter().find(|(m, _)| &**m == n).map(|(_, k)| *k)
    }

    /// Binds size `n`.
    pub fn bind(&mut self, n: Name, k: i64) {
        self.bound.push((n, k));
    }

    /// Adds the bound sizes to an environment as `i64` variables.
    pub fn bind_all(&self, env: Env) -> Env {
        self.bound
            .iter()
            .fold(env, |env, (n, k)| env.bind(n.clone(), Value::i64(*k)))
    }
}

fn mismatch(what: &str, expected: i64, actual: i64, span: Span) -> Box<crate::RuntimeError> {
    rt_err(
        format!(
            "Size mismatch: expected size {expected} for `{what}`, but the value has size {actual}."
        ),
        span,
    )
}

impl Interp {
    /// Matches a type annotation against a value, binding and checking sizes.
    pub fn check_type(&mut self, te: &TypeExp, v: &Value, env: &Env, ctx: &mut SizeCtx) -> R<()> {
        match &te.kind {
            TypeExpKind::Array(size, elem) => {
                let Value::Array(a) = v else {
                    return Ok(());
                };
                if let Some(s) = size {
                    self.check_size(s, a.len() as i64, env, ctx, te.span)?;
                }
                if let Some(ex) = a.example() {
                    self.check_type(elem, &ex, env, ctx)?;
                }
                Ok(())
            }
            TypeExpKind::Tuple(ts) => {
                if let Value::Tuple(vs) = v
                    && vs.len() == ts.len()
                {
                    for (t, x) in ts.iter().zip(vs.iter()) {
                        self.check_type(t, x, env, ctx)?;
                    }
                }
                Ok(())
            }
            TypeExpKind::Record(fs) => {
                for (n, t) in fs {
                    if let Some(x) = v.field(&n.name) {
                        self.check_type(t, &x, env, ctx)?;
                    }
                }
                Ok(())
            }
            TypeExpKind::Unique(t) => self.check_type(t, v, env, ctx),
            TypeExpKind::Existential(names, t) => {
                ctx.extra_binders
                    .extend(names.iter().map(|n| n.name.clone()));
                self.check_type(t, v, env, ctx)
            }
            TypeExpKind::Var(q, args) => self.check_named_type(q, args, v, env, ctx),
            TypeExpKind::Sum(_) | TypeExpKind::Arrow(..) => Ok(()),
        }
    }

    /// The type abbreviation a type name refers to (`None` for a primitive type, a
    /// type parameter in `type_names`, or an unknown name).
    fn named_type(&self, q: &ast::QualName, env: &Env, type_names: &[Name]) -> Option<Rc<TypeDef>> {
        let name = &q.name.name;
        if q.quals.is_empty() {
            if PrimType::from_name(name).is_some() || type_names.iter().any(|t| t == name) {
                return None;
            }
            env.ty(name)
        } else {
            match self.resolve_module(&module_path(q)?, env) {
                Ok(ModVal::Struct(m)) => m.types.get(name).cloned(),
                _ => None,
            }
        }
    }

    /// Is matching against this abbreviation trivial: can it never bind or check a
    /// size? Computed once per abbreviation.
    fn typedef_trivial(&self, td: &TypeDef) -> bool {
        if let Some(t) = td.trivial.get() {
            return t;
        }
        // While computing (abbreviations do not refer to themselves, but be safe),
        // the answer is the conservative one.
        td.trivial.set(Some(false));
        let t = match &td.def {
            None => true,
            Some(def) => {
                let types: Vec<Name> = td
                    .params
                    .iter()
                    .filter_map(|p| match p {
                        ast::TypeParam::Type(i, _) => Some(i.name.clone()),
                        ast::TypeParam::Size(_) => None,
                    })
                    .collect();
                self.type_trivial(def, &td.env, &types)
            }
        };
        td.trivial.set(Some(t));
        t
    }

    /// Is matching a value against `te` (in `env`, with type parameters
    /// `type_names`) sure to bind and check nothing? Mirrors [`Interp::check_type`];
    /// `false` when unsure.
    pub(crate) fn type_trivial(&self, te: &TypeExp, env: &Env, type_names: &[Name]) -> bool {
        match &te.kind {
            TypeExpKind::Array(Some(_), _) => false,
            TypeExpKind::Array(None, t)
            | TypeExpKind::Unique(t)
            | TypeExpKind::Existential(_, t) => self.type_trivial(t, env, type_names),
            TypeExpKind::Tuple(ts) => ts.iter().all(|t| self.type_trivial(t, env, type_names)),
            TypeExpKind::Record(fs) => fs
                .iter()
                .all(|(_, t)| self.type_trivial(t, env, type_names)),
            TypeExpKind::Sum(_) | TypeExpKind::Arrow(..) => true,
            TypeExpKind::Var(q, args) => {
                if args.iter().any(|a| matches!(a, TypeArg::Size(Some(_), _))) {
                    return false;
                }
                match self.named_type(q, env, type_names) {
                    None => true,
                    Some(td) => self.typedef_trivial(&td),
                }
            }
        }
    }

    fn check_named_type(
        &mut self,
        q: &ast::QualName,
        args: &[TypeArg],
        v: &Value,
        env: &Env,
        ctx: &mut SizeCtx,
    ) -> R<()> {
        let td = self.named_type(q, env, ctx.type_names);
        let Some(td) = td else {
            return Ok(());
        };
        let Some(def) = &td.def else {
            return Ok(());
        };
        if self.typedef_trivial(&td) {
            return Ok(());
        }
        let mut sizes = Vec::new();
        let mut types = Vec::new();
        for p in &td.params {
            match p {
                ast::TypeParam::Size(i) => sizes.push(i.name.clone()),
                ast::TypeParam::Type(i, _) => types.push(i.name.clone()),
            }
        }
        let mut sub = SizeCtx::new(&sizes, &types);
        let def_env = td.env.clone();
        self.check_type(def, v, &def_env, &mut sub)?;
        self.check_deferred(&mut sub, &def_env)?;
        for (p, a) in td.params.iter().zip(args) {
            if let (ast::TypeParam::Size(pn), TypeArg::Size(Some(e), sp)) = (p, a)
                && let Some(k) = sub.get(&pn.name)
            {
                self.check_size(e, k, env, ctx, *sp)?;
            }
        }
        Ok(())
    }

    /// Binds or checks one size against an actual extent.
    fn check_size(
        &mut self,
        s: &Expr,
        actual: i64,
        env: &Env,
        ctx: &mut SizeCtx,
        span: Span,
    ) -> R<()> {
        match &s.kind {
            ExprKind::Var(q) if q.quals.is_empty() => {
                let n = &q.name.name;
                if let Some(k) = ctx.get(n) {
                    if k != actual {
                        return Err(mismatch(n, k, actual, span));
                    }
                } else if ctx.is_binder(n) {
                    ctx.bind(n.clone(), actual);
                } else if let Some(k) = env
                    .val(n)
                    .and_then(|v| v.as_scalar().and_then(|x| x.as_i128()))
                    && k as i64 != actual
                {
                    return Err(mismatch(n, k as i64, actual, span));
                }
                Ok(())
            }
            ExprKind::Literal(Literal::Int { value, .. }) => {
                if *value as i64 != actual {
                    return Err(mismatch(&value.to_string(), *value as i64, actual, span));
                }
                Ok(())
            }
            ExprKind::Parens(e) => self.check_size(e, actual, env, ctx, span),
            _ => {
                ctx.deferred.push((s.clone(), actual, span));
                Ok(())
            }
        }
    }

    /// Checks the size expressions that needed all sizes bound first. Expressions that
    /// cannot be evaluated (they name sizes only the type checker knows) are skipped.
    pub fn check_deferred(&mut self, ctx: &mut SizeCtx, env: &Env) -> R<()> {
        let pending = std::mem::take(&mut ctx.deferred);
        if pending.is_empty() {
            return Ok(());
        }
        // A size parameter that only a compound size names (`[n * m]` with `n`
        // known, `[2 ** k]`) is solved from the extent first, so that the body
        // can use it; then every expression is checked.
        let mut pending = pending;
        loop {
            let env = ctx.bind_all(env.clone());
            let mut progress = false;
            for (e, actual, _) in &pending {
                if self.eval(e, &env).is_ok() {
                    continue;
                }
                if let Some((n, k)) = self.solve_size(e, *actual, &env, ctx) {
                    ctx.bind(n, k);
                    progress = true;
                    break;
                }
            }
            if !progress {
                break;
            }
        }
        let env = ctx.bind_all(env.clone());
        for (e, actual, span) in pending.drain(..) {
            if let Ok(Value::Scalar(s)) = self.eval(&e, &env)
                && let Some(k) = s.as_i128()
                && k as i64 != actual
            {
                return Err(mismatch(&crate::show::expr(&e), k as i64, actual, span));
            }
        }
        Ok(())
    }

    /// The value of the one unbound size parameter in `e` that makes `e` equal
    /// `actual`, where `e` is built from it with `+`, `-`, `*` and `**` and
    /// operands that evaluate. Where no value fits (`actual` not a multiple or a
    /// power), the nearest one below, which the later check reports as a size
    /// mismatch. `None` when `e` is not of this form.
    fn solve_size(
        &mut self,
        e: &Expr,
        actual: i64,
        env: &Env,
        ctx: &SizeCtx,
    ) -> Option<(Name, i64)> {
        match &e.kind {
            ExprKind::Parens(x) => self.solve_size(x, actual, env, ctx),
            ExprKind::Var(q) if q.quals.is_empty() => {
                let n = &q.name.name;
                (ctx.is_binder(n) && !ctx.is_bound(n)).then(|| (n.clone(), actual))
            }
            ExprKind::BinOp(op, a, b) if op.quals.is_empty() => {
                let known = |me: &mut Self, x: &Expr| match me.eval(x, env) {
                    Ok(Value::Scalar(s)) => s.as_i128().map(|k| k as i64),
                    _ => None,
                };
                let op = &*op.name.name;
                if let Some(va) = known(self, a) {
                    let target = match op {
                        "+" => actual.checked_sub(va)?,
                        "-" => va.checked_sub(actual)?,
                        "*" if va != 0 => actual / va,
                        "**" if va >= 2 => {
                            let mut k = 0;
                            let mut p = va;
                            while p <= actual {
                                k += 1;
                                match p.checked_mul(va) {
                                    Some(q) => p = q,
                                    None => break,
                                }
                            }
                            k
                        }
                        _ => return None,
                    };
                    self.solve_size(b, target, env, ctx)
                } else if let Some(vb) = known(self, b) {
                    let target = match op {
                        "+" => actual.checked_sub(vb)?,
                        "-" => actual.checked_add(vb)?,
                        "*" if vb != 0 => actual / vb,
                        _ => return None,
                    };
                    self.solve_size(a, target, env, ctx)
                } else {
                    None
                }
            }
            _ => None,
        }
    }
}
