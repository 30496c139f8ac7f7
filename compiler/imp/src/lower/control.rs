//! Control flow: `if` results in one block per result (written by the
//! branches or aliased when a branch's array already has the layout),
//! loops whose array parameters reuse their blocks (double-buffered when
//! the body builds a new array), and calls passing views without copies.

use ir::{Body, FunId, LoopForm, Operand, Param, PrimType, Size, VarId};

use super::{Lowerer, R, Val};
use crate::syntax::*;

impl<'p> Lowerer<'p> {
    pub(crate) fn if_exp(
        &mut self,
        stm: &'p ir::Stm,
        hints: &[Option<View>],
        cond: &Operand,
        then_body: &'p Body,
        else_body: &'p Body,
    ) -> R<Vec<Val<'p>>> {
        let cond = self.scalar(cond)?;
        // Scalars first: array sizes may name them.
        let mut outs: Vec<Option<Val<'p>>> = vec![None; stm.pat.len()];
        let mut scalar_vars = Vec::new();
        for (k, v) in stm.pat.iter().enumerate() {
            let t = self.var_type(*v)?;
            if t.is_scalar() {
                let name = self.var_name(*v);
                let x = self.new_var(&name, t.elem);
                scalar_vars.push((k, x));
                let val = Val::Scalar(SExp::Var(x));
                self.bind(*v, val.clone());
                outs[k] = Some(val);
            }
        }
        // Arrays: the hint, or a handle each branch points at its block.
        let mut arrays = Vec::new();
        let mut accs = Vec::new();
        let acc_vals: std::cell::RefCell<Vec<(usize, Val<'p>)>> = Default::default();
        // Each branch's value of each scalar result.
        let scalar_vals: std::cell::RefCell<Vec<(usize, SExp)>> = Default::default();
        for (k, v) in stm.pat.iter().enumerate() {
            let t = self.var_type(*v)?;
            if t.is_scalar() {
                continue;
            }
            if t.acc {
                // Accumulators are static views: both branches must
                // return the same one.
                accs.push(k);
                continue;
            }
            let name = self.var_name(*v);
            if let Some(Some(h)) = hints.get(k) {
                outs[k] = Some(Val::Array(h.clone()));
                arrays.push((k, h.mem, Vec::new(), true));
                continue;
            }
            let mem = self.new_mem(&format!("{name}_mem"), t.elem);
            let mut shape = Vec::new();
            let mut dynamic = Vec::new();
            for (j, d) in t.shape.iter().enumerate() {
                match d {
                    Size::Any => {
                        let s = self.new_var(&format!("{name}_d{j}"), PrimType::I64);
                        dynamic.push((j, s));
                        shape.push(SExp::Var(s));
                    }
                    d => shape.push(self.size(d)?),
                }
            }
            outs[k] = Some(Val::Array(View::row_major(mem, t.elem, shape)));
            arrays.push((k, mem, dynamic, false));
        }
        let hints: Vec<Option<View>> = outs
            .iter()
            .enumerate()
            .map(|(k, o)| match o {
                Some(Val::Array(v)) if arrays.iter().any(|a| a.0 == k && a.3) => Some(v.clone()),
                _ => None,
            })
            .collect();
        let span = self.span;
        let branch = |l: &mut Self, b: &'p Body| {
            l.nested(|l| {
                let vals = l.body(b, &hints)?;
                l.span = span;
                for &k in &accs {
                    match vals.get(k) {
                        Some(a @ Val::Acc(..)) => acc_vals.borrow_mut().push((k, a.clone())),
                        _ => return l.fail("an `if` branch result of the wrong kind"),
                    }
                }
                for &(k, x) in &scalar_vars {
                    let Some(Val::Scalar(e)) = vals.get(k).cloned() else {
                        return l.fail("an `if` branch result of the wrong kind");
                    };
                    scalar_vals.borrow_mut().push((k, e.clone()));
                    l.push(Stm::Assign {
                        var: x,
                        exp: e,
                        span,
                    });
                }
                for (k, mem, dynamic, hinted) in &arrays {
                    let Some(Val::Array(r)) = vals.get(*k).cloned() else {
                        return l.fail("an `if` branch result of the wrong kind");
                    };
                    let Some(Val::Array(out)) = &outs[*k] else {
                        continue;
                    };
                    for (j, s) in dynamic {
                        l.push(Stm::Assign {
                            var: *s,
                            exp: r.shape[*j].clone(),
                            span,
                        });
                    }
                    if *hinted {
                        if r != *out {
                            l.copy(out, &r);
                        }
                    } else if r.is_row_major_at_zero() {
                        l.push(Stm::AliasMem {
                            dst: *mem,
                            src: r.mem,
                        });
                    } else {
                        l.push(Stm::Alloc {
                            mem: *mem,
                            count: r.count(),
                        });
                        let dst = View::row_major(*mem, r.elem, r.shape.clone());
                        l.copy(&dst, &r);
                    }
                }
                Ok(())
            })
        };
        let then_block = branch(self, then_body)?;
        let else_block = branch(self, else_body)?;
        for &k in &accs {
            let found: Vec<Val<'p>> = acc_vals
                .borrow()
                .iter()
                .filter(|(j, _)| *j == k)
                .map(|(_, v)| v.clone())
                .collect();
            match found.as_slice() {
                [Val::Acc(a, op), Val::Acc(b, _)] if a == b => {
                    outs[k] = Some(Val::Acc(a.clone(), *op))
                }
                _ => {
                    return self.fail(
                        "an `if` whose branches return different accumulators is not lowered yet",
                    );
                }
            }
        }
        self.push(Stm::If {
            cond,
            then_block,
            else_block,
        });
        // A scalar result both branches give as the same integer constant
        // (the size of an array both build, such as a `[3][3]` rotation)
        // is that constant after the `if`, in the arrays' shapes too, so
        // the code after it knows the size.
        let vals = scalar_vals.into_inner();
        for &(k, x) in &scalar_vars {
            let mut branch_vals = vals.iter().filter(|(j, _)| *j == k).map(|(_, e)| e);
            let (Some(SExp::Const(a)), Some(SExp::Const(b)), None) =
                (branch_vals.next(), branch_vals.next(), branch_vals.next())
            else {
                continue;
            };
            if a != b || a.prim_type().is_float() {
                continue;
            }
            let c = SExp::Const(*a);
            self.bind(stm.pat[k], Val::Scalar(c.clone()));
            outs[k] = Some(Val::Scalar(c.clone()));
            for o in outs.iter_mut() {
                if let Some(Val::Array(v)) = o {
                    for e in v.shape.iter_mut().chain(v.strides.iter_mut()) {
                        *e = replace_var(e, x, &c);
                    }
                }
            }
        }
        outs.into_iter()
            .map(|o| match o {
                Some(v) => Ok(v),
                None => self.fail("an `if` result without a value"),
            })
            .collect()
    }

    pub(crate) fn loop_exp(
        &mut self,
        stm: &'p ir::Stm,
        params: &'p [(Param, Operand)],
        form: &LoopForm,
        body: &'p Body,
    ) -> R<Vec<Val<'p>>> {
        let span = self.span;
        let param_vars: Vec<VarId> = params.iter().map(|(p, _)| p.var).collect();
        // Scalar parameters: variables assigned their initial values.
        let mut scalars = Vec::new();
        for (k, (p, init)) in params.iter().enumerate() {
            let t = self.var_type(p.var)?;
            if t.is_scalar() {
                let init = self.scalar(init)?;
                let name = self.var_name(p.var);
                let x = self.assign_fresh(&name, t.elem, init);
                self.bind(p.var, Val::Scalar(SExp::Var(x)));
                scalars.push((k, x));
            }
        }
        let (i, bound) = match form {
            LoopForm::For { i, bound } => {
                let bound = self.scalar(bound)?;
                let t = self.var_type(*i)?.elem;
                let name = self.var_name(*i);
                let x = self.new_var(&name, t);
                self.bind(*i, Val::Scalar(SExp::Var(x)));
                (Some(x), Some(bound))
            }
            LoopForm::While { .. } => (None, None),
        };
        if let Some(block) = self.loop_in_place(params, body, &scalars)? {
            self.push_loop(i, bound, form, block)?;
            return params.iter().map(|(p, _)| self.lookup(p.var)).collect();
        }
        // Array parameters: the current block (the initial array's when it
        // is consumed and row-major, a copy otherwise) and the next one.
        struct ArrParam {
            k: usize,
            cur: MemId,
            next: MemId,
            view: View,
            invariant: bool,
            dynamic: Vec<(usize, SVar)>,
        }
        let mut arrays = Vec::new();
        for (k, (p, init)) in params.iter().enumerate() {
            let t = self.var_type(p.var)?;
            if t.is_scalar() {
                continue;
            }
            if t.acc {
                return self.fail("a loop over an accumulator is not lowered yet");
            }
            let Val::Array(init) = self.operand(init)? else {
                return self.fail("a loop parameter's initial value is not an array");
            };
            let name = self.var_name(p.var);
            let mut shape = Vec::new();
            let mut dynamic = Vec::new();
            let mut invariant = true;
            for (j, d) in t.shape.iter().enumerate() {
                match d {
                    Size::Any => {
                        let s = self.new_var(&format!("{name}_d{j}"), PrimType::I64);
                        self.push(Stm::Assign {
                            var: s,
                            exp: init.shape[j].clone(),
                            span,
                        });
                        dynamic.push((j, s));
                        shape.push(SExp::Var(s));
                        invariant = false;
                    }
                    Size::Var(v) if param_vars.contains(v) => {
                        invariant = false;
                        shape.push(self.size(d)?);
                    }
                    d => shape.push(self.size(d)?),
                }
            }
            let cur = self.new_mem(&format!("{name}_mem"), t.elem);
            if p.unique && init.is_row_major_at_zero() {
                self.push(Stm::AliasMem {
                    dst: cur,
                    src: init.mem,
                });
            } else {
                self.push(Stm::Alloc {
                    mem: cur,
                    count: init.count(),
                });
                let dst = View::row_major(cur, t.elem, init.shape.clone());
                self.copy(&dst, &init);
            }
            let next = self.new_mem(&format!("{name}_next"), t.elem);
            let view = View::row_major(cur, t.elem, shape);
            self.bind(p.var, Val::Array(view.clone()));
            arrays.push(ArrParam {
                k,
                cur,
                next,
                view,
                invariant,
                dynamic,
            });
        }
        let mut hints = vec![None; params.len()];
        for a in &arrays {
            if a.invariant {
                hints[a.k] = Some(View {
                    mem: a.next,
                    ..a.view.clone()
                });
            }
        }
        let mut used_next = vec![false; arrays.len()];
        let block = self.nested(|l| {
            let vals = l.body(body, &hints)?;
            l.span = span;
            if vals.len() != params.len() {
                return l.fail("a loop body with the wrong number of results");
            }
            // Read everything before any parameter changes.
            let mut assigns = l.scalar_updates(&scalars, &vals)?;
            for (n, a) in arrays.iter().enumerate() {
                let Val::Array(r) = &vals[a.k] else {
                    return l.fail("a loop result of the wrong kind");
                };
                for &(j, s) in &a.dynamic {
                    let t = l.new_var("size_new", PrimType::I64);
                    l.push(Stm::Assign {
                        var: t,
                        exp: r.shape[j].clone(),
                        span,
                    });
                    assigns.push((s, t));
                }
                if *r == a.view {
                    continue;
                }
                if a.invariant {
                    used_next[n] = true;
                    let next = View {
                        mem: a.next,
                        ..a.view.clone()
                    };
                    if *r != next {
                        l.copy(&next, r);
                    }
                } else {
                    l.push(Stm::Alloc {
                        mem: a.next,
                        count: r.count(),
                    });
                    let next = View::row_major(a.next, r.elem, r.shape.clone());
                    l.copy(&next, r);
                }
                l.push(Stm::SwapMem(a.cur, a.next));
            }
            l.assign_all(&assigns, span);
            Ok(())
        })?;
        for (a, used) in arrays.iter().zip(&used_next) {
            if *used {
                self.push(Stm::Alloc {
                    mem: a.next,
                    count: a.view.count(),
                });
            }
        }
        self.push_loop(i, bound, form, block)?;
        let _ = stm;
        params.iter().map(|(p, _)| self.lookup(p.var)).collect()
    }

    /// The loop statement for `form` with body `block`.
    fn push_loop(
        &mut self,
        i: Option<SVar>,
        bound: Option<SExp>,
        form: &LoopForm,
        block: Block,
    ) -> R<()> {
        match (i, bound, form) {
            (Some(i), Some(bound), _) => self.push(Stm::For {
                i,
                bound,
                body: block,
            }),
            (_, _, LoopForm::While { cond }) => {
                let c = self.scalar(&Operand::Var(*cond))?;
                self.push(Stm::While {
                    cond: c,
                    body: block,
                });
            }
            _ => return self.fail("a loop without a form"),
        }
        Ok(())
    }

    /// Assigns each pair's second variable to its first (the scalar
    /// parameters' new values, from [`Self::scalar_updates`]).
    fn assign_all(&mut self, assigns: &[(SVar, SVar)], span: ir::Span) {
        for &(x, t) in assigns {
            self.push(Stm::Assign {
                var: x,
                exp: SExp::Var(t),
                span,
            });
        }
    }

    /// The scalar parameters' updates at the end of a loop body: every new
    /// value computed before any parameter changes.
    fn scalar_updates(
        &mut self,
        scalars: &[(usize, SVar)],
        vals: &[Val<'p>],
    ) -> R<Vec<(SVar, SVar)>> {
        let span = self.span;
        let mut assigns = Vec::new();
        for &(k, x) in scalars {
            let Some(Val::Scalar(e)) = vals.get(k) else {
                return self.fail("a loop result of the wrong kind");
            };
            let t = self.new_var(
                &format!("{}_new", self.vars[x.0 as usize].name),
                self.var_elem(x),
            );
            self.push(Stm::Assign {
                var: t,
                exp: e.clone(),
                span,
            });
            assigns.push((x, t));
        }
        Ok(assigns)
    }

    /// A loop whose array parameters are all unique and all returned
    /// updated in place: each parameter is its initial array's view (the
    /// loop consumes it), whatever its layout, with no block of its own.
    /// `None` when some array result is another array (the caller then
    /// gives the parameters blocks of their own).
    fn loop_in_place(
        &mut self,
        params: &'p [(Param, Operand)],
        body: &'p Body,
        scalars: &[(usize, SVar)],
    ) -> R<Option<Block>> {
        let span = self.span;
        let mut arrays = Vec::new();
        for (k, (p, init)) in params.iter().enumerate() {
            if self.var_type(p.var)?.is_scalar() {
                continue;
            }
            match self.operand(init)? {
                Val::Array(v) if p.unique => arrays.push((k, p.var, v)),
                _ => return Ok(None),
            }
        }
        if arrays.is_empty() {
            return Ok(None);
        }
        for (_, var, v) in &arrays {
            self.bind(*var, Val::Array(v.clone()));
        }
        let mut in_place = true;
        let block = self.nested(|l| {
            let vals = l.body(body, &[])?;
            l.span = span;
            if vals.len() != params.len() {
                return l.fail("a loop body with the wrong number of results");
            }
            in_place = arrays
                .iter()
                .all(|(k, _, v)| matches!(&vals[*k], Val::Array(r) if r == v));
            let assigns = l.scalar_updates(scalars, &vals)?;
            l.assign_all(&assigns, span);
            Ok(())
        })?;
        Ok(in_place.then_some(block))
    }

    pub(crate) fn call(
        &mut self,
        stm: &'p ir::Stm,
        fun: FunId,
        args: &[Operand],
    ) -> R<Vec<Val<'p>>> {
        let Some(callee) = self.prog.functions.get(fun) else {
            return self.fail(format!("a call of an unknown function {fun:?}"));
        };
        if callee.params.len() != args.len() {
            return self.fail(format!(
                "`{}` called with the wrong number of arguments",
                callee.name
            ));
        }
        let mut slots = Vec::new();
        let mut by_param: Vec<(VarId, SExp)> = Vec::new();
        for (a, p) in args.iter().zip(&callee.params) {
            match self.operand(a)? {
                Val::Scalar(e) => {
                    by_param.push((p.var, e.clone()));
                    slots.push(Arg::Scalar(e));
                }
                Val::Array(v) => {
                    let pt = callee.var_type(p.var);
                    slots.push(Arg::Mem(v.mem));
                    slots.push(Arg::Scalar(v.offset.clone()));
                    slots.extend(v.strides.iter().cloned().map(Arg::Scalar));
                    if let Some(pt) = pt {
                        for (j, d) in pt.shape.iter().enumerate() {
                            if *d == Size::Any {
                                slots.push(Arg::Scalar(v.shape[j].clone()));
                            }
                        }
                    }
                }
                Val::Acc(..) => {
                    return self.fail("passing an accumulator to a function is not lowered yet");
                }
            }
        }
        let mut results = Vec::new();
        let mut outs = Vec::new();
        for (k, t) in callee.ret.iter().enumerate() {
            let name = stm
                .pat
                .get(k)
                .map(|v| self.var_name(*v))
                .unwrap_or_else(|| "r".into());
            if t.is_scalar() {
                let x = self.new_var(&name, t.elem);
                results.push(Slot::Scalar(x));
                outs.push(Val::Scalar(SExp::Var(x)));
                continue;
            }
            let mem = self.new_mem(&format!("{name}_mem"), t.elem);
            results.push(Slot::Mem(mem));
            let mut shape = Vec::new();
            for d in &t.shape {
                shape.push(match d {
                    Size::Const(n) => SExp::i64(*n),
                    Size::Var(v) => match by_param.iter().find(|(p, _)| p == v) {
                        Some((_, e)) => e.clone(),
                        None => {
                            return self.fail(format!(
                                "a result size of `{}` that is not a parameter",
                                callee.name
                            ));
                        }
                    },
                    Size::Any => {
                        let s = self.new_var(&format!("{name}_d"), PrimType::I64);
                        results.push(Slot::Scalar(s));
                        SExp::Var(s)
                    }
                });
            }
            outs.push(Val::Array(View::row_major(mem, t.elem, shape)));
        }
        self.push(Stm::Call {
            fun,
            args: slots,
            results,
            span: self.span,
        });
        Ok(outs)
    }
}

