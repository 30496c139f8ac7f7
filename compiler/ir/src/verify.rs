//! The IR type checker.
//!
//! [`verify`] checks a whole program and returns every violation it finds.
//! The invariants, and nothing else, are:
//!
//! **Program**
//! - Function names are distinct.
//! - Every entry point names a function of the program, and the counts of
//!   its external parameters and results add up to the function's numbers
//!   of parameters and results.
//!
//! **Scoping** (per function; lambdas and loops share its variables)
//! - Every variable id used belongs to the function.
//! - Every variable is bound exactly once: as a function, loop or lambda
//!   parameter, a `for` loop index, or an element of one pattern.
//! - Every use of a variable (as an operand, array, size in a type, …) is
//!   in scope: bound earlier in the same body or an enclosing one, as a
//!   parameter of an enclosing lambda or loop, or of the function. A
//!   pattern element's type may name the other elements of the same
//!   pattern; a loop parameter's type may name the other loop parameters.
//! - The sizes in a function's result types are constants, `?`, or its
//!   parameters.
//! - Every size variable has type `i64`.
//!
//! **Types**
//! - Each expression's operands have the types it requires, and the pattern
//!   has one variable per result, of a compatible type ([`crate::typeof_`]
//!   lists the rules per expression). Types are compatible when element type,
//!   rank and accumulator-ness agree and no dimension is known to differ
//!   (two different constants).
//! - A body's results match the declared types: a function's result types,
//!   a lambda's result types, both branches of an `if` the pattern, a loop
//!   body the loop parameters.
//! - Loop parameters match their initial values; a `for` bound is an
//!   integer and a `while` condition is a `bool` loop parameter.
//! - SOACs: map lambdas take the row types of the inputs (accumulators
//!   whole) and return what the scans, reductions, histograms or scatter
//!   destinations take; scan, reduce, hist and accumulator operators take
//!   `2k` and return `k` values of the element types, which the neutral
//!   elements have; `with_acc` lambdas take and first return one
//!   accumulator per input.
//! - `custom_vjp`: the function takes the arguments' types; the derivative
//!   takes the function's result types twice (results, then their
//!   adjoints) and returns the arguments' types.
//!
//! **Consumption** (uniqueness)
//! - Consuming uses are: the array of an in-place `update`, the
//!   destinations of `scatter` and `hist`, the inputs of `with_acc`, the
//!   accumulator of `update_acc`, an accumulator passed to a `screma`, a
//!   `screma` input whose lambda parameter is unique, an argument for a
//!   unique parameter of a function, and the initial value of a unique loop
//!   parameter.
//! - A consumed array, and every variable aliasing it (made from it by a
//!   plain copy `let y = x`, a slice, `reshape` or `rearrange`), is not used
//!   afterwards; a consumption in one branch of an `if` counts after the
//!   `if`.
//! - Only consumable variables are consumed: not a non-unique function,
//!   loop or lambda parameter (accumulators are always consumable), and not
//!   a variable bound outside the innermost enclosing loop or lambda body.
//! - The value written by an `update` does not alias the updated array.

use std::collections::HashMap;
use std::fmt;

use values::PrimType;

use crate::ids::{EntityId, VarId};
use crate::print::type_string;
use crate::syntax::*;
use crate::typeof_::TypeCtx;
use crate::types::{Size, Span, Type};

/// One violated invariant.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct VerifyError {
    /// The function it is in (empty for program-level errors).
    pub function: String,
    /// The span of the statement it is in ([`Span::NONE`] if none).
    pub span: Span,
    /// What is wrong.
    pub message: String,
}

impl fmt::Display for VerifyError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if !self.function.is_empty() {
            write!(f, "in `{}`: ", self.function)?;
        }
        f.write_str(&self.message)?;
        if !self.span.is_none() {
            write!(f, " (at {})", self.span)?;
        }
        Ok(())
    }
}

