//! Application and specialisation.
//!
//! A call of a module-level function whose arguments hold no closures over
//! IR variables becomes a call of an IR function specialised for the
//! arguments' shapes (and the identities of function arguments), memoised
//! by that key. Every other call (lambdas, local functions, module-level
//! functions given such closures, and functions that return closures) is
//! inlined at the call site, where the closures' variables are in scope.
//! A recursive function (which inlining would unfold forever) is always
//! specialised: closures given to it that capture IR variables are lifted
//! ([`crate::captures`]), their captured values becoming parameters. A
//! nesting limit turns any other unbounded unfolding into an error.

use std::rc::Rc;

use ir::{Exp, Function, Operand, Param, PrimType};
use syntax::ast::{self, Expr, TypeExpKind};

use crate::captures::Lifted;
use crate::cx::Cx;
use crate::env::Env;
use crate::error::{IResult, InternaliseError};
use crate::exprs::project;
use crate::fb::{Fb, sc};
use crate::patterns::Sizes;
use crate::result_sizes::{self, KnownDim};
use crate::value::{Closure, FunDef, T, V};

/// How deeply calls may nest before the program is taken to be recursive.
const MAX_DEPTH: usize = 400;

/// A specialised function: what its calls need to know of it.
#[derive(Clone, Debug)]
pub(crate) struct Specialised {
    /// The IR function.
    pub fid: ir::FunId,
    /// The shape of its result.
    pub ret: T,
    /// What every call knows of each of its result's dimensions
    /// ([`crate::result_sizes`]).
    pub dims: Vec<Option<KnownDim>>,
}

/// Component `i` of a pair.
fn project_index(v: V, i: usize, span: syntax::Span) -> IResult<V> {
    match v {
        V::Tuple(mut vs) if i < vs.len() => Ok(vs.swap_remove(i)),
        _ => Err(InternaliseError::at("expected a pair", span)),
    }
}

/// Is a parameter pattern declared unique (`*t`)?
pub(crate) fn unique_param(p: &ast::Pat) -> bool {
    match &p.kind {
        ast::PatKind::Ascribed(_, t) => matches!(t.kind, TypeExpKind::Unique(_)),
        ast::PatKind::Attr(_, p) => unique_param(p),
        _ => false,
    }
}

/// Is every array in a declared return type unique (`*t`, or a tuple or
/// record of unique types and scalars)?
fn unique_result(t: &ast::TypeExp) -> bool {
    match &t.kind {
        TypeExpKind::Unique(_) => true,
        TypeExpKind::Tuple(ts) => !ts.is_empty() && ts.iter().all(unique_result),
        TypeExpKind::Record(fs) => !fs.is_empty() && fs.iter().all(|(_, t)| unique_result(t)),
        TypeExpKind::Existential(_, t) => unique_result(t),
        _ => false,
    }
}

/// Is the value a local function or lambda?
fn is_lambda(v: &V) -> bool {
    matches!(v, V::Fun(c) if matches!(&**c, Closure::Def { top: false, .. }))
}

/// Does a type mention a function type?
fn has_arrow(t: &ast::TypeExp) -> bool {
    match &t.kind {
        TypeExpKind::Arrow(..) => true,
        TypeExpKind::Tuple(ts) => ts.iter().any(has_arrow),
        TypeExpKind::Record(fs) => fs.iter().any(|(_, t)| has_arrow(t)),
        TypeExpKind::Unique(t) | TypeExpKind::Existential(_, t) => has_arrow(t),
        _ => false,
    }
}

impl Cx {
    /// Enters a call.
    pub(crate) fn enter(&mut self, span: syntax::Span) -> IResult<()> {
        self.depth += 1;
        if self.depth > MAX_DEPTH {
            self.depth -= 1;
            return Err(InternaliseError::unsupported("recursive functions", span));
        }
        Ok(())
    }

