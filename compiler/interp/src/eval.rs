//! Evaluation of expressions and application of functions.

use std::collections::HashMap;
use std::rc::Rc;
use std::sync::Arc;

use semantic::module_eval::ModuleEval;
use syntax::ast::{
    self, DimIndex, Expr, ExprKind, Literal, LoopForm, Name, NodeId, PrimType, QualName,
    RecordField,
};
use syntax::{FileId, Span};

use crate::env::{Env, ModVal, Module, Scope};
use crate::error::{R, at, rt_err};
use crate::hash::{FastMap, FastSet};
use crate::ops;
use crate::scalar::{BinOp, Scalar, UnOp};
use crate::sizes::SizeCtx;
use crate::slicing::{self, DimIdx};
use crate::value::{Closure, FunDef, PathVal, Value, values_equal};

/// Size arguments of one use of a function: size parameter names and expressions.
pub type SizeArgs = Rc<Vec<(Name, Expr)>>;

/// What the interpreter keeps for each loaded file.
pub struct LoadedFile {
    /// The file's top-level scope (all definitions, exported or not).
    pub scope: Rc<Scope>,
    /// The file's exported bindings.
    pub module: Rc<Module>,
}

/// The evaluator's state: loaded files, cached function definitions, sources.
#[derive(Default)]
pub struct Interp {
    /// Loaded files by id.
    pub files: HashMap<FileId, LoadedFile>,
    /// The scope holding the opened prelude, per prelude file.
    pub prelude_scopes: HashMap<FileId, Rc<Scope>>,
    /// Lambdas and local functions, copied once out of the tree they appear in.
    fun_cache: FastMap<(FileId, NodeId), Rc<FunDef>>,
    /// Source texts, for quoting failed assertions.
    pub sources: HashMap<FileId, Arc<str>>,
    /// The import map of the file being loaded.
    pub imports: HashMap<String, FileId>,
    /// Size arguments recorded by the type checker, by use site.
    pub size_args: FastMap<(FileId, NodeId), SizeArgs>,
    /// Operator uses (by node) found to name the builtin operator: no binding of
    /// that name is in scope there. Scoping is lexical, so this holds for every
    /// evaluation of the node.
    builtin_ops: FastSet<(FileId, NodeId)>,
    /// Module-level values found for variable uses (by node), with the scope and
    /// limit they were found in: while a use is evaluated in an environment with the
    /// same module-level part and the name is not bound locally, it names the same
    /// value, since module-level definitions never change.
    globals: FastMap<(FileId, NodeId), GlobalUse>,
}

/// A cached resolution of a module-level name at one use site.
struct GlobalUse {
    /// The name as written (qualifiers, then the name).
    path: Box<[Name]>,
    /// The scope the value was found from; kept alive so that its identity is not
    /// reused.
    scope: Rc<Scope>,
    /// The limit of the environment it was found from.
    limit: u32,
    /// The value.
    value: Value,
}

impl GlobalUse {
    /// Does this entry answer a lookup of `q` in `env`?
    fn matches(&self, q: &QualName, env: &Env) -> bool {
        let (scope, limit) = env.scope_key();
        limit == self.limit
            && Rc::ptr_eq(scope, &self.scope)
            && self.path.len() == q.quals.len() + 1
            && q.quals
                .iter()
                .chain(std::iter::once(&q.name))
                .zip(self.path.iter())
                .all(|(i, n)| Arc::ptr_eq(&i.name, n) || i.name == *n)
    }

    fn new(q: &QualName, env: &Env, value: Value) -> GlobalUse {
        let (scope, limit) = env.scope_key();
        GlobalUse {
            path: q
                .quals
                .iter()
                .chain(std::iter::once(&q.name))
                .map(|i| i.name.clone())
                .collect(),
            scope: scope.clone(),
            limit,
            value,
        }
    }
}

/// The value of a literal (unsuffixed literals not elaborated by the checker default
/// to `i32` and `f64`).
pub fn literal_value(l: &Literal) -> Value {
    match l {
        Literal::Int { value, ty } => {
            let t = ty.unwrap_or(PrimType::I32);
            if t.is_float() {
                Value::Scalar(Scalar::from_f64(t, *value as f64))
            } else {
                Value::Scalar(Scalar::from_i128(t, *value))
            }
        }
        Literal::Float { value, ty } => {
            Value::Scalar(Scalar::from_f64(ty.unwrap_or(PrimType::F64), *value))
        }
        Literal::Bool(b) => Value::bool(*b),
        Literal::Char { value, ty } => Value::Scalar(Scalar::from_i128(
            ty.unwrap_or(PrimType::I32),
            *value as i128,
        )),
        Literal::String(bytes) => Value::array(
            bytes
                .iter()
                .map(|b| Value::Scalar(Scalar::U8(*b)))
                .collect(),
            Some(Rc::new(Value::Scalar(Scalar::U8(0)))),
        ),
    }
}

/// Is this body exactly `__intrinsic "NAME"`? Returns the name.
pub fn intrinsic_name(e: &Expr) -> Option<Name> {
    match &e.kind {
        ExprKind::Apply(f, args) if args.len() == 1 => {
            let ExprKind::Var(q) = &f.kind else {
                return None;
            };
            if !q.quals.is_empty() || &*q.name.name != "__intrinsic" {
                return None;
            }
            match &args[0].kind {
                ExprKind::Literal(Literal::String(s)) => {
                    Some(String::from_utf8_lossy(s).into_owned().into())
                }
                _ => None,
            }
        }
        ExprKind::Parens(e) => intrinsic_name(e),
        _ => None,
    }
}

