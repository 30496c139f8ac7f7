//! Array expressions: indexing and slicing as views, in-place updates
//! into the consumed array's block, and the constructors (`iota`,
//! `replicate`, `concat`, …) writing into their destination.

use ir::{CmpOp, ConvKind, DimIndex, Operand, PrimType, Size, VarId};

use super::{Lowerer, R, Val};
use crate::syntax::*;

impl<'p> Lowerer<'p> {
    /// A loop nest over `sizes`: one parallel loop when `parallel` and not
    /// already inside one (or nested in one while [`Self::nest_here`]),
    /// sequential loops otherwise. `body` gets the index variables.
    pub(crate) fn loop_nest(
        &mut self,
        sizes: Vec<SExp>,
        parallel: bool,
        body: impl FnOnce(&mut Self, &[SExp]) -> R<()>,
    ) -> R<()> {
        let label = std::mem::replace(&mut self.par_label, "segmap");
        let inner_next = std::mem::replace(&mut self.inner_next, false);
        let inner_red_next = std::mem::replace(&mut self.inner_red_next, false);
        let kind = if std::mem::replace(&mut self.chunk_loop_next, false) {
            ParKind::Chunks
        } else {
            ParKind::Map
        };
        let ids: Vec<SVar> = (0..sizes.len())
            .map(|k| self.new_var(&format!("i{k}"), PrimType::I64))
            .collect();
        let idx: Vec<SExp> = ids.iter().map(|v| SExp::Var(*v)).collect();
        let nests = self.parallel && self.inner_par && self.nest_here;
        if (self.parallel && !nests) || !parallel || sizes.is_empty() {
            let block = self.nested(|l| body(l, &idx))?;
            self.stms.extend(for_nest(&ids, sizes, block));
        } else {
            let saved = (
                self.parallel,
                self.inner_par,
                self.nest_here,
                self.inner_red,
            );
            self.parallel = true;
            self.inner_par = !nests && inner_next;
            self.inner_red = !nests && inner_red_next;
            self.nest_here = false;
            let block = self.nested(|l| body(l, &idx));
            (
                self.parallel,
                self.inner_par,
                self.nest_here,
                self.inner_red,
            ) = saved;
            let block = block?;
            if nests && (allocates(&block) || too_small(&sizes, &block)) {
                // Nested, a loop whose iterations allocate stays sequential:
                // its allocations then move out of it (once per chunk of the
                // outer loop), where a nested parallel loop would allocate
                // them once per outer iteration. So does a loop of constant
                // size too small for the runtime ever to split. The body is
                // lowered as a sequential loop's would be.
                self.stms.extend(for_nest(&ids, sizes, block));
                return Ok(());
            }
            self.push(Stm::ParFor {
                kind,
                ids,
                sizes,
                body: block,
                chunk_prologue: 0,
                span: self.span,
                label,
            });
        }
        Ok(())
    }

    /// Asserts that `idx` (one per outer dimension of `view`) is in bounds.
    pub(crate) fn check_bounds(&mut self, view: &View, idx: &[SExp]) {
        let mut cond = SExp::Const(ir::PrimValue::Bool(true));
        for (i, n) in idx.iter().zip(&view.shape) {
            cond = SExp::and(cond, SExp::cmp(CmpOp::Le, SExp::i64(0), i.clone()));
            cond = SExp::and(cond, SExp::cmp(CmpOp::Lt, i.clone(), n.clone()));
        }
        let is = vec!["{}"; idx.len()].join(", ");
        let dims: String = view.shape.iter().map(|_| "[{}]").collect();
        let mut args = idx.to_vec();
        args.extend(view.shape.iter().cloned());
        self.push(Stm::Assert {
            cond,
            msg: format!("Index [{is}] out of bounds for array of shape {dims}."),
            args,
            span: self.span,
            check: if self.unsafe_here {
                Check::Unsafe
            } else {
                Check::Bounds
            },
        });
    }