/// Checks every invariant in the module doc.
pub fn verify(p: &Program) -> Result<(), Vec<VerifyError>> {
    let mut errors = Vec::new();
    let mut names = HashMap::new();
    let perr = |message: String| VerifyError {
        function: String::new(),
        span: Span::NONE,
        message,
    };
    for (_, f) in p.functions.iter() {
        if names.insert(f.name.as_str(), ()).is_some() {
            errors.push(perr(format!("function `{}` is defined twice", f.name)));
        }
    }
    for e in &p.entries {
        match p.functions.get(e.fun) {
            None => errors.push(perr(format!("entry point `{}` names no function", e.name))),
            Some(f) => {
                let np: u64 = e.params.iter().map(|v| u64::from(v.values)).sum();
                let nr: u64 = e.results.iter().map(|v| u64::from(v.values)).sum();
                if np != f.params.len() as u64 || nr != f.ret.len() as u64 {
                    errors.push(perr(format!(
                        "entry point `{}` covers {np} parameters and {nr} results, but `{}` has {} and {}",
                        e.name,
                        f.name,
                        f.params.len(),
                        f.ret.len()
                    )));
                }
            }
        }
    }
    for (_, f) in p.functions.iter() {
        FnChecker::new(p, f, &mut errors).function();
    }
    if errors.is_empty() {
        Ok(())
    } else {
        Err(errors)
    }
}

struct FnChecker<'a> {
    f: &'a Function,
    ctx: TypeCtx<'a>,
    errors: &'a mut Vec<VerifyError>,
    /// The nesting level a variable was bound at, while in scope.
    level: Vec<Option<u32>>,
    bound_ever: Vec<bool>,
    scope: Vec<VarId>,
    cur_level: u32,
    /// Variables bound below this level are free in the current loop or
    /// lambda body.
    barrier: u32,
    consumable: Vec<bool>,
    roots: Vec<Vec<VarId>>,
    consumed: HashMap<VarId, Span>,
    span: Span,
}

impl<'a> FnChecker<'a> {
    fn new(p: &'a Program, f: &'a Function, errors: &'a mut Vec<VerifyError>) -> Self {
        let n = f.vars.len();
        FnChecker {
            f,
            ctx: TypeCtx {
                vars: &f.vars,
                functions: Some(&p.functions),
            },
            errors,
            level: vec![None; n],
            bound_ever: vec![false; n],
            scope: Vec::new(),
            cur_level: 0,
            barrier: 0,
            consumable: vec![true; n],
            roots: vec![Vec::new(); n],
            consumed: HashMap::new(),
            span: Span::NONE,
        }
    }

    fn error(&mut self, message: String) {
        self.errors.push(VerifyError {
            function: self.f.name.clone(),
            span: self.span,
            message,
        });
    }

    fn name(&self, v: VarId) -> String {
        self.ctx.name(v)
    }

    fn valid(&mut self, v: VarId) -> bool {
        if v.index() < self.f.vars.len() {
            true
        } else {
            self.error(format!("variable {v:?} does not belong to the function"));
            false
        }
    }

    fn roots_of(&self, v: VarId) -> Vec<VarId> {
        match self.roots.get(v.index()) {
            Some(r) if !r.is_empty() => r.clone(),
            _ => vec![v],
        }
    }

    /// Binds a group of variables (a pattern or parameter list) whose
    /// types may refer to each other.
    fn bind_group(&mut self, vs: &[(VarId, bool)]) {
        let mut ok = Vec::new();
        for &(v, consumable) in vs {
            if !self.valid(v) {
                continue;
            }
            let i = v.index();
            if self.bound_ever[i] {
                self.error(format!("`{}` is bound more than once", self.name(v)));
            }
            self.bound_ever[i] = true;
            self.level[i] = Some(self.cur_level);
            self.consumable[i] = consumable || self.f.vars[v].ty.acc;
            self.roots[i] = Vec::new();
            self.scope.push(v);
            ok.push(v);
        }
        for v in ok {
            let t = self.f.vars[v].ty.clone();
            self.sizes_in_scope(&t, &format!("the type of `{}`", self.name(v)));
        }
    }

