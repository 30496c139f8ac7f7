//! Indexing, slicing and in-place updates of static values: one IR index or
//! update per leaf of the array's element tree.

use ir::{BinOp, CmpOp, DimIndex, Exp, Operand, PrimType, PrimValue, Size, UnOp};

use crate::cx::Cx;
use crate::error::{IResult, InternaliseError};
use crate::fb::i64c;
use crate::value::V;

/// One evaluated dimension of an index.
#[derive(Clone, Debug)]
pub(crate) enum Idx {
    Fix(Operand),
    Slice {
        start: Option<Operand>,
        end: Option<Operand>,
        stride: Option<Operand>,
    },
}

/// One dimension of an index with its omitted slice bounds filled in.
#[derive(Clone, Copy)]
enum Resolved {
    Fix(Operand),
    /// Start, end and stride, as `i64`.
    Slice(Operand, Operand, Operand),
}

impl Cx {
    /// An index operand as `i64`.
    pub(crate) fn as_i64(&mut self, o: Operand) -> IResult<Operand> {
        let t = self.fb.op_ty(&o);
        if t.elem == PrimType::I64 {
            return Ok(o);
        }
        if let Operand::Const(c) = o
            && let Some(x) = c.as_i128()
        {
            return Ok(Operand::i64(x as i64));
        }
        self.fb
            .scalar("i", Exp::Convert(ir::ConvKind::Convert, PrimType::I64, o))
    }

    pub(crate) fn binop(&mut self, op: BinOp, a: Operand, b: Operand) -> IResult<Operand> {
        if let (Operand::Const(x), Operand::Const(y)) = (a, b)
            && let (Some(x), Some(y)) = (x.as_i128(), y.as_i128())
        {
            let r = match op {
                BinOp::Add => Some(x + y),
                BinOp::Sub => Some(x - y),
                BinOp::Mul => Some(x * y),
                _ => None,
            };
            if let Some(r) = r {
                return Ok(Operand::i64(r as i64));
            }
        }
        let is = |o: Operand, k: i128| matches!(o, Operand::Const(c) if c.as_i128() == Some(k));
        match op {
            BinOp::Mul if is(a, 0) || is(b, 1) => return Ok(a),
            BinOp::Mul if is(b, 0) || is(a, 1) => return Ok(b),
            BinOp::Add if is(a, 0) => return Ok(b),
            BinOp::Add | BinOp::Sub if is(b, 0) => return Ok(a),
            _ => {}
        }
        self.fb.scalar("s", Exp::BinOp(op, a, b))
    }

    /// `a op b` on `i64`s, folded when both are constants.
    fn cmp(&mut self, op: CmpOp, a: Operand, b: Operand) -> IResult<Operand> {
        if let (Operand::Const(x), Operand::Const(y)) = (a, b)
            && let (Some(x), Some(y)) = (x.as_i128(), y.as_i128())
        {
            let r = match op {
                CmpOp::Eq => x == y,
                CmpOp::Ne => x != y,
                CmpOp::Lt => x < y,
                CmpOp::Le => x <= y,
                CmpOp::Gt => x > y,
                CmpOp::Ge => x >= y,
            };
            return Ok(Operand::Const(PrimValue::Bool(r)));
        }
        self.fb.scalar("ok", Exp::Cmp(op, a, b))
    }

    /// `a && b` (or `a || b`), folded when either is a constant.
    fn logic(&mut self, and: bool, a: Operand, b: Operand) -> IResult<Operand> {
        let unit = Operand::Const(PrimValue::Bool(and));
        let zero = Operand::Const(PrimValue::Bool(!and));
        if a == unit {
            return Ok(b);
        }
        if b == unit || a == zero {
            return Ok(a);
        }
        if b == zero {
            return Ok(b);
        }
        let op = if and { BinOp::And } else { BinOp::Or };
        self.fb.scalar("ok", Exp::BinOp(op, a, b))
    }

    /// Whether `lo <= x` and `x <= hi`, as the slice rule needs them.
    fn within(&mut self, lo: Operand, x: Operand, y: Operand, hi: Operand) -> IResult<Operand> {
        let a = self.cmp(CmpOp::Le, lo, x)?;
        let b = self.cmp(CmpOp::Le, x, y)?;
        let c = self.cmp(CmpOp::Le, y, hi)?;
        let ab = self.logic(true, a, b)?;
        self.logic(true, ab, c)
    }