    /// The view `arr[idx]` with its checks: fixed indices drop dimensions,
    /// ranges change offset, size and stride.
    fn slice_view(&mut self, view: &View, idx: &[DimIndex]) -> R<View> {
        if idx.len() > view.rank() {
            return self.fail("more indices than dimensions");
        }
        let mut fixed = Vec::new();
        let mut fixed_shape = View {
            shape: Vec::new(),
            ..view.clone()
        };
        let mut offset = view.offset.clone();
        let mut shape = Vec::new();
        let mut strides = Vec::new();
        for (k, d) in idx.iter().enumerate() {
            let (n, st) = (view.shape[k].clone(), view.strides[k].clone());
            match d {
                DimIndex::Fix(i) => {
                    let i = self.scalar(i)?;
                    fixed.push(i.clone());
                    fixed_shape.shape.push(n);
                    offset = SExp::plus(offset, SExp::times(i, st));
                }
                DimIndex::Range { start, len, stride } => {
                    let (start, len, stride) =
                        (self.scalar(start)?, self.scalar(len)?, self.scalar(stride)?);
                    self.check_range(&start, &len, &stride, &n);
                    offset = SExp::plus(offset, SExp::times(start, st.clone()));
                    shape.push(len);
                    strides.push(SExp::times(stride, st));
                }
            }
        }
        if !fixed.is_empty() {
            self.check_bounds(&fixed_shape, &fixed);
        }
        shape.extend(view.shape[idx.len()..].iter().cloned());
        strides.extend(view.strides[idx.len()..].iter().cloned());
        Ok(View {
            mem: view.mem,
            elem: view.elem,
            offset,
            shape,
            strides,
        })
    }

    /// Asserts that `start:+len*stride` lies within `0..n`.
    fn check_range(&mut self, start: &SExp, len: &SExp, stride: &SExp, n: &SExp) {
        use SExp as E;
        let last = E::plus(
            start.clone(),
            E::times(E::minus(len.clone(), E::i64(1)), stride.clone()),
        );
        let inside = |x: SExp| {
            E::and(
                E::cmp(CmpOp::Le, E::i64(0), x.clone()),
                E::cmp(CmpOp::Lt, x, n.clone()),
            )
        };
        let empty = E::cmp(CmpOp::Eq, len.clone(), E::i64(0));
        let ok = E::and(
            E::cmp(CmpOp::Ge, len.clone(), E::i64(0)),
            E::BinOp(
                ir::BinOp::Or,
                Box::new(empty),
                Box::new(E::and(inside(start.clone()), inside(last))),
            ),
        );
        self.push(Stm::Assert {
            cond: ok,
            msg: "Invalid slice {}:+{}*{} for a dimension of size {}.".into(),
            args: vec![start.clone(), len.clone(), stride.clone(), n.clone()],
            span: self.span,
            check: Check::Always,
        });
    }