    fn sizes_in_scope(&mut self, t: &Type, what: &str) {
        for s in &t.shape {
            if let Size::Var(sv) = s {
                if !self.valid(*sv) {
                    continue;
                }
                if self.level[sv.index()].is_none() {
                    self.error(format!(
                        "size `{}` in {what} is not in scope",
                        self.name(*sv)
                    ));
                } else if !self.f.vars[*sv].ty.is_prim(PrimType::I64) {
                    self.error(format!(
                        "size `{}` in {what} has type {}, not i64",
                        self.name(*sv),
                        type_string(&self.f.vars, &self.f.vars[*sv].ty)
                    ));
                }
            }
        }
    }

    fn enter(&mut self) -> usize {
        self.cur_level += 1;
        self.scope.len()
    }

    fn exit(&mut self, mark: usize) {
        for v in self.scope.drain(mark..) {
            self.level[v.index()] = None;
        }
        self.cur_level -= 1;
    }

    fn use_var(&mut self, v: VarId) {
        if !self.valid(v) {
            return;
        }
        if self.level[v.index()].is_none() {
            let why = if self.bound_ever[v.index()] {
                "is used outside its scope"
            } else {
                "is used before it is bound"
            };
            self.error(format!("`{}` {why}", self.name(v)));
            return;
        }
        for r in self.roots_of(v) {
            if let Some(&at) = self.consumed.get(&r) {
                let also = if r == v {
                    String::new()
                } else {
                    format!(" (through `{}`)", self.name(r))
                };
                let at = if at.is_none() {
                    String::new()
                } else {
                    format!(" at {at}")
                };
                self.error(format!(
                    "`{}` is used after being consumed{at}{also}",
                    self.name(v)
                ));
            }
        }
    }

    fn use_op(&mut self, o: &Operand) {
        if let Operand::Var(v) = o {
            self.use_var(*v);
        }
    }

    fn use_ops(&mut self, os: &[Operand]) {
        for o in os {
            self.use_op(o);
        }
    }

    fn consume(&mut self, v: VarId) {
        if !self.valid(v) || self.level[v.index()].is_none() {
            return;
        }
        for r in self.roots_of(v) {
            let Some(level) = self.level.get(r.index()).copied().flatten() else {
                continue;
            };
            if !self.consumable[r.index()] {
                self.error(format!(
                    "`{}` is consumed but is a non-unique parameter",
                    self.name(r)
                ));
            } else if level < self.barrier {
                self.error(format!(
                    "`{}` is consumed inside a loop or lambda body but bound outside it",
                    self.name(r)
                ));
            }
            self.consumed.insert(r, self.span);
        }
    }

    fn consume_op(&mut self, o: &Operand) {
        if let Operand::Var(v) = o
            && self.f.vars.get(*v).is_some_and(|i| !i.ty.is_scalar())
        {
            self.consume(*v);
        }
    }

    fn function(&mut self) {
        let f = self.f;
        let params: Vec<(VarId, bool)> = f.params.iter().map(|p| (p.var, p.unique)).collect();
        self.bind_group(&params);
        for t in &f.ret {
            for s in &t.shape {
                if let Size::Var(v) = s
                    && !f.params.iter().any(|p| p.var == *v)
                {
                    self.error(format!(
                        "size `{}` in a result type is not a parameter",
                        self.name(*v)
                    ));
                }
            }
        }
        self.body(&f.body);
        self.span = Span::NONE;
        self.results(&f.body.result, &f.ret, "function result");
    }

    fn results(&mut self, result: &[Operand], expected: &[Type], what: &str) {
        let mut types = Vec::new();
        for o in result {
            match self.ctx.operand(o) {
                Ok(t) => types.push(t),
                Err(e) => return self.error(e),
            }
        }
        self.check_types(&types, expected, what);
    }

    fn check_types(&mut self, actual: &[Type], expected: &[Type], what: &str) {
        if actual.len() != expected.len() {
            return self.error(format!(
                "{what}: {} values where {} are expected",
                actual.len(),
                expected.len()
            ));
        }
        for (i, (a, e)) in actual.iter().zip(expected).enumerate() {
            if !a.compatible(e) {
                self.error(format!(
                    "{what} {i} has type {}, expected {}",
                    type_string(&self.f.vars, a),
                    type_string(&self.f.vars, e)
                ));
            }
        }
    }