    /// Attaches the size arguments recorded for the use sites `uses` to a
    /// function with size parameters.
    pub(crate) fn with_size_args(&mut self, f: V, uses: &[&Expr], env: &Env) -> V {
        let V::Fun(c) = &f else { return f };
        let (base, args, mut sizes) = match &**c {
            Closure::Partial { f, args, sizes } => (f.clone(), args.clone(), sizes.clone()),
            _ => (c.clone(), Vec::new(), Vec::new()),
        };
        let Closure::Def { def, .. } = &*base else {
            return f;
        };
        if def.size_names.is_empty() {
            return f;
        }
        let def = def.clone();
        for u in uses {
            let Some(list) = self.size_args.get(&(u.span.file, u.id)).cloned() else {
                continue;
            };
            for (n, x) in list.iter() {
                if !def.size_names.contains(n) || sizes.iter().any(|(m, _)| m == n) {
                    continue;
                }
                if let Ok(v @ V::Leaf(_)) = self.expr(x, env) {
                    sizes.push((n.clone(), v));
                }
            }
        }
        if sizes.is_empty() {
            return f;
        }
        V::Fun(Rc::new(Closure::Partial {
            f: base,
            args,
            sizes,
        }))
    }

    /// Applies a function value to arguments.
    pub(crate) fn apply(&mut self, f: V, args: Vec<V>, span: syntax::Span) -> IResult<V> {
        if args.is_empty() {
            return Ok(f);
        }
        let V::Fun(c) = f else {
            return Err(InternaliseError::at(
                "applying a value that is not a function",
                span,
            ));
        };
        let (base, mut all, sizes) = match &*c {
            Closure::Partial {
                f,
                args: prev,
                sizes,
            } => (f.clone(), prev.clone(), sizes.clone()),
            _ => (c.clone(), Vec::new(), Vec::new()),
        };
        all.extend(args);
        let arity = base.arity();
        if all.len() < arity {
            return Ok(V::Fun(Rc::new(Closure::Partial {
                f: base,
                args: all,
                sizes,
            })));
        }
        let rest = all.split_off(arity);
        let result = self.call(&base, all, &sizes, span)?;
        if rest.is_empty() {
            Ok(result)
        } else {
            self.apply(result, rest, span)
        }
    }

    /// Calls closure `c` with all its arguments and the size arguments known.
    pub(crate) fn call(
        &mut self,
        c: &Rc<Closure>,
        args: Vec<V>,
        sizes: &[(ast::Name, V)],
        span: syntax::Span,
    ) -> IResult<V> {
        match &**c {
            Closure::Def { def, env, top, .. } => {
                let key = Rc::as_ptr(def) as usize;
                // A recursive function cannot be inlined (that would not
                // terminate), so it is specialised also for lambdas and
                // partial applications that capture no IR variable, and
                // for lambdas that do, lifted: what they capture becomes
                // parameters.
                let recursive = *top
                    && def.recursive
                    && def
                        .name
                        .as_ref()
                        .is_some_and(|n| self.mentions_name(&def.body, n));
                let lifted: Vec<Option<Lifted>> = args
                    .iter()
                    .map(|a| {
                        // Lambdas are checked even when their text names no
                        // local variable: inferred size arguments may.
                        let capturing = a.has_ir_var() && a.has_local_fun();
                        if recursive && (capturing || is_lambda(a)) {
                            self.lift(a)
                        } else {
                            None
                        }
                    })
                    .collect();
                let local_fun = |(a, l): (&V, &Option<Lifted>)| {
                    if recursive {
                        a.has_ir_var() && a.has_local_fun() && l.is_none()
                    } else {
                        a.has_local_fun()
                    }
                };
                if recursive && args.iter().zip(&lifted).any(local_fun) {
                    return Err(InternaliseError::unsupported(
                        "a recursive function given a closure over a local function",
                        span,
                    ));
                }
                let specialise = *top
                    && !args.iter().zip(&lifted).any(local_fun)
                    && !def.ret.as_ref().is_some_and(has_arrow)
                    && !self.closure_results.contains(&key);
                // A recursive function sees itself.
                let env = match &def.name {
                    Some(n) if def.recursive => env.bind(n.clone(), V::Fun(c.clone())),
                    _ => env.clone(),
                };
                let env = &env;
                self.enter(span)?;
                let r = if specialise {
                    // A function found to return a closure is inlined
                    // instead, where the closure's variables are in scope.
                    match self.specialise(c, def, env, args.clone(), &lifted, sizes) {
                        Err(_) if self.closure_results.contains(&key) => {
                            self.inline(def, env, args, sizes)
                        }
                        r => r,
                    }
                } else {
                    self.inline(def, env, args, sizes)
                };
                self.depth -= 1;
                r
            }
            Closure::Intrinsic { name, .. } => self.intrinsic(name, args, span),
            Closure::Op(name) => {
                let [a, b] = &args[..] else {
                    return Err(InternaliseError::at("operator arity", span));
                };
                self.builtin_binop(name, a, b, span)
            }
            Closure::Flip { f, y } => {
                let x = args.into_iter().next().unwrap_or_else(V::unit);
                self.apply(f.clone(), vec![x, y.clone()], span)
            }
            Closure::Project(fields) => {
                let v = args.into_iter().next().unwrap_or_else(V::unit);
                let ids: Vec<ast::Ident> = fields
                    .iter()
                    .map(|n| ast::Ident {
                        name: n.clone(),
                        span,
                    })
                    .collect();
                let refs: Vec<&ast::Ident> = ids.iter().collect();
                project(v, &refs)
            }
            Closure::Index(idx) => {
                let v = args.into_iter().next().unwrap_or_else(V::unit);
                self.index(&v, idx, span)
            }
            Closure::Path(path) => {
                let v = args.into_iter().next().unwrap_or_else(V::unit);
                self.follow_path(v, path, span)
            }
            Closure::Deriv { forward, f, x } => {
                let d = args.into_iter().next().unwrap_or_else(V::unit);
                let r = self.ad(*forward, f, x, &d, span)?;
                project_index(r, 1, span)
            }
            Closure::Partial { .. } => {
                let f = V::Fun(c.clone());
                self.apply(f, args, span)
            }
        }
    }

