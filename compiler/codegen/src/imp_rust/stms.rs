//! Statements of the imperative IR as Rust statements: assignments,
//! element reads and writes through the runtime's checked blocks, strided
//! copies, sequential control flow, calls and assertions. Parallel loops
//! are in `par`.

use std::fmt::Write;

use ir::Span;

use super::exps::{exp, exps};
use super::function::FnEm;
use super::names::{fun, mem, span_lit, var};
use crate::imp::{Arg, Block, Check, Slot, Stm, View};

type E<T> = Result<T, String>;

impl FnEm<'_> {
    /// The statements of `b`.
    pub fn block(&mut self, b: &Block) -> E<()> {
        for s in &b.stms {
            self.stm(s)?;
        }
        Ok(())
    }

    /// The position of element `idx` of `view`.
    fn position(&self, view: &View, idx: &[crate::imp::SExp]) -> E<String> {
        exp(self.f, &view.position(idx), Span::NONE)
    }

    /// The offset, shape and strides of `v` as Rust arguments.
    fn view_args(&self, v: &View, span: Span) -> E<String> {
        Ok(format!(
            "&{}, {}, &[{}], &[{}]",
            mem(v.mem),
            exp(self.f, &v.offset, span)?,
            exps(self.f, &v.shape, span)?,
            exps(self.f, &v.strides, span)?
        ))
    }

    fn stm(&mut self, s: &Stm) -> E<()> {
        let f = self.f;
        match s {
            Stm::Assign {
                var: v,
                exp: e,
                span,
            } => {
                let e = exp(f, e, *span)?;
                writeln!(self.out, "{} = {e};", var(*v)).ok();
            }
            Stm::Alloc { mem: m, count } => {
                let n = exp(f, count, Span::NONE)?;
                writeln!(self.out, "{}.realloc({n}, (0u32, 0u32, 0u32))?;", mem(*m)).ok();
            }
            Stm::SwapMem(a, b) => {
                writeln!(
                    self.out,
                    "std::mem::swap(&mut {}, &mut {});",
                    mem(*a),
                    mem(*b)
                )
                .ok();
            }
            Stm::AliasMem { dst, src } => {
                if dst != src {
                    writeln!(self.out, "{} = {}.clone();", mem(*dst), mem(*src)).ok();
                }
            }
            Stm::Read { var: v, view, idx } => {
                let p = self.position(view, idx)?;
                writeln!(self.out, "{} = {}.get({p});", var(*v), mem(view.mem)).ok();
            }
            Stm::Write { view, idx, value } => {
                let p = self.position(view, idx)?;
                let x = exp(f, value, Span::NONE)?;
                writeln!(self.out, "{}.set({p}, {x});", mem(view.mem)).ok();
            }
            Stm::Copy { dst, src, span } => {
                let d = self.view_args(dst, *span)?;
                let s = self.view_args(src, *span)?;
                writeln!(self.out, "copy_view({d}, {s}, {})?;", span_lit(*span)).ok();
            }
            Stm::For { i, bound, body } => {
                let n = exp(f, bound, Span::NONE)?;
                writeln!(self.out, "for k_ in 0..{n} {{\n{} = k_;", var(*i)).ok();
                self.block(body)?;
                self.w("}\n");
            }
            Stm::While { cond, body } => {
                let c = exp(f, cond, Span::NONE)?;
                writeln!(self.out, "while {c} {{").ok();
                self.block(body)?;
                self.w("}\n");
            }
            Stm::If {
                cond,
                then_block,
                else_block,
            } => {
                let c = exp(f, cond, Span::NONE)?;
                writeln!(self.out, "if {c} {{").ok();
                self.block(then_block)?;
                if !else_block.stms.is_empty() {
                    self.w("} else {\n");
                    self.block(else_block)?;
                }
                self.w("}\n");
            }
            Stm::ParFor {
                ids,
                sizes,
                body,
                span,
                label,
                ..
            } => self.par_for(ids, sizes, body, *span, label)?,
            Stm::Planned { body, .. } => self.block(body)?,
            Stm::AtomicUpdate {
                view,
                idx,
                old,
                body,
                new,
            } => self.atomic_update(view, idx, *old, body, new)?,
            Stm::Call {
                fun: callee,
                args,
                results,
                span,
            } => {
                let k = ir::ids::EntityId::index(*callee);
                let a: Vec<String> = args
                    .iter()
                    .map(|a| match a {
                        Arg::Scalar(e) => exp(f, e, *span),
                        Arg::Mem(m) => Ok(format!("{}.clone()", mem(*m))),
                    })
                    .collect::<E<_>>()?;
                writeln!(self.out, "{{\nlet t_ = {}({})?;", fun(k), a.join(", ")).ok();
                for (j, r) in results.iter().enumerate() {
                    let name = match r {
                        Slot::Scalar(v) => var(*v),
                        Slot::Mem(m) => mem(*m),
                    };
                    writeln!(self.out, "{name} = t_.{j};").ok();
                }
                self.w("}\n");
            }
            Stm::Assert {
                cond,
                msg,
                args,
                span,
                check,
            } => {
                if *check == Check::Unsafe || (*check == Check::Bounds && !self.safe) {
                    return Ok(());
                }
                let c = exp(f, cond, *span)?;
                let a: Vec<String> = args
                    .iter()
                    .map(|a| exp(f, a, *span).map(|x| format!("({x}).to_prim()")))
                    .collect::<E<_>>()?;
                writeln!(
                    self.out,
                    "if !{c} {{\nreturn Err(assert_failed({msg:?}, &[{}], {}));\n}}",
                    a.join(", "),
                    span_lit(*span)
                )
                .ok();
            }
        }
        Ok(())
    }
}