    fn body(&mut self, b: &Body) {
        for s in &b.stms {
            self.stm(s);
        }
        self.use_ops(&b.result);
    }

    fn nested_body(&mut self, b: &Body, expected: &[Type], what: &str) {
        let mark = self.enter();
        self.body(b);
        self.results(&b.result, expected, what);
        self.exit(mark);
    }

    fn lambda(&mut self, l: &Lambda, what: &str) {
        let mark = self.enter();
        let saved = self.barrier;
        self.barrier = self.cur_level;
        let params: Vec<(VarId, bool)> = l.params.iter().map(|p| (p.var, p.unique)).collect();
        self.bind_group(&params);
        for t in &l.ret {
            self.sizes_in_scope(t, &format!("a {what} result type"));
        }
        self.body(&l.body);
        self.results(&l.body.result, &l.ret, &format!("{what} result"));
        self.barrier = saved;
        self.exit(mark);
    }

    fn pat_types(&self, s: &Stm) -> Option<Vec<Type>> {
        s.pat
            .iter()
            .map(|v| self.f.vars.get(*v).map(|i| i.ty.clone()))
            .collect()
    }

    fn stm(&mut self, s: &Stm) {
        self.span = s.span;
        let Some(pat_types) = self.pat_types(s) else {
            return self.error("pattern variable does not belong to the function".into());
        };
        self.uses(&s.exp, &pat_types);
        self.span = s.span;
        match self.ctx.exp_types(&s.exp) {
            Ok(ts) => {
                if ts.len() != pat_types.len() {
                    self.error(format!(
                        "pattern binds {} variables but the expression has {} results",
                        pat_types.len(),
                        ts.len()
                    ));
                } else {
                    for (i, (v, t)) in s.pat.iter().zip(&ts).enumerate() {
                        if !t.compatible(&pat_types[i]) {
                            self.error(format!(
                                "`{}` is declared {} but the expression gives {}",
                                self.name(*v),
                                type_string(&self.f.vars, &pat_types[i]),
                                type_string(&self.f.vars, t)
                            ));
                        }
                    }
                }
            }
            Err(m) => self.error(m),
        }
        self.consumes(&s.exp);
        let group: Vec<(VarId, bool)> = s.pat.iter().map(|v| (*v, true)).collect();
        self.bind_group(&group);
        let alias_of = match &s.exp {
            Exp::Atom(Operand::Var(v)) => Some(*v),
            Exp::Index(arr, _) | Exp::Reshape { arr, .. } | Exp::Rearrange { arr, .. } => {
                Some(*arr)
            }
            _ => None,
        };
        if let (Some(src), [v]) = (alias_of, s.pat.as_slice())
            && self.f.vars.get(*v).is_some_and(|i| !i.ty.is_scalar())
            && src.index() < self.roots.len()
        {
            self.roots[v.index()] = self.roots_of(src);
        }
    }