fn scalar_of(v: &Value, span: Span) -> R<&Scalar> {
    v.as_scalar()
        .ok_or_else(|| rt_err("expected a primitive value", span))
}

fn bool_of(v: &Value, span: Span) -> R<bool> {
    scalar_of(v, span)?
        .as_bool()
        .ok_or_else(|| rt_err("expected a boolean", span))
}

impl Interp {
    /// The cached definition of a lambda or local function.
    fn fun_def(&mut self, e: &Expr, make: impl FnOnce() -> FunDef) -> Rc<FunDef> {
        self.fun_cache
            .entry((e.span.file, e.id))
            .or_insert_with(|| Rc::new(make()))
            .clone()
    }

    /// Resolves `a.b.c`: a member of the module `a` where `a` names a module that
    /// has it (values and modules have namespaces of their own, so a value `a`
    /// does not hide the module), record projection off the value `a` otherwise.
    pub fn lookup_var(&self, q: &QualName, env: &Env) -> R<Value> {
        if q.quals.is_empty() {
            return env.val(&q.name.name).ok_or_else(|| {
                rt_err(
                    format!("unknown or consumed variable {}", q.name.name),
                    q.name.span,
                )
            });
        }
        if let Some(v) = module_member(q, env) {
            return v;
        }
        let first = &q.quals[0];
        let rest: Vec<&ast::Ident> = q.quals[1..]
            .iter()
            .chain(std::iter::once(&q.name))
            .collect();
        let v = env.val(&first.name).ok_or_else(|| {
            rt_err(
                format!("unknown or consumed variable {}", first.name),
                first.span,
            )
        })?;
        project(v, &rest)
    }

    /// [`Interp::lookup_var`] at the use `e`, with module-level values cached per use.
    fn lookup_var_at(&mut self, e: &Expr, q: &QualName, env: &Env) -> R<Value> {
        if q.quals.is_empty() {
            let name = &q.name.name;
            if let Some(v) = env.local_val(name) {
                return v.ok_or_else(|| {
                    rt_err(format!("unknown or consumed variable {name}"), q.name.span)
                });
            }
        } else if env.has_local_opens() {
            return self.lookup_var(q, env);
        } else if let Some(v) = env.local_val(&q.quals[0].name)
            && env.module(&q.quals[0].name).is_none()
        {
            // A field of a local record (no open: the binding is a local value,
            // and no module of that name comes first).
            let first = &q.quals[0];
            let mut v = v.ok_or_else(|| {
                rt_err(
                    format!("unknown or consumed variable {}", first.name),
                    first.span,
                )
            })?;
            for f in q.quals[1..].iter().chain(std::iter::once(&q.name)) {
                v = v
                    .field(&f.name)
                    .ok_or_else(|| rt_err(format!("value has no field {}", f.name), f.span))?;
            }
            return Ok(v);
        }
        let key = (e.span.file, e.id);
        if let Some(g) = self.globals.get(&key)
            && g.matches(q, env)
        {
            return Ok(g.value.clone());
        }
        if !q.quals.is_empty() {
            // Only a module member is cached.
            return match module_member(q, env) {
                Some(v) => {
                    let v = v?;
                    self.globals.insert(key, GlobalUse::new(q, env, v.clone()));
                    Ok(v)
                }
                None => self.lookup_var(q, env),
            };
        }
        let name = &q.name.name;
        let g = env
            .global_val(name)
            .ok_or_else(|| rt_err(format!("unknown or consumed variable {name}"), q.name.span))?;
        if g.cacheable {
            self.globals
                .insert(key, GlobalUse::new(q, env, g.value.clone()));
        }
        Ok(g.value)
    }

    /// The function an operator name stands for: a binding in scope, or a builtin.
    fn operator(&self, q: &QualName, env: &Env) -> R<Value> {
        if q.quals.is_empty()
            && let Some(v) = env.val(&q.name.name)
        {
            return Ok(v);
        }
        if !q.quals.is_empty() {
            return self.lookup_var(q, env);
        }
        match BinOp::from_symbol(&q.name.name) {
            Some(op) => Ok(Value::Fun(Rc::new(Closure::Op {
                op,
                args: Vec::new(),
            }))),
            None => Err(rt_err(
                format!("unknown operator {}", q.name.name),
                q.span(),
            )),
        }
    }

    /// Evaluates an expression.
    pub fn eval(&mut self, expr: &Expr, env: &Env) -> R<Value> {
        let mut e = expr;
        while let ExprKind::Parens(inner) | ExprKind::Attr(_, inner) = &e.kind {
            e = inner;
        }
        match &e.kind {
            ExprKind::Let { .. }
            | ExprKind::LetFun { .. }
            | ExprKind::LetWith { .. }
            | ExprKind::If(..)
            | ExprKind::Match(..) => self.eval_tail(e, env),
            _ => self.eval_simple(e, env),
        }
    }

