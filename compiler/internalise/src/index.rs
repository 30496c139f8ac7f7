//! Indexing, slicing and in-place updates of static values: one IR index or
//! update per leaf of the array's element tree.

use ir::{BinOp, DimIndex, Exp, Operand, PrimType, Size, UnOp};

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

    fn binop(&mut self, op: BinOp, a: Operand, b: Operand) -> IResult<Operand> {
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
        self.fb.scalar("s", Exp::BinOp(op, a, b))
    }

    /// The IR dimension indices of `idx` against dimensions `ds`, and the
    /// dimensions that remain.
    fn dim_indices(&mut self, ds: &[Size], idx: &[Idx]) -> IResult<(Vec<DimIndex>, Vec<Size>)> {
        let mut out = Vec::new();
        let mut rest = Vec::new();
        for (k, d) in ds.iter().enumerate() {
            let dim = crate::value::size_operand(*d);
            match idx.get(k) {
                None => rest.push(*d),
                Some(Idx::Fix(i)) => {
                    let i = self.as_i64(*i)?;
                    out.push(DimIndex::Fix(i));
                }
                Some(Idx::Slice { start, end, stride }) => {
                    let s = match stride {
                        Some(s) => self.as_i64(*s)?,
                        None => i64c(1),
                    };
                    let neg = matches!(s, Operand::Const(c) if c.as_i128().is_some_and(|x| x < 0));
                    let known = matches!(s, Operand::Const(_));
                    let start = match start {
                        Some(x) => self.as_i64(*x)?,
                        None if neg => self.binop(BinOp::Sub, dim, i64c(1))?,
                        None => i64c(0),
                    };
                    let end = match end {
                        Some(x) => self.as_i64(*x)?,
                        None if neg => i64c(-1),
                        None => dim,
                    };
                    let len = if s == i64c(1) {
                        self.binop(BinOp::Sub, end, start)?
                    } else {
                        let sg = if known {
                            if neg { i64c(-1) } else { i64c(1) }
                        } else {
                            self.fb.scalar("sg", Exp::UnOp(UnOp::Signum, s))?
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
        let (dis, rest) = self.dim_indices(ds, idx)?;
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
        let V::Arr(ds, e) = v else {
            return Err(InternaliseError::at(
                "updating a value that is not an array",
                span,
            ));
        };
        let (dis, _) = self.dim_indices(ds, idx)?;
        let xs = x.leaf_list();
        let mut new = Vec::new();
        for (k, leaf) in e.leaf_list().into_iter().enumerate() {
            let Operand::Var(a) = leaf else {
                return Err(InternaliseError::at("updating a constant", span));
            };
            let Some(val) = xs.get(k) else {
                return Err(InternaliseError::at(
                    "update value has the wrong shape",
                    span,
                ));
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