    pub(crate) fn index(&mut self, stm: &ir::Stm, arr: VarId, idx: &[DimIndex]) -> R<Vec<Val<'p>>> {
        let view = self.array(arr)?;
        let sub = self.slice_view(&view, idx)?;
        if sub.rank() > 0 {
            return Ok(vec![Val::Array(sub)]);
        }
        let name = self.pat_name(stm);
        let x = self.new_var(&name, view.elem);
        self.push(Stm::Read {
            var: x,
            view: sub,
            idx: Vec::new(),
        });
        Ok(vec![Val::Scalar(SExp::Var(x))])
    }

    /// `arr with [idx] = v`: written into `arr`'s block, which the update
    /// consumes; the result is `arr`'s view.
    pub(crate) fn update(&mut self, arr: VarId, idx: &[DimIndex], v: &Operand) -> R<Vec<Val<'p>>> {
        let view = self.array(arr)?;
        let sub = self.slice_view(&view, idx)?;
        match self.operand(v)? {
            Val::Scalar(e) if sub.rank() == 0 => self.push(Stm::Write {
                view: sub,
                idx: Vec::new(),
                value: e,
            }),
            Val::Array(src) if src.rank() == sub.rank() => self.copy(&sub, &src),
            _ => return self.fail("an update whose value does not fit the slice"),
        }
        Ok(vec![Val::Array(view)])
    }

    pub(crate) fn iota(
        &mut self,
        stm: &ir::Stm,
        hint: Option<&View>,
        n: &Operand,
        start: &Operand,
        step: &Operand,
    ) -> R<Vec<Val<'p>>> {
        let n = self.scalar(n)?;
        let (start, step) = (self.scalar(start)?, self.scalar(step)?);
        let elem = match stm.pat.first() {
            Some(v) => self.var_type(*v)?.elem,
            None => return self.fail("an iota without a result"),
        };
        self.push(Stm::Assert {
            cond: SExp::cmp(CmpOp::Ge, n.clone(), SExp::i64(0)),
            msg: "Invalid range: iota of negative length {}".into(),
            args: vec![n.clone()],
            span: self.span,
            check: Check::Always,
        });
        if let Some(index) = self.iota_as_index(stm, &n, start.clone(), step.clone(), elem) {
            return Ok(vec![index]);
        }
        let name = self.pat_name(stm);
        let dst = self.dest(hint, &name, elem, vec![n.clone()]);
        let d = dst.clone();
        self.loop_nest(vec![n], true, |l, i| {
            let k = SExp::Convert(ConvKind::Convert, elem, Box::new(i[0].clone()));
            let x = SExp::BinOp(
                ir::BinOp::Add,
                Box::new(start),
                Box::new(SExp::BinOp(ir::BinOp::Mul, Box::new(k), Box::new(step))),
            );
            l.push(Stm::Write {
                view: d,
                idx: i.to_vec(),
                value: x,
            });
            Ok(())
        })?;
        Ok(vec![Val::Array(dst)])
    }

    pub(crate) fn replicate(
        &mut self,
        stm: &ir::Stm,
        hint: Option<&View>,
        shape: &[Size],
        value: &Operand,
    ) -> R<Vec<Val<'p>>> {
        let outer = self.shape(shape)?;
        // A negative count fails here, with the replicate's location, rather
        // than where its memory is allocated.
        for n in outer.iter().filter(|n| n.as_i64().is_none()) {
            self.push(Stm::Assert {
                cond: SExp::cmp(CmpOp::Ge, n.clone(), SExp::i64(0)),
                msg: "Invalid range: replicate of negative size {}".into(),
                args: vec![n.clone()],
                span: self.span,
                check: Check::Always,
            });
        }
        let v = self.operand(value)?;
        let (elem, inner) = match &v {
            Val::Scalar(_) => (self.var_type(stm.pat[0])?.elem, Vec::new()),
            Val::Array(a) => (a.elem, a.shape.clone()),
            Val::Acc(..) => return self.fail("replicating an accumulator"),
        };
        let mut full = outer.clone();
        full.extend(inner);
        let name = self.pat_name(stm);
        let dst = self.dest(hint, &name, elem, full);
        let d = dst.clone();
        self.loop_nest(outer, true, |l, idx| {
            match v {
                Val::Scalar(e) => l.push(Stm::Write {
                    view: d,
                    idx: idx.to_vec(),
                    value: e,
                }),
                Val::Array(a) => l.copy(&d.at(idx), &a),
                Val::Acc(..) => {}
            }
            Ok(())
        })?;
        Ok(vec![Val::Array(dst)])
    }

    /// A view with another shape when the array is row-major; a row-major
    /// copy first otherwise.
    pub(crate) fn reshape(&mut self, stm: &ir::Stm, shape: &[Size], arr: VarId) -> R<Vec<Val<'p>>> {
        let shape = self.shape(shape)?;
        let mut view = self.array(arr)?;
        let old = view.count();
        let new = shape.iter().cloned().fold(SExp::i64(1), SExp::times);
        let mut args = shape.clone();
        args.push(old.clone());
        let dims: String = shape.iter().map(|_| "[{}]").collect();
        self.push(Stm::Assert {
            cond: SExp::cmp(CmpOp::Eq, old, new),
            msg: format!("Invalid reshape: cannot reshape into {dims} an array of {{}} elements"),
            args,
            span: self.span,
            check: Check::Always,
        });
        if !view.is_row_major() {
            let name = self.pat_name(stm);
            let fresh = self.alloc(&name, view.elem, view.shape.clone());
            self.copy(&fresh, &view);
            view = fresh;
        }
        let strides = row_major_strides(&shape);
        Ok(vec![Val::Array(View {
            shape,
            strides,
            ..view
        })])
    }

    /// Permuted dimensions: permuted sizes and strides, the same data.
    pub(crate) fn rearrange(&mut self, perm: &[usize], arr: VarId) -> R<Vec<Val<'p>>> {
        let view = self.array(arr)?;
        if perm.len() != view.rank() || perm.iter().any(|&p| p >= view.rank()) {
            return self.fail("an invalid permutation");
        }
        Ok(vec![Val::Array(View {
            shape: perm.iter().map(|&p| view.shape[p].clone()).collect(),
            strides: perm.iter().map(|&p| view.strides[p].clone()).collect(),
            ..view
        })])
    }

    pub(crate) fn concat(
        &mut self,
        stm: &ir::Stm,
        hint: Option<&View>,
        dim: usize,
        len: &Size,
        arrs: &[VarId],
    ) -> R<Vec<Val<'p>>> {
        let views = arrs.iter().map(|a| self.array(*a)).collect::<R<Vec<_>>>()?;
        let Some(first) = views.first() else {
            return self.fail("concat of no arrays");
        };
        if dim >= first.rank() {
            return self.fail("concat along a dimension the arrays lack");
        }
        let total = views
            .iter()
            .fold(SExp::i64(0), |acc, v| SExp::plus(acc, v.shape[dim].clone()));
        let len = match len {
            Size::Any => total.clone(),
            s => self.size(s)?,
        };
        self.push(Stm::Assert {
            cond: SExp::cmp(CmpOp::Eq, total, len.clone()),
            msg: "Size mismatch: concatenation has size {}".into(),
            args: vec![len.clone()],
            span: self.span,
            check: Check::Always,
        });
        let mut shape = first.shape.clone();
        shape[dim] = len;
        let name = self.pat_name(stm);
        let dst = self.dest(hint, &name, first.elem, shape);
        let mut at = SExp::i64(0);
        for (v, a) in views.iter().zip(arrs) {
            let mut part = dst.clone();
            part.offset = SExp::plus(
                part.offset,
                SExp::times(at.clone(), dst.strides[dim].clone()),
            );
            part.shape[dim] = v.shape[dim].clone();
            // An operand its producer wrote in place is there already.
            let in_place = self.in_place.placed.contains(a) && v.mem == dst.mem;
            if !in_place && part != *v {
                self.copy(&part, v);
            }
            at = SExp::plus(at, v.shape[dim].clone());
        }
        Ok(vec![Val::Array(dst)])
    }
}