    /// Evaluates an expression that binds names or chooses a branch. Tail positions
    /// (let bodies, branches) loop instead of recursing, so that long chains of `let`
    /// do not deepen the Rust stack.
    fn eval_tail(&mut self, expr: &Expr, env: &Env) -> R<Value> {
        let mut e = expr;
        let mut env = env.clone();
        loop {
            let span = e.span;
            match &e.kind {
                ExprKind::Parens(inner) | ExprKind::Attr(_, inner) => e = inner,
                ExprKind::Let {
                    sizes,
                    pat,
                    value,
                    body,
                } => {
                    let v = self.eval(value, &env)?;
                    let names: Vec<Name> = sizes.iter().map(|s| s.name.clone()).collect();
                    let mut ctx = SizeCtx::new(&names, &[]);
                    let outer = v.shape().first().copied();
                    env = self.bind_pat(pat, v, env, &mut ctx)?;
                    if names.len() == 1
                        && !ctx.is_bound(&names[0])
                        && let Some(n) = outer
                    {
                        ctx.bind(names[0].clone(), n as i64);
                    }
                    env = ctx.bind_all(env);
                    e = body;
                }
                ExprKind::LetFun {
                    name,
                    type_params,
                    params,
                    ret,
                    value,
                    body,
                } => {
                    let v = if params.is_empty() {
                        self.eval(value, &env)?
                    } else {
                        let def = self.fun_def(e, || {
                            FunDef::new(
                                Some(name.name.clone()),
                                type_params.clone(),
                                params.clone(),
                                ret.clone(),
                                (**value).clone(),
                            )
                        });
                        Value::Fun(Rc::new(Closure::User {
                            def,
                            env: env.clone(),
                            args: Vec::new(),
                            sizes: Vec::new(),
                        }))
                    };
                    env = env.bind(name.name.clone(), v);
                    e = body;
                }
                ExprKind::LetWith {
                    dest,
                    indices,
                    value,
                    body,
                } => {
                    let idx = self.eval_indices(indices, &env)?;
                    let v = self.eval(value, &env)?;
                    let target = match env.take_local(&dest.name) {
                        Some(t) => t,
                        None => env.val(&dest.name).ok_or_else(|| {
                            rt_err(
                                format!("unknown or consumed variable {}", dest.name),
                                dest.span,
                            )
                        })?,
                    };
                    let updated = at(slicing::update(target, &idx, v), span)?;
                    env = env.bind(dest.name.clone(), updated);
                    e = body;
                }
                ExprKind::If(c, t, f) => {
                    let cv = self.eval(c, &env)?;
                    e = if bool_of(&cv, c.span)? { t } else { f };
                }
                ExprKind::Match(scrut, cases) => {
                    let v = self.eval(scrut, &env)?;
                    let mut chosen = None;
                    for case in cases {
                        let mut ctx = SizeCtx::new(&[], &[]);
                        if let Some(env2) = self.match_pat(&case.pat, &v, env.clone(), &mut ctx)? {
                            chosen = Some((env2, &case.body));
                            break;
                        }
                    }
                    match chosen {
                        Some((env2, body)) => {
                            env = env2;
                            e = body;
                        }
                        None => return Err(rt_err("No case matches the value.", span)),
                    }
                }
                _ => return self.eval_simple(e, &env),
            }
        }
    }

