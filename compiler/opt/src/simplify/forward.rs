//! The forward sweep: substitution (copy propagation), the local rules of
//! [`super::rules`], and common-subexpression elimination, in one walk over
//! a function's statements in order.
//!
//! A `copy(x)` whose result is never consumed, of an array `x` that is
//! never consumed either (both closed under aliasing, see
//! [`super::analysis::consumed_vars`]), is `x`: nothing writes to either,
//! so they can share storage. Not when the function's results may alias
//! the copy: the caller may consume a result.

use std::collections::{HashMap, HashSet};

use ir::walk::{Slot, subst_slot, walk_exp_mut};
use ir::{Body, Exp, Function, Lambda, Operand, PrimType, Stm, Type, VarId, VarInfo};

use super::Config;
use super::analysis::{UniqueParams, escaping_vars};
use super::rules::{self, Ctx, Rewrite};

/// The state of one sweep over one function.
pub struct Forward<'a> {
    /// The function's variables (its body is taken out while sweeping).
    pub fun: &'a mut Function,
    pub cfg: Config,
    pub uniq: &'a UniqueParams,
    pub consumed: HashSet<VarId>,
    pub uses: HashMap<VarId, usize>,
    pub subst: HashMap<VarId, Operand>,
    /// What the function's results may alias ([`escaping_vars`]), from
    /// the first body swept: the function's.
    escapes: Option<HashSet<VarId>>,
    defs: HashMap<VarId, Exp>,
    avail: HashMap<String, Vec<VarId>>,
    avail_log: Vec<String>,
    /// Variables known to lie in `[0, bound)` wherever they are in scope:
    /// a `for` loop's index, a SOAC lambda's parameter bound to the
    /// elements of an `iota(bound, 0, 1)`.
    below: HashMap<VarId, Operand>,
    pub changed: bool,
}

impl Ctx for Forward<'_> {
    fn elem(&self, o: &Operand) -> Option<PrimType> {
        match o {
            Operand::Const(c) => Some(c.prim_type()),
            Operand::Var(v) => self
                .fun
                .var_type(*v)
                .filter(|t| t.is_scalar())
                .map(|t| t.elem),
        }
    }

    fn def(&self, v: VarId) -> Option<&Exp> {
        self.defs.get(&v)
    }

    fn uses(&self, v: VarId) -> usize {
        self.uses.get(&v).copied().unwrap_or(0)
    }

    fn fresh(&mut self, hint: &str, t: PrimType) -> VarId {
        self.fun.vars.push(VarInfo {
            name: hint.to_string(),
            ty: Type::scalar(t),
        })
    }

    fn consumed(&self, v: VarId) -> bool {
        self.consumed.contains(&v)
    }

    fn var_type(&self, v: VarId) -> Option<&Type> {
        self.fun.var_type(v)
    }

    fn fresh_array(&mut self, like: VarId, ty: Type) -> VarId {
        let name = format!("{}_kept", self.fun.vars[like].name);
        self.fun.vars.push(VarInfo { name, ty })
    }

    fn known_below(&self, i: &Operand, n: &Operand) -> bool {
        match (i, n) {
            (Operand::Const(c), Operand::Const(b)) => match (c.as_i128(), b.as_i128()) {
                (Some(c), Some(b)) => 0 <= c && c < b,
                _ => false,
            },
            (Operand::Var(v), _) => self.below.get(v) == Some(n),
            _ => false,
        }
    }
}

impl<'a> Forward<'a> {
    /// A sweep over `fun`.
    pub fn new(
        fun: &'a mut Function,
        cfg: Config,
        uniq: &'a UniqueParams,
        consumed: HashSet<VarId>,
        uses: HashMap<VarId, usize>,
    ) -> Self {
        Forward {
            fun,
            cfg,
            uniq,
            consumed,
            uses,
            subst: HashMap::new(),
            escapes: None,
            defs: HashMap::new(),
            avail: HashMap::new(),
            avail_log: Vec::new(),
            below: HashMap::new(),
            changed: false,
        }
    }

    fn bind(&mut self, pat: &[VarId], vals: &[Operand]) {
        for (p, v) in pat.iter().zip(vals) {
            self.subst.insert(*p, *v);
        }
        self.changed = true;
    }

    /// Sweeps a body (and, recursively, every body nested in it).
    pub fn body(&mut self, b: &mut Body) {
        if self.escapes.is_none() {
            self.escapes = Some(escaping_vars(self.fun, b));
        }
        let mark = self.avail_log.len();
        let stms = std::mem::take(&mut b.stms);
        for stm in stms {
            self.stm(stm, &mut b.stms);
        }
        for o in &mut b.result {
            subst_slot(&self.subst, Slot::Operand(o));
        }
        for k in self.avail_log.drain(mark..) {
            self.avail.remove(&k);
        }
    }