    /// Fails, before an index or update with a slice in `idx`, with the
    /// reference interpreter's message when the index is out of bounds of
    /// dimensions `ds` (a slice `i:j:s` must have `0 <= i <= j <= n` for a
    /// positive stride, `-1 <= j <= i < n` for a negative one):
    /// `Invalid slice: Index [1:0] out of bounds for array of shape [5].`,
    /// the index as the user wrote it.
    fn check_slice(
        &mut self,
        ds: &[Size],
        idx: &[Idx],
        resolved: &[Resolved],
        span: syntax::Span,
    ) -> IResult<()> {
        if !idx.iter().any(|d| matches!(d, Idx::Slice { .. })) {
            return Ok(());
        }
        let mut ok = Operand::Const(PrimValue::Bool(true));
        let mut msg = String::from("Invalid slice: Index [");
        let mut args = Vec::new();
        for (k, (d, r)) in idx.iter().zip(resolved).enumerate() {
            let n = crate::value::size_operand(ds[k]);
            if k > 0 {
                msg.push_str(", ");
            }
            let c = match (d, *r) {
                (Idx::Fix(i), Resolved::Fix(i64)) => {
                    msg.push_str("{}");
                    args.push(*i);
                    let lo = self.cmp(CmpOp::Le, i64c(0), i64)?;
                    let hi = self.cmp(CmpOp::Lt, i64, n)?;
                    self.logic(true, lo, hi)?
                }
                (Idx::Slice { start, end, stride }, Resolved::Slice(i, j, s)) => {
                    for (k, part) in [start, end, stride].into_iter().enumerate() {
                        if k == 1 || (k == 2 && part.is_some()) {
                            msg.push(':');
                        }
                        if let Some(x) = part {
                            msg.push_str("{}");
                            args.push(*x);
                        }
                    }
                    let pos = self.cmp(CmpOp::Gt, s, i64c(0))?;
                    let neg = self.cmp(CmpOp::Lt, s, i64c(0))?;
                    let up = if pos == Operand::Const(PrimValue::Bool(false)) {
                        pos
                    } else {
                        let w = self.within(i64c(0), i, j, n)?;
                        self.logic(true, pos, w)?
                    };
                    let down = if neg == Operand::Const(PrimValue::Bool(false)) {
                        neg
                    } else {
                        let w = self.within(i64c(-1), j, i, n)?;
                        let below = self.cmp(CmpOp::Lt, i, n)?;
                        let w = self.logic(true, w, below)?;
                        self.logic(true, neg, w)?
                    };
                    self.logic(false, up, down)?
                }
                _ => {
                    return Err(InternaliseError::at(
                        "a slice index of the wrong kind",
                        span,
                    ));
                }
            };
            ok = self.logic(true, ok, c)?;
        }
        msg.push_str("] out of bounds for array of shape ");
        for d in ds {
            msg.push_str("[{}]");
            args.push(crate::value::size_operand(*d));
        }
        msg.push('.');
        if ok != Operand::Const(PrimValue::Bool(true)) {
            self.fb.push(
                Vec::new(),
                Exp::Assert {
                    cond: ok,
                    msg,
                    args,
                },
            );
        }
        Ok(())
    }