/// Sequential `for` loops over `sizes` with index variables `ids`, the
/// first outermost, around `body`.
fn for_nest(ids: &[SVar], sizes: Vec<SExp>, mut body: Block) -> Vec<Stm> {
    for (i, n) in ids.iter().zip(sizes).rev() {
        body = Block {
            stms: vec![Stm::For {
                i: *i,
                bound: n,
                body,
            }],
        };
    }
    body.stms
}

/// Whether a loop over the constant `sizes` with body `body` has less work
/// than the runtime splits ([`crate::cost::MIN_SPLIT_WORK`]), so a
/// parallel loop would only add its calls.
pub(super) fn too_small(sizes: &[SExp], body: &Block) -> bool {
    let mut work = crate::cost::cost(body);
    for n in sizes {
        match n.as_i64() {
            Some(n) => work = work.saturating_mul(n.max(0) as u64),
            None => return false,
        }
    }
    work < crate::cost::MIN_SPLIT_WORK
}

/// Whether `b` allocates a block, at any depth.
fn allocates(b: &Block) -> bool {
    b.stms.iter().any(|s| match s {
        Stm::Alloc { .. } => true,
        Stm::For { body, .. }
        | Stm::While { body, .. }
        | Stm::Planned { body, .. }
        | Stm::ParFor { body, .. }
        | Stm::AtomicUpdate { body, .. } => allocates(body),
        Stm::If {
            then_block,
            else_block,
            ..
        } => allocates(then_block) || allocates(else_block),
        _ => false,
    })
}