    fn eval_simple(&mut self, e: &Expr, env: &Env) -> R<Value> {
        let span = e.span;
        match &e.kind {
            ExprKind::Literal(l) => Ok(literal_value(l)),
            ExprKind::Var(q) => {
                let v = self.lookup_var_at(e, q, env)?;
                if has_size_params(&v) {
                    let v = self.instantiate_sizes_of(e, v, env)?;
                    self.force_sized(v, span)
                } else {
                    Ok(v)
                }
            }
            ExprKind::QualParens(q, inner) => {
                let ModVal::Struct(m) = self.resolve_module(q, env)? else {
                    return Err(rt_err("cannot open a functor", span));
                };
                let env2 = env.open(m);
                self.eval(inner, &env2)
            }
            ExprKind::Tuple(es) => {
                let vs = es
                    .iter()
                    .map(|x| self.eval(x, env))
                    .collect::<R<Vec<_>>>()?;
                Ok(Value::Tuple(crate::value::tup(vs)))
            }
            ExprKind::Record(fields) => {
                let mut fs = Vec::with_capacity(fields.len());
                for f in fields {
                    match f {
                        RecordField::Explicit(n, x) => {
                            fs.push((n.name.clone(), self.eval(x, env)?))
                        }
                        RecordField::Pun(n) => {
                            let q = QualName {
                                quals: Vec::new(),
                                name: n.clone(),
                            };
                            fs.push((n.name.clone(), self.lookup_var(&q, env)?));
                        }
                    }
                }
                Ok(Value::record(fs))
            }
            ExprKind::ArrayLit(es) => {
                let vs = es
                    .iter()
                    .map(|x| self.eval(x, env))
                    .collect::<R<Vec<_>>>()?;
                if let Some(first) = vs.first() {
                    let shape = first.shape();
                    if vs.iter().any(|v| v.shape() != shape) {
                        return Err(rt_err(
                            "Size mismatch: array literal elements have different shapes.",
                            span,
                        ));
                    }
                }
                Ok(Value::array(vs, None))
            }
            ExprKind::Range {
                start,
                second,
                end_kind,
                end,
            } => {
                let a = self.eval(start, env)?;
                let s = match second {
                    Some(s) => Some(self.eval(s, env)?),
                    None => None,
                };
                let b = self.eval(end, env)?;
                let s = match &s {
                    Some(v) => Some(scalar_of(v, span)?),
                    None => None,
                };
                at(
                    slicing::range(scalar_of(&a, span)?, s, *end_kind, scalar_of(&b, span)?),
                    span,
                )
            }
            ExprKind::Project(x, field) => {
                let v = self.eval(x, env)?;
                project(v, &[field])
            }
            ExprKind::BinOp(op, l, r) => self.eval_binop(e, op, l, r, env),
            ExprKind::Neg(x) => {
                let v = self.eval(x, env)?;
                at(ops::unop(UnOp::Neg, scalar_of(&v, span)?), span).map(Value::Scalar)
            }
            ExprKind::Not(x) => {
                let v = self.eval(x, env)?;
                at(ops::unop(UnOp::Not, scalar_of(&v, span)?), span).map(Value::Scalar)
            }
            ExprKind::OpSection(q) => self.operator(q, env),
            ExprKind::OpSectionLeft(q, x) => {
                let f = self.operator(q, env)?;
                let xv = self.eval(x, env)?;
                self.apply(f, vec![xv], span)
            }
            ExprKind::OpSectionRight(q, y) => {
                let f = self.operator(q, env)?;
                let yv = self.eval(y, env)?;
                Ok(Value::Fun(Rc::new(Closure::Flip { f, y: yv })))
            }
            ExprKind::ProjectSection(fields) => Ok(Value::Fun(Rc::new(Closure::Project(
                fields.iter().map(|f| f.name.clone()).collect(),
            )))),
            ExprKind::IndexSection(idx) => {
                let idx = self.eval_indices(idx, env)?;
                Ok(Value::Fun(Rc::new(Closure::Index(idx))))
            }
            ExprKind::PathSection(path) => {
                let path = self.eval_path(path, env)?;
                Ok(Value::Fun(Rc::new(Closure::Path(path))))
            }
            ExprKind::Apply(f, args) => {
                let fv = self.eval(f, env)?;
                let fv = self.instantiate_sizes(e, fv, env)?;
                // Arguments for unique parameters are consumed: a local variable passed
                // there is taken out of the environment so the callee can update it in
                // place. They are taken after all arguments are evaluated.
                let consumed: Vec<bool> = match &fv {
                    Value::Fun(c) if c.consumed_args().iter().any(|u| *u) => {
                        c.consumed_args().to_vec()
                    }
                    _ => Vec::new(),
                };
                if consumed.is_empty() {
                    if let [fa, xa] = &args[..]
                        && is_intrinsic(&fv, "map")
                        && let ExprKind::Apply(g, zargs) = &strip_wrappers(xa).kind
                        && let [za, zb] = &zargs[..]
                    {
                        return self.eval_map_zip(fv, fa, strip_wrappers(xa), g, za, zb, env, span);
                    }
                    let avs = args
                        .iter()
                        .map(|a| self.eval(a, env))
                        .collect::<R<Vec<_>>>()?;
                    return self.apply(fv, avs, span);
                }
                let mut avs = Vec::with_capacity(args.len());
                for (k, a) in args.iter().enumerate() {
                    if consumed.get(k).copied().unwrap_or(false) && is_local_var(a, env) {
                        avs.push(None);
                    } else {
                        avs.push(Some(self.eval(a, env)?));
                    }
                }
                let avs = avs
                    .into_iter()
                    .zip(args.iter())
                    .map(|(v, a)| match v {
                        Some(v) => Ok(v),
                        None => self.eval_consumed(a, env),
                    })
                    .collect::<R<Vec<_>>>()?;
                self.apply(fv, avs, span)
            }
            ExprKind::Constructor(name, args) => {
                let vs = args
                    .iter()
                    .map(|a| self.eval(a, env))
                    .collect::<R<Vec<_>>>()?;
                Ok(Value::Sum(Rc::new((name.name.clone(), vs))))
            }
            ExprKind::Update {
                target,
                indices,
                value,
            } => {
                let idx = self.eval_indices(indices, env)?;
                let v = self.eval(value, env)?;
                let t = self.eval_consumed(target, env)?;
                at(slicing::update(t, &idx, v), span)
            }
            ExprKind::UpdatePath {
                target,
                path,
                value,
            } => {
                let path = self.eval_path(path, env)?;
                let v = self.eval(value, env)?;
                let t = self.eval_consumed(target, env)?;
                update_path(t, &path, v, span)
            }
            ExprKind::RecordUpdate {
                target,
                fields,
                value,
            } => {
                let v = self.eval(value, env)?;
                let t = self.eval(target, env)?;
                record_update(t, fields, v, span)
            }
            ExprKind::Lambda { params, ret, body } => {
                let def = self.fun_def(e, || {
                    FunDef::new(
                        None,
                        Vec::new(),
                        params.clone(),
                        ret.clone(),
                        (**body).clone(),
                    )
                });
                Ok(Value::Fun(Rc::new(Closure::User {
                    def,
                    env: env.clone(),
                    args: Vec::new(),
                    sizes: Vec::new(),
                })))
            }
            ExprKind::Loop {
                pat,
                init,
                form,
                body,
            } => self.eval_loop(pat, init.as_deref(), form, body, env, span),
            ExprKind::Ascribe(x, t) | ExprKind::Coerce(x, t) => {
                let v = self.eval(x, env)?;
                let mut ctx = SizeCtx::new(&[], &[]);
                self.check_type(t, &v, env, &mut ctx)?;
                // Sizes given by expressions (`[length a]`) are checked last.
                self.check_deferred(&mut ctx, env)?;
                Ok(v)
            }
            ExprKind::Index(x, idx) => {
                let v = self.eval(x, env)?;
                let idx = self.eval_indices(idx, env)?;
                at(slicing::index(&v, &idx), span)
            }
            ExprKind::Assert(c, x) => {
                let cv = self.eval(c, env)?;
                if !bool_of(&cv, c.span)? {
                    let text = self.source_text(c);
                    return Err(rt_err(format!("Assertion is false: {text}"), c.span));
                }
                self.eval(x, env)
            }
            ExprKind::Hole => Err(rt_err("Reached a hole (???).", span)),
            ExprKind::Parens(_)
            | ExprKind::Attr(..)
            | ExprKind::Let { .. }
            | ExprKind::LetFun { .. }
            | ExprKind::LetWith { .. }
            | ExprKind::If(..)
            | ExprKind::Match(..) => self.eval(e, env),
        }
    }