    /// The IR dimension indices of `idx` against dimensions `ds`, and the
    /// dimensions that remain. An index with a slice is checked first.
    pub(crate) fn dim_indices(
        &mut self,
        ds: &[Size],
        idx: &[Idx],
        span: syntax::Span,
    ) -> IResult<(Vec<DimIndex>, Vec<Size>)> {
        // Each slice as start, end and stride, the omitted ones defaulted
        // by the stride's sign.
        let mut resolved = Vec::new();
        for (k, d) in ds.iter().enumerate().take(idx.len()) {
            let dim = crate::value::size_operand(*d);
            resolved.push(match &idx[k] {
                Idx::Fix(i) => Resolved::Fix(self.as_i64(*i)?),
                Idx::Slice { start, end, stride } => {
                    let s = match stride {
                        Some(s) => self.as_i64(*s)?,
                        None => i64c(1),
                    };
                    // 1 for a negative stride, else 0.
                    let neg = match s {
                        Operand::Const(c) => i64c(i64::from(c.as_i128().is_some_and(|x| x < 0))),
                        _ => {
                            let b = self.fb.scalar("neg", Exp::Cmp(CmpOp::Lt, s, i64c(0)))?;
                            self.fb.scalar(
                                "neg",
                                Exp::Convert(ir::ConvKind::Convert, PrimType::I64, b),
                            )?
                        }
                    };
                    let start = match start {
                        Some(x) => self.as_i64(*x)?,
                        None => {
                            let last = self.binop(BinOp::Sub, dim, i64c(1))?;
                            self.binop(BinOp::Mul, neg, last)?
                        }
                    };
                    let end = match end {
                        Some(x) => self.as_i64(*x)?,
                        None => {
                            let past = self.binop(BinOp::Add, dim, i64c(1))?;
                            let back = self.binop(BinOp::Mul, neg, past)?;
                            self.binop(BinOp::Sub, dim, back)?
                        }
                    };
                    Resolved::Slice(start, end, s)
                }
            });
        }
        self.check_slice(ds, idx, &resolved, span)?;
        let mut out = Vec::new();
        let mut rest = Vec::new();
        for (k, d) in ds.iter().enumerate() {
            match resolved.get(k) {
                None => rest.push(*d),
                Some(Resolved::Fix(i)) => out.push(DimIndex::Fix(*i)),
                Some(&Resolved::Slice(start, end, s)) => {
                    let len = if s == i64c(1) {
                        self.binop(BinOp::Sub, end, start)?
                    } else {
                        let sg = match s {
                            Operand::Const(c) => i64c(if c.as_i128().is_some_and(|x| x < 0) {
                                -1
                            } else {
                                1
                            }),
                            _ => self.fb.scalar("sg", Exp::UnOp(UnOp::Signum, s))?,
                        };
                        let a = self.binop(BinOp::Sub, end, start)?;
                        let b = self.binop(BinOp::Add, a, s)?;
                        let c = self.binop(BinOp::Sub, b, sg)?;
                        self.fb.scalar("len", Exp::BinOp(BinOp::Div, c, s))?
                    };
                    out.push(DimIndex::Range {
                        start,
                        len,
                        stride: s,
                    });
                    rest.push(len.to_size());
                }
            }
        }
        Ok((out, rest))
    }

    /// `v[idx]`.
    pub(crate) fn index(&mut self, v: &V, idx: &[Idx], span: syntax::Span) -> IResult<V> {
        let V::Arr(ds, e) = v else {
            return Err(InternaliseError::at(
                "indexing a value that is not an array",
                span,
            ));
        };
        if idx.len() > ds.len() {
            return Err(InternaliseError::at("too many indices", span));
        }
        let (dis, rest) = self.dim_indices(ds, idx, span)?;
        let mut new = Vec::new();
        for leaf in e.leaf_list() {
            let Operand::Var(a) = leaf else {
                return Err(InternaliseError::at("indexing a constant", span));
            };
            new.push(Operand::Var(
                self.fb.bind1("elem", Exp::Index(a, dis.clone()))?,
            ));
        }
        let ev = e.with_leaves(&mut new.into_iter());
        Ok(if rest.is_empty() {
            ev
        } else {
            V::Arr(rest, Box::new(ev))
        })
    }

    /// `v with [idx] = x`.
    pub(crate) fn update(&mut self, v: &V, idx: &[Idx], x: &V, span: syntax::Span) -> IResult<V> {
        self.update_leaves(v, idx, x, None, span)
    }

    /// `v with [idx] = x`, writing every leaf of `x`, or with `before` (the
    /// leaves of `v[idx]`) only those that differ from it.
    pub(crate) fn update_leaves(
        &mut self,
        v: &V,
        idx: &[Idx],
        x: &V,
        before: Option<&[Operand]>,
        span: syntax::Span,
    ) -> IResult<V> {
        let V::Arr(ds, e) = v else {
            return Err(InternaliseError::at(
                "updating a value that is not an array",
                span,
            ));
        };
        let (dis, _) = self.dim_indices(ds, idx, span)?;
        let xs = x.leaf_list();
        let mut new = Vec::new();
        for (k, leaf) in e.leaf_list().into_iter().enumerate() {
            let Some(val) = xs.get(k) else {
                return Err(InternaliseError::at(
                    "update value has the wrong shape",
                    span,
                ));
            };
            if let Some(before) = before {
                let Some(old) = before.get(k) else {
                    return Err(InternaliseError::at(
                        "update value has the wrong shape",
                        span,
                    ));
                };
                if val == old {
                    new.push(leaf);
                    continue;
                }
            }
            let Operand::Var(a) = leaf else {
                return Err(InternaliseError::at("updating a constant", span));
            };
            let a = self.fb.own(a)?;
            new.push(Operand::Var(
                self.fb.bind1("upd", Exp::Update(a, dis.clone(), *val))?,
            ));
        }
        Ok(V::Arr(
            ds.clone(),
            Box::new(e.with_leaves(&mut new.into_iter())),
        ))
    }
}