    /// Binds parameters and size names for a call.
    fn bind_params(
        &mut self,
        def: &FunDef,
        env: &Env,
        args: Vec<V>,
        sizes: &[(ast::Name, V)],
    ) -> IResult<Env> {
        let mut sz = Sizes::new(def.size_names.clone());
        let mut env = env.clone();
        for (p, a) in def.params.iter().zip(args) {
            env = self.bind_pat(p, a, env, &mut sz)?;
        }
        for (n, v) in sizes {
            sz.bind(n.clone(), v.clone());
        }
        if !sz.deferred.is_empty() {
            self.solve_sizes(&mut sz, &env)?;
        }
        Ok(sz.bind_all(env))
    }

    fn inline(
        &mut self,
        def: &FunDef,
        env: &Env,
        args: Vec<V>,
        sizes: &[(ast::Name, V)],
    ) -> IResult<V> {
        let env = self.bind_params(def, env, args, sizes)?;
        self.expr(&def.body, &env)
    }

    fn specialise(
        &mut self,
        c: &Rc<Closure>,
        def: &Rc<FunDef>,
        env: &Env,
        args: Vec<V>,
        lifted: &[Option<Lifted>],
        sizes: &[(ast::Name, V)],
    ) -> IResult<V> {
        // The arguments as the callee's declared return type sees them
        // (a lifted closure's captured values aside).
        let declared_env = match &def.ret {
            Some(_) if lifted.iter().all(Option::is_none) => Some(args.clone()),
            _ => None,
        };
        // A lifted closure is passed as the values it captures.
        let args: Vec<V> = args
            .into_iter()
            .zip(lifted.iter().chain(std::iter::repeat(&None)))
            .map(|(a, l)| l.as_ref().map_or(a, Lifted::values))
            .collect();
        let shapes: Vec<T> = args.iter().map(|a| a.shape(&self.fb)).collect();
        // Size arguments not determined by the parameters travel as extra
        // `i64` parameters.
        let extra: Vec<(ast::Name, Operand)> = sizes
            .iter()
            .filter_map(|(n, v)| v.scalar().map(|o| (n.clone(), o)))
            .collect();
        let mut key = format!("{:p}|", Rc::as_ptr(c));
        for s in &shapes {
            s.key(&mut key);
            key.push('|');
        }
        for (n, _) in &extra {
            key.push_str(n);
            key.push(',');
        }
        for (i, l) in lifted.iter().enumerate() {
            if let Some(l) = l {
                key.push_str(&format!("|{i}:{}", l.key()));
                l.kept_alive(&mut self.keep_alive);
            }
        }
        let spec = match self.memo.get(&key) {
            Some(x) => x.clone(),
            None => {
                let x = self.build_function(def, env, &shapes, lifted, &extra, &key)?;
                self.memo.insert(key, x.clone());
                self.keep_alive.push(crate::cx::KeptAlive::Specialisation(
                    c.clone(),
                    shapes.clone(),
                ));
                x
            }
        };
        let mut ops = Vec::new();
        // The sizes the arguments pass, one per IR argument.
        let mut arg_sizes = Vec::new();
        for (a, p) in args.iter().zip(&def.params) {
            arg_sizes.extend(result_sizes::arg_sizes(a, &self.fb));
            let flat = a.flat();
            if unique_param(p) {
                for o in flat {
                    ops.push(match o {
                        Operand::Var(v) => Operand::Var(self.fb.own(v)?),
                        o => o,
                    });
                }
            } else {
                ops.extend(flat);
            }
        }
        for (_, o) in &extra {
            let o = self.as_i64(*o)?;
            arg_sizes.push(result_sizes::i64_size(&o, &self.fb));
            ops.push(o);
        }
        let known = result_sizes::call_dims(&spec.dims, &arg_sizes);
        let (v, pat) = spec
            .ret
            .instantiate_known(&mut self.fb, "r", &known, &mut |fb, n, t| fb.var(n, t));
        let fresh = def.ret.as_ref().is_some_and(unique_result);
        self.fb.push(
            pat.clone(),
            Exp::Apply {
                fun: spec.fid,
                args: ops,
            },
        );
        // The sizes the declared return type gives the call's result, for
        // a SOAC over calls that needs them without running one
        // (`crate::invariant`). The parameters are bound to the arguments
        // in a scope of their own, whose statements nothing uses.
        if let (Some(rt), Some(orig)) = (&def.ret, declared_env) {
            self.fb.begin();
            let penv = self.bind_params(def, env, orig, sizes);
            let mut sizes_of = std::collections::HashMap::new();
            if let Ok(penv) = &penv {
                self.declared_result_sizes(&v, rt, penv, &pat, &mut Vec::new(), &mut sizes_of);
            }
            let discarded = self.fb.end(Vec::new());
            let mut gone = std::collections::HashSet::new();
            ir::uses::body_binds(&discarded, &mut gone);
            for (d, e) in sizes_of {
                if !e.mentions_any(&gone) {
                    self.fb.declared_sizes.insert(d, e);
                }
            }
        }
        // Results of a unique return type share nothing with the arguments;
        // any other result may alias them and is copied before it is consumed.
        if fresh {
            for p in pat {
                self.fb.mark_owned(p);
            }
        }
        Ok(v)
    }