    /// Attaches the size arguments the type checker recorded for this use of a
    /// function (those that evaluate; the others are left to argument shapes).
    fn instantiate_sizes(&mut self, e: &Expr, v: Value, env: &Env) -> R<Value> {
        if has_size_params(&v) {
            self.instantiate_sizes_of(e, v, env)
        } else {
            Ok(v)
        }
    }

    /// The value of a definition with size parameters and no value
    /// parameters (`def iiota [n] : [n]i64 = iota n`), whose sizes a use
    /// has just given: its body evaluated with them. Any other value is
    /// returned as it is.
    fn force_sized(&mut self, v: Value, span: Span) -> R<Value> {
        let Value::Fun(c) = &v else { return Ok(v) };
        let Closure::User {
            def, env, sizes, ..
        } = &**c
        else {
            return Ok(v);
        };
        if !def.params.is_empty() {
            return Ok(v);
        }
        let (def, env, sizes) = (def.clone(), env.clone(), sizes.clone());
        self.call_user_sized(&def, env, Vec::new(), &sizes, span)
    }

    /// [`Interp::instantiate_sizes`] for a function with size parameters.
    fn instantiate_sizes_of(&mut self, e: &Expr, v: Value, env: &Env) -> R<Value> {
        let Some(args) = self.size_args.get(&(e.span.file, e.id)).cloned() else {
            return Ok(v);
        };
        let Value::Fun(c) = &v else {
            return Ok(v);
        };
        let Closure::User {
            def,
            env: cenv,
            args: applied,
            sizes,
        } = &**c
        else {
            return Ok(v);
        };
        let mut sizes = sizes.clone();
        for (n, x) in args.iter() {
            if !def.size_names.contains(n) || sizes.iter().any(|(m, _)| m == n) {
                continue;
            }
            if let Ok(Value::Scalar(s)) = self.eval(x, env)
                && let Some(k) = s.as_i128()
            {
                sizes.push((n.clone(), k as i64));
            }
        }
        Ok(Value::Fun(Rc::new(Closure::User {
            def: def.clone(),
            env: cenv.clone(),
            args: applied.clone(),
            sizes,
        })))
    }

    /// Evaluates `map f (g a b)` (the application node `span`, with `map` already
    /// evaluated to `fv`): when `g` is `zip`, maps over the two arrays without building
    /// the pairs where [`Interp::map_zip2`] applies. Evaluation order, results and
    /// errors are those of the plain application.
    #[allow(clippy::too_many_arguments)]
    fn eval_map_zip(
        &mut self,
        fv: Value,
        fa: &Expr,
        zip_app: &Expr,
        g: &Expr,
        za: &Expr,
        zb: &Expr,
        env: &Env,
        span: Span,
    ) -> R<Value> {
        let f = self.eval(fa, env)?;
        let gv = self.eval(g, env)?;
        let gv = self.instantiate_sizes(zip_app, gv, env)?;
        if !is_intrinsic(&gv, "zip") {
            let xv = self.eval(zip_app, env)?;
            return self.apply(fv, vec![f, xv], span);
        }
        let av = self.eval(za, env)?;
        let bv = self.eval(zb, env)?;
        if let Some(v) = self.map_zip2(&f, &av, &bv, span)? {
            return Ok(v);
        }
        let zipped = self.apply(gv, vec![av, bv], zip_app.span)?;
        self.apply(fv, vec![f, zipped], span)
    }

    /// Evaluates the target of an update; a local variable is taken out of the
    /// environment so that the update can happen in place.
    fn eval_consumed(&mut self, target: &Expr, env: &Env) -> R<Value> {
        if let ExprKind::Var(q) = &target.kind
            && q.quals.is_empty()
            && let Some(v) = env.take_local(&q.name.name)
        {
            return Ok(v);
        }
        self.eval(target, env)
    }

    /// The source text of an expression, or a rendering of it.
    fn source_text(&self, e: &Expr) -> String {
        if let ExprKind::Parens(inner) = &e.kind {
            return self.source_text(inner);
        }
        if let Some(src) = self.sources.get(&e.span.file)
            && let Some(t) = src.get(e.span.range())
        {
            return t.to_string();
        }
        crate::show::expr(e)
    }