    /// Checks the uses of an expression and its nested bodies.
    fn uses(&mut self, e: &Exp, pat: &[Type]) {
        match e {
            Exp::Atom(o) | Exp::UnOp(_, o) | Exp::Convert(_, _, o) => self.use_op(o),
            Exp::BinOp(_, x, y) | Exp::Cmp(_, x, y) => {
                self.use_op(x);
                self.use_op(y);
            }
            Exp::Math(_, args) => self.use_ops(args),
            Exp::Index(arr, idx) => {
                self.use_var(*arr);
                self.dim_uses(idx);
            }
            Exp::Update(arr, idx, v) => {
                self.use_var(*arr);
                self.dim_uses(idx);
                self.use_op(v);
                if let Operand::Var(val) = v
                    && val.index() < self.f.vars.len()
                    && arr.index() < self.f.vars.len()
                {
                    let vr = self.roots_of(*val);
                    if self.roots_of(*arr).iter().any(|r| vr.contains(r)) {
                        self.error(format!(
                            "the value written into `{}` aliases it",
                            self.name(*arr)
                        ));
                    }
                }
            }
            Exp::Iota { n, start, step } => self.use_ops(&[*n, *start, *step]),
            Exp::Replicate { shape, value } => {
                self.shape_uses(shape);
                self.use_op(value);
            }
            Exp::Reshape { shape, arr } => {
                self.shape_uses(shape);
                self.use_var(*arr);
            }
            Exp::Rearrange { arr, .. } | Exp::Copy(arr) => self.use_var(*arr),
            Exp::Concat { len, arrs, .. } => {
                self.shape_uses(&[*len]);
                for a in arrs {
                    self.use_var(*a);
                }
            }
            Exp::Scratch { shape, .. } => self.shape_uses(shape),
            Exp::If {
                cond,
                then_body,
                else_body,
            } => {
                self.use_op(cond);
                let before = self.consumed.clone();
                self.nested_body(then_body, pat, "`then` branch result");
                let after_then = std::mem::replace(&mut self.consumed, before);
                self.nested_body(else_body, pat, "`else` branch result");
                self.consumed.extend(after_then);
            }
            Exp::Loop { params, form, body } => {
                for (_, init) in params {
                    self.use_op(init);
                }
                let mark = self.enter();
                let saved = self.barrier;
                self.barrier = self.cur_level;
                let group: Vec<(VarId, bool)> =
                    params.iter().map(|(p, _)| (p.var, p.unique)).collect();
                self.bind_group(&group);
                let mut ptypes = Vec::new();
                for (i, (p, init)) in params.iter().enumerate() {
                    let (Ok(pt), Ok(it)) = (self.ctx.var(p.var), self.ctx.operand(init)) else {
                        continue;
                    };
                    if !it.compatible(pt) {
                        self.error(format!(
                            "loop parameter {i} `{}` has type {} but its initial value {}",
                            self.name(p.var),
                            type_string(&self.f.vars, pt),
                            type_string(&self.f.vars, &it)
                        ));
                    }
                    ptypes.push(pt.clone());
                }
                match form {
                    LoopForm::For { i, bound } => {
                        self.use_op(bound);
                        self.bind_group(&[(*i, false)]);
                        if let (Ok(it), Ok(bt)) = (self.ctx.var(*i), self.ctx.operand(bound))
                            && !it.is_prim(bt.elem)
                        {
                            self.error(format!(
                                "loop index `{}` does not have the type of the bound",
                                self.name(*i)
                            ));
                        }
                    }
                    LoopForm::While { cond } => {
                        if !params.iter().any(|(p, _)| p.var == *cond) {
                            self.error(format!(
                                "while condition `{}` is not a loop parameter",
                                self.name(*cond)
                            ));
                        } else if !self.ctx.var(*cond).is_ok_and(|t| t.is_prim(PrimType::Bool)) {
                            self.error(format!(
                                "while condition `{}` is not a bool",
                                self.name(*cond)
                            ));
                        }
                    }
                }
                self.body(body);
                if ptypes.len() == params.len() {
                    self.results(&body.result, &ptypes, "loop body result");
                }
                self.barrier = saved;
                self.exit(mark);
            }
            Exp::Apply { args, .. } => self.use_ops(args),
            Exp::Assert { cond, args, .. } => {
                self.use_op(cond);
                self.use_ops(args);
            }
            Exp::Screma(s) => {
                self.use_op(&s.w);
                for i in &s.inputs {
                    self.use_var(*i);
                }
                for sr in s.scans.iter().chain(&s.reduces) {
                    self.use_ops(&sr.neutral);
                    self.lambda(&sr.op, "operator");
                }
                self.lambda(&s.map, "map lambda");
            }
            Exp::Hist(h) => {
                self.use_op(&h.w);
                for i in &h.inputs {
                    self.use_var(*i);
                }
                for op in &h.hists {
                    for d in &op.dests {
                        self.use_var(*d);
                    }
                    self.use_ops(&op.neutral);
                    self.lambda(&op.op, "hist operator");
                }
                self.lambda(&h.map, "hist lambda");
                let dests: Vec<VarId> = h.hists.iter().flat_map(|o| o.dests.clone()).collect();
                self.disjoint(&h.inputs, &dests, "hist");
            }
            Exp::Scatter(s) => {
                self.use_op(&s.w);
                for i in &s.inputs {
                    self.use_var(*i);
                }
                for d in &s.dests {
                    self.use_var(d.arr);
                }
                self.lambda(&s.map, "scatter lambda");
                let dests: Vec<VarId> = s.dests.iter().map(|d| d.arr).collect();
                self.disjoint(&s.inputs, &dests, "scatter");
            }
            Exp::WithAcc(w) => {
                for i in &w.inputs {
                    self.use_var(i.arr);
                    if let Some((op, ne)) = &i.op {
                        self.use_op(ne);
                        self.lambda(op, "accumulator operator");
                    }
                }
                self.lambda(&w.lambda, "with_acc lambda");
            }
            Exp::UpdateAcc { acc, idx, value } => {
                self.use_var(*acc);
                self.use_ops(idx);
                self.use_op(value);
            }
            Exp::Jvp(ad) | Exp::Vjp(ad) => {
                self.use_ops(&ad.primals);
                self.use_ops(&ad.seeds);
                self.lambda(&ad.lambda, "differentiated lambda");
            }
            Exp::CustomVjp(c) => {
                self.use_ops(&c.args);
                self.lambda(&c.f, "custom_vjp function");
                self.lambda(&c.fprime, "custom_vjp derivative");
            }
        }
    }