    /// Does the source text of `e` contain `name` as a word?
    fn mentions_name(&self, e: &Expr, name: &str) -> bool {
        let text = self.span_text(e.span);
        let word = |c: char| c.is_alphanumeric() || c == '_' || c == '\'';
        text.match_indices(name).any(|(i, _)| {
            let before = text[..i].chars().next_back();
            let after = text[i + name.len()..].chars().next();
            !before.is_some_and(word) && !after.is_some_and(word)
        })
    }

    /// Builds the specialisation of `def` for argument shapes `shapes`.
    fn build_function(
        &mut self,
        def: &Rc<FunDef>,
        env: &Env,
        shapes: &[T],
        lifted: &[Option<Lifted>],
        extra: &[(ast::Name, Operand)],
        key: &str,
    ) -> IResult<Specialised> {
        let base = def.name.as_deref().unwrap_or("lambda");
        let name = self.fun_name(base);
        // A recursive function is registered before its body is built,
        // with the result shape of its declared type, so that its calls
        // of itself find it.
        let mut declared = None;
        if def.recursive
            && let Some(rt) = &def.ret
            && self.mentions_name(&def.body, base)
            && let Ok(t) = self.type_template(rt, env)
        {
            let fid = self.prog.functions.push(Function {
                name: name.clone(),
                attrs: def.attrs.clone(),
                params: Vec::new(),
                ret: Vec::new(),
                body: ir::Body {
                    stms: Vec::new(),
                    result: Vec::new(),
                },
                vars: Default::default(),
            });
            let placeholder = Specialised {
                fid,
                ret: t.clone(),
                dims: Vec::new(),
            };
            self.memo.insert(key.to_string(), placeholder);
            declared = Some((fid, t));
        }
        let saved = std::mem::replace(&mut self.fb, Fb::new());
        let r = self.build_body(
            def,
            env,
            shapes,
            lifted,
            extra,
            declared.as_ref().map(|d| &d.1),
        );
        let fb = std::mem::replace(&mut self.fb, saved);
        let (params, body, ret_t, ret, dims) = match r {
            Ok(x) => x,
            Err(e) => {
                self.memo.remove(key);
                return Err(e);
            }
        };
        let f = Function {
            name,
            attrs: def.attrs.clone(),
            params,
            ret,
            body,
            vars: fb.arena(),
        };
        let fid = match declared {
            Some((fid, _)) => {
                self.prog.functions[fid] = f;
                fid
            }
            None => self.prog.functions.push(f),
        };
        Ok(Specialised {
            fid,
            ret: ret_t,
            dims,
        })
    }