    fn eval_binop(&mut self, e: &Expr, op: &QualName, l: &Expr, r: &Expr, env: &Env) -> R<Value> {
        let span = e.span;
        let name = &op.name.name;
        let key = (e.span.file, e.id);
        let user = if !op.quals.is_empty() {
            Some(self.lookup_var(op, env)?)
        } else if self.builtin_ops.contains(&key) {
            None
        } else {
            let v = env.val(name);
            if v.is_none() {
                self.builtin_ops.insert(key);
            }
            v
        };
        if let Some(f) = user {
            let lv = self.eval(l, env)?;
            let rv = self.eval(r, env)?;
            return self.apply(f, vec![lv, rv], span);
        }
        let Some(bop) = BinOp::from_symbol(name) else {
            return Err(rt_err(format!("unknown operator {name}"), op.span()));
        };
        let lv = self.eval(l, env)?;
        match bop {
            BinOp::LogAnd if !bool_of(&lv, l.span)? => return Ok(Value::bool(false)),
            BinOp::LogOr if bool_of(&lv, l.span)? => return Ok(Value::bool(true)),
            _ => {}
        }
        let rv = self.eval(r, env)?;
        builtin_binop(bop, &lv, &rv, span)
    }

    /// Evaluates the dimensions of an index.
    /// Evaluates the indices of an update path or path section.
    fn eval_path(&mut self, path: &[ast::PathStep], env: &Env) -> R<Vec<PathVal>> {
        path.iter()
            .map(|step| {
                Ok(match step {
                    ast::PathStep::Field(f) => PathVal::Field(f.clone()),
                    ast::PathStep::Index(is, sp) => {
                        PathVal::Index(self.eval_indices(is, env)?, *sp)
                    }
                })
            })
            .collect()
    }

    pub fn eval_indices(&mut self, idx: &[DimIndex], env: &Env) -> R<Vec<DimIdx>> {
        let mut out = Vec::with_capacity(idx.len());
        for d in idx {
            out.push(match d {
                DimIndex::Fix(e) => DimIdx::Fix(self.eval_index(e, env)?),
                DimIndex::Slice { start, end, stride } => DimIdx::Slice(
                    self.eval_opt_index(start.as_ref(), env)?,
                    self.eval_opt_index(end.as_ref(), env)?,
                    self.eval_opt_index(stride.as_ref(), env)?,
                ),
            });
        }
        Ok(out)
    }

    fn eval_opt_index(&mut self, e: Option<&Expr>, env: &Env) -> R<Option<i64>> {
        e.map(|e| self.eval_index(e, env)).transpose()
    }

    fn eval_index(&mut self, e: &Expr, env: &Env) -> R<i64> {
        let v = self.eval(e, env)?;
        slicing::as_index(scalar_of(&v, e.span)?)
            .ok_or_else(|| rt_err("index must be an integer", e.span))
    }

    fn eval_loop(
        &mut self,
        pat: &ast::Pat,
        init: Option<&Expr>,
        form: &LoopForm,
        body: &Expr,
        env: &Env,
        span: Span,
    ) -> R<Value> {
        let mut acc = match init {
            Some(e) => self.eval(e, env)?,
            None => self.pattern_value(pat, env)?,
        };
        let bind = |this: &mut Self, acc: Value, env: Env| -> R<Env> {
            let mut ctx = SizeCtx::new(&[], &[]);
            let env = this.bind_pat(pat, acc, env, &mut ctx)?;
            Ok(ctx.bind_all(env))
        };
        match form {
            LoopForm::For(i, n) => {
                let nv = self.eval(n, env)?;
                let ns = scalar_of(&nv, n.span)?.clone();
                let t = ns.prim_type();
                let count = ns
                    .as_i128()
                    .ok_or_else(|| rt_err("loop bound must be an integer", span))?;
                let mut k: i128 = 0;
                while k < count {
                    let env1 = env.bind(i.name.clone(), Value::Scalar(Scalar::from_i128(t, k)));
                    let env2 = bind(self, acc, env1)?;
                    acc = self.eval(body, &env2)?;
                    k += 1;
                }
            }
            LoopForm::ForIn(p, xs) => {
                let xv = self.eval(xs, env)?;
                let arr = xv
                    .as_array()
                    .ok_or_else(|| rt_err("for-in needs an array", xs.span))?
                    .clone();
                drop(xv);
                for x in arr.elems.iter() {
                    let mut ctx = SizeCtx::new(&[], &[]);
                    let env1 = self.bind_pat(p, x.clone(), env.clone(), &mut ctx)?;
                    let env2 = bind(self, acc, env1)?;
                    acc = self.eval(body, &env2)?;
                }
            }
            LoopForm::While(c) => loop {
                let env2 = bind(self, acc.clone(), env.clone())?;
                let cv = self.eval(c, &env2)?;
                if !bool_of(&cv, c.span)? {
                    break;
                }
                drop(env2);
                let env2 = bind(self, acc, env.clone())?;
                acc = self.eval(body, &env2)?;
            },
        }
        Ok(acc)
    }

    /// The value a loop pattern has in the short form `loop x for …`: its variables'
    /// current values.
    fn pattern_value(&self, pat: &ast::Pat, env: &Env) -> R<Value> {
        use ast::PatKind;
        match &pat.kind {
            PatKind::Id(i) => env
                .val(&i.name)
                .ok_or_else(|| rt_err(format!("unknown variable {}", i.name), i.span)),
            PatKind::Tuple(ps) => Ok(Value::Tuple(crate::value::tup(
                ps.iter()
                    .map(|p| self.pattern_value(p, env))
                    .collect::<R<Vec<_>>>()?,
            ))),
            PatKind::Record(fs) => Ok(Value::record(
                fs.iter()
                    .map(|(n, p)| Ok((n.name.clone(), self.pattern_value(p, env)?)))
                    .collect::<R<Vec<_>>>()?,
            )),
            PatKind::Ascribed(p, _) | PatKind::Attr(_, p) => self.pattern_value(p, env),
            _ => Err(rt_err(
                "this pattern cannot be a short-form loop parameter",
                pat.span,
            )),
        }
    }