    fn disjoint(&mut self, inputs: &[VarId], dests: &[VarId], what: &str) {
        for &d in dests {
            if d.index() >= self.f.vars.len() {
                continue;
            }
            let dr = self.roots_of(d);
            for &i in inputs {
                if i.index() < self.f.vars.len() && self.roots_of(i).iter().any(|r| dr.contains(r))
                {
                    self.error(format!(
                        "{what} input `{}` aliases the destination `{}`",
                        self.name(i),
                        self.name(d)
                    ));
                }
            }
        }
    }

    fn dim_uses(&mut self, idx: &[DimIndex]) {
        for d in idx {
            match d {
                DimIndex::Fix(i) => self.use_op(i),
                DimIndex::Range { start, len, stride } => self.use_ops(&[*start, *len, *stride]),
            }
        }
    }

    fn shape_uses(&mut self, shape: &[Size]) {
        for s in shape {
            if let Size::Var(v) = s {
                self.use_var(*v);
            }
        }
    }

    /// Marks what an expression consumes.
    fn consumes(&mut self, e: &Exp) {
        match e {
            Exp::Update(arr, _, _) => self.consume(*arr),
            Exp::Loop { params, .. } => {
                for (p, init) in params {
                    if p.unique {
                        self.consume_op(init);
                    }
                }
            }
            Exp::Apply { fun, args } => {
                let Some(f) = self.ctx.functions.and_then(|fs| fs.get(*fun)) else {
                    return;
                };
                for (p, a) in f.params.iter().zip(args) {
                    if p.unique {
                        self.consume_op(a);
                    }
                }
            }
            Exp::Screma(s) => {
                for (i, input) in s.inputs.iter().enumerate() {
                    let unique = s.map.params.get(i).is_some_and(|p| p.unique);
                    let acc = self.f.vars.get(*input).is_some_and(|v| v.ty.acc);
                    if unique || acc {
                        self.consume(*input);
                    }
                }
            }
            Exp::Hist(h) => {
                for op in &h.hists {
                    for d in &op.dests {
                        self.consume(*d);
                    }
                }
            }
            Exp::Scatter(s) => {
                for d in &s.dests {
                    self.consume(d.arr);
                }
            }
            Exp::WithAcc(w) => {
                for i in &w.inputs {
                    self.consume(i.arr);
                }
            }
            Exp::UpdateAcc { acc, .. } => self.consume(*acc),
            _ => {}
        }
    }
}