    /// The parameters, body, result shape and IR result types of a
    /// specialisation, and what its calls know of its result's dimensions.
    #[allow(clippy::type_complexity)]
    fn build_body(
        &mut self,
        def: &Rc<FunDef>,
        env: &Env,
        shapes: &[T],
        lifted: &[Option<Lifted>],
        extra: &[(ast::Name, Operand)],
        declared: Option<&T>,
    ) -> IResult<(
        Vec<Param>,
        ir::Body,
        T,
        Vec<ir::Type>,
        Vec<Option<KnownDim>>,
    )> {
        let mut params = Vec::new();
        let mut args = Vec::new();
        for (t, p) in shapes.iter().zip(&def.params) {
            let unique = unique_param(p);
            let (v, vars) = t.instantiate(&mut self.fb, "p", &mut |fb, n, ty| {
                let u = unique && !ty.shape.is_empty();
                fb.param(n, ty, u).var
            });
            for var in vars {
                let u = unique && !self.fb.ty(var).shape.is_empty();
                params.push(Param { var, unique: u });
            }
            let v = match lifted.get(args.len()) {
                Some(Some(l)) => l.rebuild(v),
                _ => v,
            };
            args.push(v);
        }
        let mut sizes = Vec::new();
        for (n, _) in extra {
            let p = self.fb.param(n, sc(PrimType::I64), false);
            params.push(p);
            sizes.push((n.clone(), V::Leaf(Operand::Var(p.var))));
        }
        let env = self.bind_params(def, env, args, &sizes)?;
        let mut result = self.expr(&def.body, &env)?;
        if let Some(t) = declared {
            let joined = T::join(&result.shape(&self.fb), t).filter(|j| {
                let (mut a, mut b) = (String::new(), String::new());
                j.key(&mut a);
                t.key(&mut b);
                a == b
            });
            let Some(j) = joined else {
                return Err(InternaliseError::unsupported(
                    "a recursive function whose result differs in shape from its declared type",
                    def.body.span,
                ));
            };
            result = self.widen(result, &j, def.body.span)?;
        }
        if result.has_local_fun() {
            self.closure_results.insert(Rc::as_ptr(def) as usize);
            self.keep_alive.push(crate::cx::KeptAlive::Def(def.clone()));
            return Err(InternaliseError::unsupported(
                "functions that return closures",
                def.body.span,
            ));
        }
        let ret_t = result.shape(&self.fb);
        let mut ret = vec![sc(PrimType::I64); ret_t.num_dims()];
        ret_t.leaf_types_any(0, &mut ret);
        let dims = result_sizes::known_dims(&result, &params);
        let body = self.fb.end(result.flat());
        Ok((params, body, ret_t, ret, dims))
    }
}