    /// Applies a function value to arguments.
    pub fn apply(&mut self, f: Value, args: Vec<Value>, span: Span) -> R<Value> {
        if args.is_empty() {
            return Ok(f);
        }
        let Value::Fun(c) = f else {
            return Err(rt_err("applying a value that is not a function", span));
        };
        let (arity, prev) = match &*c {
            Closure::User { def, args, .. } => (def.params.len(), args),
            Closure::Intrinsic { arity, args, .. } => (*arity, args),
            Closure::Op { args, .. } => (2, args),
            Closure::Flip { .. } | Closure::Project(_) | Closure::Index(_) | Closure::Path(_) => {
                (1, &Vec::new())
            }
        };
        let mut all = if prev.is_empty() {
            args
        } else {
            let mut all = prev.clone();
            all.extend(args);
            all
        };
        if all.len() < arity {
            let partial = match &*c {
                Closure::User {
                    def, env, sizes, ..
                } => Closure::User {
                    def: def.clone(),
                    env: env.clone(),
                    args: all,
                    sizes: sizes.clone(),
                },
                Closure::Intrinsic {
                    name,
                    arity,
                    unique,
                    ..
                } => Closure::Intrinsic {
                    name: name.clone(),
                    arity: *arity,
                    args: all,
                    unique: unique.clone(),
                },
                Closure::Op { op, .. } => Closure::Op { op: *op, args: all },
                _ => return Err(rt_err("internal error: partial application", span)),
            };
            return Ok(Value::Fun(Rc::new(partial)));
        }
        let rest = all.split_off(arity);
        let result = match &*c {
            Closure::User {
                def, env, sizes, ..
            } => {
                let def = def.clone();
                let env = env.clone();
                let sizes = sizes.clone();
                self.call_user_sized(&def, env, all, &sizes, span)?
            }
            Closure::Intrinsic { name, .. } => {
                let name = name.clone();
                self.call_intrinsic(&name, all, span)?
            }
            Closure::Op { op, .. } => builtin_binop(*op, &all[0], &all[1], span)?,
            Closure::Flip { f, y } => {
                let x = all.pop().unwrap_or_else(Value::unit);
                self.apply(f.clone(), vec![x, y.clone()], span)?
            }
            Closure::Project(fields) => {
                let mut v = all.pop().unwrap_or_else(Value::unit);
                for fld in fields {
                    v = v
                        .field(fld)
                        .ok_or_else(|| rt_err(format!("no field {fld}"), span))?;
                }
                v
            }
            Closure::Index(idx) => {
                let v = all.pop().unwrap_or_else(Value::unit);
                at(slicing::index(&v, idx), span)?
            }
            Closure::Path(path) => {
                let mut v = all.pop().unwrap_or_else(Value::unit);
                for step in path {
                    v = match step {
                        PathVal::Field(f) => v
                            .field(&f.name)
                            .ok_or_else(|| rt_err(format!("no field {}", f.name), span))?,
                        PathVal::Index(idx, _) => at(slicing::index(&v, idx), span)?,
                    };
                }
                v
            }
        };
        if rest.is_empty() {
            Ok(result)
        } else {
            self.apply(result, rest, span)
        }
    }

    /// Is checking a result of `def` against its return type `ret` (in `env`, the
    /// environment of its body) trivial? Decided once per function and module-level
    /// environment; `false` when a module is opened locally.
    fn ret_trivial(&self, def: &FunDef, ret: &ast::TypeExp, env: &Env) -> bool {
        if env.has_local_opens() {
            return false;
        }
        let (scope, limit) = env.scope_key();
        if let Some((s, l, t)) = &*def.ret_trivial.borrow()
            && *l == limit
            && std::ptr::eq(s.as_ptr(), Rc::as_ptr(scope))
        {
            return *t;
        }
        let t = self.type_trivial(ret, env, &def.type_names);
        *def.ret_trivial.borrow_mut() = Some((Rc::downgrade(scope), limit, t));
        t
    }

    /// Calls a user function with exactly as many arguments as it has parameters:
    /// binds parameters and sizes, evaluates the body, checks the return type.
    pub fn call_user(&mut self, def: &FunDef, env: Env, args: Vec<Value>, span: Span) -> R<Value> {
        self.call_user_sized(def, env, args, &[], span)
    }

    /// [`Interp::call_user`] with some size parameters already known.
    fn call_user_sized(
        &mut self,
        def: &FunDef,
        env: Env,
        args: Vec<Value>,
        sizes: &[(Name, i64)],
        span: Span,
    ) -> R<Value> {
        let mut ctx = SizeCtx::new(&def.size_names, &def.type_names);
        for (n, k) in sizes {
            ctx.bind(n.clone(), *k);
        }
        let mut env = env;
        let with_trace = |mut e: Box<crate::RuntimeError>| {
            e.backtrace.push(span);
            e
        };
        for (p, a) in def.params.iter().zip(args) {
            env = self.bind_pat(p, a, env, &mut ctx).map_err(with_trace)?;
        }
        self.check_deferred(&mut ctx, &env).map_err(with_trace)?;
        let env = ctx.bind_all(env);
        let result = self.eval(&def.body, &env).map_err(with_trace)?;
        if let Some(ret) = &def.ret
            && !self.ret_trivial(def, ret, &env)
        {
            let mut rctx = SizeCtx::new(&[], &def.type_names);
            self.check_type(ret, &result, &env, &mut rctx)
                .map_err(with_trace)?;
            self.check_deferred(&mut rctx, &env).map_err(with_trace)?;
        }
        Ok(result)
    }
}