    fn lambda(&mut self, l: &mut Lambda) {
        self.body(&mut l.body);
    }

    /// Records that the parameters of `l` bound to inputs that are
    /// `iota(n, 0, 1)` lie in `[0, n)`.
    fn iota_params(&mut self, inputs: &[VarId], l: &Lambda) {
        for (x, p) in inputs.iter().zip(&l.params) {
            if let Some(Exp::Iota {
                n,
                start: Operand::Const(ir::PrimValue::I64(0)),
                step: Operand::Const(ir::PrimValue::I64(1)),
            }) = self.defs.get(x)
            {
                self.below.insert(p.var, *n);
            }
        }
    }

    fn nested(&mut self, e: &mut Exp) {
        match e {
            Exp::Loop {
                form: ir::LoopForm::For { i, bound },
                ..
            } => {
                self.below.insert(*i, *bound);
            }
            Exp::Screma(s) => self.iota_params(&s.inputs, &s.map),
            Exp::Hist(h) => self.iota_params(&h.inputs, &h.map),
            Exp::Scatter(s) => self.iota_params(&s.inputs, &s.map),
            _ => {}
        }
        match e {
            Exp::If {
                then_body,
                else_body,
                ..
            } => {
                self.body(then_body);
                self.body(else_body);
            }
            Exp::Loop { body, .. } => self.body(body),
            Exp::Screma(s) => {
                for sr in s.scans.iter_mut().chain(s.reduces.iter_mut()) {
                    self.lambda(&mut sr.op);
                }
                self.lambda(&mut s.map);
            }
            Exp::Hist(h) => {
                for op in &mut h.hists {
                    self.lambda(&mut op.op);
                }
                self.lambda(&mut h.map);
            }
            Exp::Scatter(s) => self.lambda(&mut s.map),
            Exp::WithAcc(w) => {
                for i in &mut w.inputs {
                    if let Some((l, _)) = &mut i.op {
                        self.lambda(l);
                    }
                }
                self.lambda(&mut w.lambda);
            }
            Exp::Jvp(a) | Exp::Vjp(a) => self.lambda(&mut a.lambda),
            Exp::CustomVjp(c) => {
                self.lambda(&mut c.f);
                self.lambda(&mut c.fprime);
            }
            _ => {}
        }
    }

    fn stm(&mut self, mut stm: Stm, out: &mut Vec<Stm>) {
        let subst = &self.subst;
        walk_exp_mut(&mut stm.exp, &mut |s| subst_slot(subst, s));
        self.nested(&mut stm.exp);
        // A bounded number of rewrites of this one statement.
        for _ in 0..8 {
            if self.cfg.fold
                && let Some(rw) = self.propose(&stm)
            {
                self.changed = true;
                match rw {
                    Rewrite::Values(vals) => {
                        self.bind(&stm.pat, &vals);
                        return;
                    }
                    Rewrite::Inline(stms, vals) => {
                        out.extend(stms);
                        let vals: Vec<Operand> = vals
                            .iter()
                            .map(|o| match o {
                                Operand::Var(v) => *self.subst.get(v).unwrap_or(o),
                                Operand::Const(_) => *o,
                            })
                            .collect();
                        self.bind(&stm.pat, &vals);
                        return;
                    }
                    Rewrite::Exp(e) => stm.exp = e,
                    Rewrite::Pre(pre, e) => {
                        out.extend(pre);
                        stm.exp = e;
                    }
                }
                continue;
            }
            break;
        }
        if self.cfg.cse
            && let Some(key) = self.cse_key(&stm)
        {
            if let Some(prev) = self.avail.get(&key).cloned() {
                let vals: Vec<Operand> = prev.into_iter().map(Operand::Var).collect();
                self.bind(&stm.pat, &vals);
                return;
            }
            if !stm.pat.iter().any(|v| self.consumed.contains(v)) {
                self.avail.insert(key.clone(), stm.pat.clone());
                self.avail_log.push(key);
            }
        }
        if let [v] = stm.pat[..]
            && stm_defines_value(&stm.exp)
        {
            self.defs.insert(v, stm.exp.clone());
        }
        out.push(stm);
    }

