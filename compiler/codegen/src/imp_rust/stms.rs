//! Statements of the imperative IR as Rust statements: assignments,
//! element reads and writes through the runtime's checked blocks, strided
//! copies, sequential control flow, calls and assertions. Parallel loops
//! are in `par`.

use std::fmt::Write;

use ir::Span;

use super::decls::block_key;
use super::exps::{exp, exps};
use super::function::FnEm;
use super::names::{fun, mem, span_lit, var};
use super::ranges::{self, Plan, Within, stm_key};
use crate::imp::{Arg, Block, Check, Slot, Stm, View};

type E<T> = Result<T, String>;

impl FnEm<'_> {
    /// The statements of `b`.
    pub fn block(&mut self, b: &Block) -> E<()> {
        self.block_from(b, 0)
    }

    /// The statements of `b` from the `from`-th on, after the declarations
    /// of `b`'s variables.
    pub fn block_from(&mut self, b: &Block, from: usize) -> E<()> {
        if let Some(vs) = self.decls.at_block.get(&block_key(b)).cloned() {
            self.declare(&vs, &[]);
        }
        for s in b.stms.iter().skip(from) {
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

    /// The left side of assignment `s` to `v`: `let mut v: T` when it
    /// declares `v`, else `v`.
    fn lhs(&self, s: &Stm, v: crate::imp::SVar) -> String {
        if !self.decls.at_stm.contains(&stm_key(s)) {
            return var(v);
        }
        let t = self
            .f
            .vars
            .get(v.0 as usize)
            .map_or("i64", |i| crate::scalar::rust_prim(i.ty));
        format!("let mut {}: {t}", var(v))
    }

    /// The method of an element access `s`: `name`, or its unchecked
    /// form when the loop around it checked its range.
    fn access(&self, s: &Stm, name: &str) -> String {
        if self.unchecked.contains(&stm_key(s)) {
            format!("{name}_unchecked")
        } else {
            name.to_string()
        }
    }

    /// The hoisting plan of the loop over `i` with body `body` (none
    /// inside the checked version of a loop).
    pub fn plan(&self, i: crate::imp::SVar, body: &Block) -> Plan {
        if self.versioning {
            ranges::plan(self.f, i, body, self.safe)
        } else {
            Plan::default()
        }
    }

    /// A loop in two versions: when `plan`'s checks pass for the counter's
    /// range `lo..hi` (Rust expressions), the loop `head` + `body` + `}`
    /// with the planned accesses unchecked; otherwise the same loop with
    /// every access checked and no nested loop versioned.
    pub fn versioned(
        &mut self,
        plan: &Plan,
        lo: &str,
        hi: &str,
        head: &str,
        body: &Block,
        from: usize,
    ) -> E<()> {
        let f = self.f;
        let e = |x: &crate::imp::SExp| exp(f, x, Span::NONE);
        let limit =
            |x: &Option<crate::imp::SExp>, none: &str| x.as_ref().map_or(Ok(none.to_string()), e);
        let conds = plan
            .checks
            .iter()
            .map(|r| {
                let (base, step) = (e(&r.base)?, e(&r.step)?);
                Ok(match &r.within {
                    Within::Block(m) => format!("{}.covers({base}, {step}, {lo}, {hi})", mem(*m)),
                    Within::Bounds(min, end) => format!(
                        "within({base}, {step}, {lo}, {hi}, {}, {})",
                        limit(min, "i64::MIN")?,
                        limit(end, "i64::MAX")?
                    ),
                })
            })
            .collect::<E<Vec<_>>>()?;
        writeln!(self.out, "if {} {{", conds.join(" && ")).ok();
        self.w(head);
        let added: Vec<usize> = plan
            .unchecked
            .iter()
            .filter(|k| self.unchecked.insert(**k))
            .copied()
            .collect();
        let r = self.block_from(body, from);
        for k in added {
            self.unchecked.remove(&k);
        }
        r?;
        self.w("}\n} else {\n");
        self.w(head);
        let was = std::mem::replace(&mut self.versioning, false);
        let r = self.block_from(body, from);
        self.versioning = was;
        r?;
        self.w("}\n}\n");
        Ok(())
    }

    /// A chain of `if`s, each in the previous one's `else` block (the
    /// last `if` statement there), written flat so that the nesting of the
    /// Rust code does not grow with the chain (rustc overflows its stack on
    /// a thousand nested blocks). In a labelled block each `then` block
    /// ends by leaving it, and each `else` block's statements before its
    /// `if` follow at the same level, counting the `else` blocks entered;
    /// after the labelled block, the statements of those `else` blocks
    /// after their `if`s run, innermost first. The variables the `else`
    /// blocks declare at their tops, and those their statements after the
    /// `if` mention, are declared before the labelled block.
    fn if_chain(&mut self, first: &Stm) -> E<()> {
        let f = self.f;
        let mut levels: Vec<(&crate::imp::SExp, &Block, &Block)> = Vec::new();
        let mut s = first;
        while let Stm::If {
            cond,
            then_block,
            else_block,
        } = s
        {
            levels.push((cond, then_block, else_block));
            match last_if(else_block) {
                Some(j) => s = &else_block.stms[j],
                None => break,
            }
        }
        let n = levels.len();
        // The parts of each `else` block but the last: before and after its `if`.
        let parts: Vec<(&[Stm], &[Stm])> = levels[..n - 1]
            .iter()
            .map(|(_, _, e)| {
                let j = last_if(e).unwrap_or(e.stms.len());
                (&e.stms[..j], e.stms.get(j + 1..).unwrap_or(&[]))
            })
            .collect();
        let mut after_vars = Vec::new();
        for (_, after) in &parts {
            let _ = super::decls::mentioned(
                &Block {
                    stms: after.to_vec(),
                },
                &mut after_vars,
            );
        }
        let after_vars: std::collections::HashSet<crate::imp::SVar> =
            after_vars.into_iter().collect();
        let mut hoisted = Vec::new();
        let mut undeclared = Vec::new();
        for ((_, _, e), (before, _)) in levels.iter().zip(&parts) {
            if let Some(vs) = self.decls.at_block.get(&block_key(e)) {
                hoisted.extend(vs.iter().copied());
            }
            for b in before.iter() {
                let k = stm_key(b);
                if self.decls.at_stm.contains(&k) {
                    b.for_each_set(&mut |v| {
                        if after_vars.contains(&v) {
                            hoisted.push(v);
                            undeclared.push(k);
                        }
                    });
                }
            }
        }
        for k in &undeclared {
            self.decls.at_stm.remove(k);
        }
        self.declare(&hoisted, &[]);
        let id = self.chains;
        self.chains += 1;
        let (label, level) = (format!("'chain{id}"), format!("chain_level{id}"));
        writeln!(self.out, "let mut {level}: usize = 0;\n{label}: {{").ok();
        let mut r = Ok(());
        for (i, (cond, then_block, else_block)) in levels.iter().enumerate() {
            r = r.and_then(|()| {
                let c = exp(f, cond, Span::NONE)?;
                writeln!(self.out, "if {c} {{").ok();
                self.block(then_block)?;
                writeln!(self.out, "break {label};\n}}").ok();
                match parts.get(i) {
                    Some((before, _)) => {
                        for b in before.iter() {
                            self.stm(b)?;
                        }
                        writeln!(self.out, "{level} = {};", i + 1).ok();
                    }
                    None => self.block(else_block)?,
                }
                Ok(())
            });
        }
        self.w("}\n");
        for (i, (_, after)) in parts.iter().enumerate().rev() {
            if after.is_empty() {
                continue;
            }
            writeln!(self.out, "if {level} > {i} {{").ok();
            for a in after.iter() {
                r = r.and_then(|()| self.stm(a));
            }
            self.w("}\n");
        }
        // Loops written twice (versioned) write their chains again.
        self.decls.at_stm.extend(undeclared);
        r
    }

    pub(super) fn stm(&mut self, s: &Stm) -> E<()> {
        let f = self.f;
        match s {
            Stm::Assign {
                var: v,
                exp: e,
                span,
            } => {
                let e = exp(f, e, *span)?;
                writeln!(self.out, "{} = {e};", self.lhs(s, *v)).ok();
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
                let get = self.access(s, "get");
                writeln!(
                    self.out,
                    "{} = {}.{get}({p});",
                    self.lhs(s, *v),
                    mem(view.mem)
                )
                .ok();
            }
            Stm::Write { view, idx, value } => {
                let p = self.position(view, idx)?;
                let x = exp(f, value, Span::NONE)?;
                let set = self.access(s, "set");
                writeln!(self.out, "{}.{set}({p}, {x});", mem(view.mem)).ok();
            }
            Stm::Copy { dst, src, span } => {
                let d = self.view_args(dst, *span)?;
                let s = self.view_args(src, *span)?;
                writeln!(self.out, "copy_view({d}, {s}, {})?;", span_lit(*span)).ok();
            }
            Stm::For { i, bound, body } => {
                let n = exp(f, bound, Span::NONE)?;
                let plan = self.plan(*i, body);
                if plan.checks.is_empty() {
                    writeln!(self.out, "for k_ in 0..{n} {{\n{} = k_;", var(*i)).ok();
                    self.block(body)?;
                    self.w("}\n");
                } else {
                    writeln!(self.out, "{{\nlet n_ = {n};").ok();
                    let head = format!("for k_ in 0..n_ {{\n{} = k_;\n", var(*i));
                    self.versioned(&plan, "0", "n_", &head, body, 0)?;
                    self.w("}\n");
                }
            }
            Stm::While { cond, body } => {
                let c = exp(f, cond, Span::NONE)?;
                writeln!(self.out, "while {c} {{").ok();
                self.block(body)?;
                self.w("}\n");
            }
            Stm::If { else_block, .. } if chain_length(else_block) >= FLAT_CHAIN => {
                self.if_chain(s)?;
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
                kind,
                ids,
                sizes,
                body,
                chunk_prologue,
                span,
                label,
            } => self.par_for(*kind, ids, sizes, body, *chunk_prologue, (*span, label))?,
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
            Stm::Barrier => return Err("a barrier outside a kernel".into()),
            Stm::Assert {
                cond,
                msg,
                args,
                span,
                check,
            } => {
                if *check == Check::Unsafe
                    || (*check == Check::Bounds && !self.safe)
                    || self.unchecked.contains(&stm_key(s))
                {
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
        /// otherwise. Both are a plain read and write when the parallel
        /// loop around (`par`: chunk `lo_..hi_` of the space `sz_`) runs
        /// as one chunk.
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
            let shared = "!(lo_ == 0 && hi_ == space(&sz_))";
            if body.stms.is_empty() && !new.mentions(old) {
                // A write that ignores the element before it: a scatter's.
                let x = exp(self.f, new, Span::NONE)?;
                writeln!(self.out, "{m}.atomic_store({p}, {shared}, {x});").ok();
                return Ok(());
            }
            if let Some(x) = integer_sum(view.elem, old, body, new) {
                let x = exp(self.f, x, Span::NONE)?;
                writeln!(self.out, "{m}.atomic_add({p}, {shared}, {x});").ok();
                return Ok(());
            }
            let t = crate::scalar::rust_prim(view.elem);
            writeln!(
                self.out,
                "{m}.atomic_update({p}, {shared}, |old_: {t}| -> R<{t}> {{\n{} = old_;",
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
            (true, false) if !b.mentions(old) => Some(b),
            (false, true) if !a.mentions(old) => Some(a),
            _ => None,
        }
    }
}

/// The length of an `if` chain from which it is written flat.
const FLAT_CHAIN: usize = 8;

/// The position of the last `if` statement of `b`.
fn last_if(b: &Block) -> Option<usize> {
    b.stms.iter().rposition(|s| matches!(s, Stm::If { .. }))
}

/// How many `if`s follow one another, each the last `if` statement of the
/// previous one's `else` block, starting in `b`.
fn chain_length(mut b: &Block) -> usize {
    let mut n = 0;
    while let Some(j) = last_if(b) {
        let Stm::If { else_block, .. } = &b.stms[j] else {
            break;
        };
        n += 1;
        b = else_block;
    }
    n
}