/// Is `v` a user function with size parameters (which a use may instantiate)?
#[inline]
fn has_size_params(v: &Value) -> bool {
    matches!(v, Value::Fun(c) if matches!(&**c, Closure::User { def, .. } if !def.size_names.is_empty()))
}

/// Is `v` the intrinsic `name` with no arguments applied yet?
fn is_intrinsic(v: &Value, name: &str) -> bool {
    matches!(v, Value::Fun(c) if matches!(&**c, Closure::Intrinsic { name: n, args, .. } if args.is_empty() && &**n == name))
}

/// The expression inside parentheses and attributes, which evaluate to their contents.
fn strip_wrappers(e: &Expr) -> &Expr {
    match &e.kind {
        ExprKind::Parens(x) | ExprKind::Attr(_, x) => strip_wrappers(x),
        _ => e,
    }
}

/// Is `e` a plain local variable?
fn is_local_var(e: &Expr, env: &Env) -> bool {
    matches!(&e.kind, ExprKind::Var(q) if q.quals.is_empty() && env.is_local_val(&q.name.name))
}

/// Projects fields (or tuple components) out of a value.
/// The member `b.c` of the module `a` for the name `a.b.c` (with projections off
/// the member for what follows it); `None` when `a` names no module or the module
/// has no such member.
fn module_member(q: &QualName, env: &Env) -> Option<R<Value>> {
    let mut m = env.module(&q.quals.first()?.name)?;
    let rest: Vec<&ast::Ident> = q.quals[1..]
        .iter()
        .chain(std::iter::once(&q.name))
        .collect();
    for (k, n) in rest.iter().enumerate() {
        let ModVal::Struct(s) = &m else {
            return Some(Err(rt_err("a functor has no members", q.span())));
        };
        if let Some(sub) = s.mods.get(&n.name)
            && k + 1 < rest.len()
        {
            m = sub.clone();
            continue;
        }
        let v = s.vals.get(&n.name).cloned()?;
        return Some(project(v, &rest[k + 1..]));
    }
    None
}

fn project(mut v: Value, fields: &[&ast::Ident]) -> R<Value> {
    for f in fields {
        v = v
            .field(&f.name)
            .ok_or_else(|| rt_err(format!("value has no field {}", f.name), f.span))?;
    }
    Ok(v)
}

fn record_update(t: Value, fields: &[ast::Ident], v: Value, span: Span) -> R<Value> {
    let Some((first, rest)) = fields.split_first() else {
        return Ok(v);
    };
    update_field(t, first, span, |old| record_update(old, rest, v, span))
}

/// `t` with its field `f` replaced by `upd` of the field's value.
fn update_field(
    t: Value,
    first: &ast::Ident,
    span: Span,
    upd: impl FnOnce(Value) -> R<Value>,
) -> R<Value> {
    match t {
        Value::Record(fs) => {
            let mut fs = Rc::try_unwrap(fs).unwrap_or_else(|rc| (*rc).clone());
            let slot = fs
                .iter_mut()
                .find(|(n, _)| *n == first.name)
                .ok_or_else(|| rt_err(format!("no field {}", first.name), first.span))?;
            let old = std::mem::replace(&mut slot.1, Value::unit());
            slot.1 = upd(old)?;
            Ok(Value::Record(Rc::new(fs)))
        }
        Value::Tuple(vs) => {
            let mut vs = vs.to_vec();
            let i: usize = first
                .name
                .parse()
                .map_err(|_| rt_err(format!("no field {}", first.name), first.span))?;
            let slot = vs
                .get_mut(i)
                .ok_or_else(|| rt_err(format!("no field {}", first.name), first.span))?;
            let old = std::mem::replace(slot, Value::unit());
            *slot = upd(old)?;
            Ok(Value::Tuple(crate::value::tup(vs)))
        }
        _ => Err(rt_err("record update of a non-record", span)),
    }
}

/// `t with path = v`: the element or field the path reaches replaced by `v`. An
/// index step followed by more steps reads the indexed part, updates it and writes
/// it back.
fn update_path(t: Value, path: &[PathVal], v: Value, span: Span) -> R<Value> {
    match path.split_first() {
        None => Ok(v),
        Some((PathVal::Field(f), rest)) => {
            update_field(t, f, span, |old| update_path(old, rest, v, span))
        }
        Some((PathVal::Index(idx, _), [])) => at(slicing::update(t, idx, v), span),
        Some((PathVal::Index(idx, _), rest)) => {
            let part = at(slicing::index(&t, idx), span)?;
            let part = update_path(part, rest, v, span)?;
            at(slicing::update(t, idx, part), span)
        }
    }
}

/// A builtin binary operator on values: scalar arithmetic, or structural equality.
pub fn builtin_binop(op: BinOp, l: &Value, r: &Value, span: Span) -> R<Value> {
    match (l, r) {
        (Value::Scalar(a), Value::Scalar(b)) => at(ops::binop(op, a, b), span).map(Value::Scalar),
        _ => match op {
            BinOp::Eq => Ok(Value::bool(values_equal(l, r))),
            BinOp::Neq => Ok(Value::bool(!values_equal(l, r))),
            _ => Err(rt_err(
                format!("operator {op:?} needs primitive operands"),
                span,
            )),
        },
    }
}