/// Atomic updates of the accumulators the iterations of a parallel loop
/// share.
mod atomic {
    use std::fmt::Write;

    use ir::{PrimType, Span};

    use super::super::exps::exp;
    use super::super::function::FnEm;
    use super::super::names::{mem, var};
    use super::E;
    use crate::imp::{Block, SExp, SVar, Stm, View};

    impl FnEm<'_> {
        /// An atomic update of a shared accumulator's element
        /// ([`Stm::AtomicUpdate`]): one `fetch_add` for a sum of integers,
        /// the runtime's compare-and-swap loop running the operator
        /// otherwise.
        pub(super) fn atomic_update(
            &mut self,
            view: &View,
            idx: &[SExp],
            old: SVar,
            body: &Block,
            new: &SExp,
        ) -> E<()> {
            let p = exp(self.f, &view.position(idx), Span::NONE)?;
            let m = mem(view.mem);
            if let Some(x) = integer_sum(view.elem, old, body, new) {
                let x = exp(self.f, x, Span::NONE)?;
                writeln!(self.out, "{m}.atomic_add({p}, {x});").ok();
                return Ok(());
            }
            let t = crate::scalar::rust_prim(view.elem);
            writeln!(
                self.out,
                "{m}.atomic_update({p}, |old_: {t}| -> R<{t}> {{\n{} = old_;",
                var(old)
            )
            .ok();
            self.block(body)?;
            let n = exp(self.f, new, Span::NONE)?;
            writeln!(self.out, "Ok({n})\n}})?;").ok();
            Ok(())
        }
    }

    /// The value added when an atomic update's operator is `+` on integers
    /// (`body` assigns `old + x` or `x + old` to the variable `new` names).
    fn integer_sum<'b>(elem: PrimType, old: SVar, body: &'b Block, new: &SExp) -> Option<&'b SExp> {
        if !elem.is_integer() {
            return None;
        }
        let [Stm::Assign { var: t, exp, .. }] = body.stms.as_slice() else {
            return None;
        };
        let SExp::BinOp(ir::BinOp::Add, a, b) = exp else {
            return None;
        };
        if *new != SExp::Var(*t) {
            return None;
        }
        let is_old = |e: &SExp| *e == SExp::Var(old);
        match (is_old(a), is_old(b)) {
            (true, false) if !mentions(b, old) => Some(b),
            (false, true) if !mentions(a, old) => Some(a),
            _ => None,
        }
    }

    /// Whether `e` reads variable `v`.
    fn mentions(e: &SExp, v: SVar) -> bool {
        match e {
            SExp::Var(x) => *x == v,
            SExp::Const(_) => false,
            SExp::UnOp(_, x) | SExp::Convert(_, _, x) => mentions(x, v),
            SExp::BinOp(_, a, b) | SExp::Cmp(_, a, b) => mentions(a, v) || mentions(b, v),
            SExp::Math(_, xs) => xs.iter().any(|x| mentions(x, v)),
        }
    }
}