/// `e` (an `i64` size or stride) with variable `x` replaced by `by`,
/// products and sums of constants folded.
fn replace_var(e: &SExp, x: SVar, by: &SExp) -> SExp {
    let r = |a: &SExp| replace_var(a, x, by);
    match e {
        SExp::Var(v) if *v == x => by.clone(),
        SExp::Var(_) | SExp::Const(_) => e.clone(),
        SExp::BinOp(ir::BinOp::Mul, a, b) => SExp::times(r(a), r(b)),
        SExp::BinOp(ir::BinOp::Add, a, b) => SExp::plus(r(a), r(b)),
        SExp::UnOp(op, a) => SExp::UnOp(*op, Box::new(r(a))),
        SExp::BinOp(op, a, b) => SExp::BinOp(*op, Box::new(r(a)), Box::new(r(b))),
        SExp::Cmp(op, a, b) => SExp::Cmp(*op, Box::new(r(a)), Box::new(r(b))),
        SExp::Convert(k, t, a) => SExp::Convert(*k, *t, Box::new(r(a))),
        SExp::Math(f, xs) => SExp::Math(*f, xs.iter().map(r).collect()),
        SExp::Tuned { .. } => e.clone(),
        SExp::Chunks { w, cost, most } => SExp::Chunks {
            w: Box::new(r(w)),
            cost: *cost,
            most: *most,
        },
    }
}

#[cfg(test)]
#[path = "control_tests.rs"]
mod tests;