    fn propose(&mut self, stm: &Stm) -> Option<Rewrite> {
        if let Exp::Atom(o) = &stm.exp {
            // Copy propagation; an array alias stays when either side is
            // consumed, so that consumption stays where it was.
            let [p] = stm.pat[..] else { return None };
            let array = self.fun.var_type(p).is_some_and(|t| !t.is_scalar());
            let blocked = array
                && (self.consumed.contains(&p)
                    || o.var().is_some_and(|v| self.consumed.contains(&v)));
            return (!blocked).then(|| Rewrite::Values(vec![*o]));
        }
        if let (Exp::Copy(x), [y]) = (&stm.exp, &stm.pat[..]) {
            // A copy that nothing consumes, of an array nothing consumes,
            // is the array itself; not when the function returns it (its
            // caller may consume it).
            let escapes = self.escapes.as_ref().is_some_and(|e| e.contains(y));
            let acc = self.fun.var_type(*x).is_none_or(|t| t.acc);
            if !escapes && !acc && !self.consumed.contains(x) && !self.consumed.contains(y) {
                return Some(Rewrite::Values(vec![Operand::Var(*x)]));
            }
        }
        if let Some(vals) = identity_map(&stm.exp, self.fun) {
            // A map copying rows of its inputs: its results are the inputs,
            // unless either side is consumed.
            let inputs: Vec<VarId> = vals.iter().filter_map(Operand::var).collect();
            let blocked = stm
                .pat
                .iter()
                .chain(&inputs)
                .any(|v| self.consumed.contains(v));
            if !blocked {
                return Some(Rewrite::Values(vals));
            }
        }
        if let Some(r) = rules::fold(&stm.exp) {
            return Some(r);
        }
        rules::rewrite(self, &stm.exp)
    }

    /// The key under which an expression is available for reuse: only
    /// expressions without nested bodies that consume nothing.
    fn cse_key(&self, stm: &Stm) -> Option<String> {
        let e = &stm.exp;
        match e {
            Exp::Atom(_)
            | Exp::Update(..)
            | Exp::UpdateAcc { .. }
            | Exp::Scratch { .. }
            | Exp::If { .. }
            | Exp::Loop { .. }
            | Exp::Screma(_)
            | Exp::Hist(_)
            | Exp::Scatter(_)
            | Exp::WithAcc(_)
            | Exp::Jvp(_)
            | Exp::Vjp(_)
            | Exp::CustomVjp(_) => return None,
            Exp::Apply { fun, .. } if self.uniq.get(fun).is_some_and(|u| u.iter().any(|&x| x)) => {
                return None;
            }
            _ => {}
        }
        if stm.pat.iter().any(|v| self.consumed.contains(v)) {
            return None;
        }
        let norm = match e {
            Exp::BinOp(op, x, y) if op.is_commutative() => {
                let (a, b) = (format!("{x:?}"), format!("{y:?}"));
                if a <= b {
                    format!("BinOp({op:?}, {a}, {b})")
                } else {
                    format!("BinOp({op:?}, {b}, {a})")
                }
            }
            _ => format!("{e:?}"),
        };
        // Results of different types (a constant size, say) never share.
        let tys: Vec<Option<&Type>> = stm.pat.iter().map(|v| self.fun.var_type(*v)).collect();
        Some(format!("{norm} : {tys:?}"))
    }
}

fn stm_defines_value(e: &Exp) -> bool {
    match e {
        Exp::UnOp(..)
        | Exp::BinOp(..)
        | Exp::Cmp(..)
        | Exp::Iota { .. }
        | Exp::Replicate { .. }
        | Exp::Convert(..) => true,
        // Slices (views of rows), and maps of no inputs without statements
        // (replicates, as reverse mode writes them): for the
        // replicated-input rule.
        Exp::Index(_, idx) => idx.iter().all(|d| matches!(d, ir::DimIndex::Range { .. })),
        Exp::Screma(s) => {
            s.inputs.is_empty()
                && s.scans.is_empty()
                && s.reduces.is_empty()
                && s.map.body.stms.is_empty()
        }
        _ => false,
    }
}

/// The inputs that a map-only `screma` returns row by row unchanged (its
/// lambda has no statements and returns some of its row parameters), in
/// the order of its results.
fn identity_map(e: &Exp, fun: &Function) -> Option<Vec<Operand>> {
    let Exp::Screma(s) = e else { return None };
    if !s.scans.is_empty() || !s.reduces.is_empty() || !s.map.body.stms.is_empty() {
        return None;
    }
    s.map
        .body
        .result
        .iter()
        .map(|r| {
            let v = r.var()?;
            let j = s.map.params[..s.inputs.len().min(s.map.params.len())]
                .iter()
                .position(|p| p.var == v)?;
            let x = s.inputs[j];
            (!fun.var_type(x).is_none_or(|t| t.acc)).then_some(Operand::Var(x))
        })
        .collect()
}
