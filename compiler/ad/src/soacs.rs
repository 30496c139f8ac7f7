//! Tangents through the SOACs.
//!
//! - `screma`: the map lambda also takes the tangent rows of the inputs
//!   that carry one (before the optional index parameter) and also returns
//!   tangents; each scan and reduction runs the jvp of its operator on
//!   (value, tangent) pairs, with zero tangents as neutral elements.
//! - `hist`: each histogram also updates a tangent destination with the
//!   paired operator, at the same bucket.
//! - `scatter`: the tangents are scattered with the same indices into a
//!   copy of the destination's tangent.

use ir::{
    Body, Exp, Hist, HistOp, Lambda, Operand, Param, ScanRed, Scatter, ScatterDest, Screma, Stm,
    VarId,
};

use crate::ctx::{Ctx, R, differentiable};

impl Ctx<'_> {
    /// The parameters of a map lambda over `inputs` extended with tangent
    /// parameters for the inputs that carry tangents, and those inputs'
    /// tangent arrays.
    fn map_params(&mut self, lam: &Lambda, inputs: &[VarId]) -> R<(Vec<Param>, Vec<VarId>)> {
        let n = inputs.len();
        let mut params = lam.params[..n.min(lam.params.len())].to_vec();
        let mut tin = Vec::new();
        for (k, inp) in inputs.iter().enumerate() {
            if self.ty(*inp).acc {
                return Err(self.err("an accumulator input of a SOAC"));
            }
            if let Some(Operand::Var(t)) = self.tangent(&(*inp).into()) {
                let p = lam.params[k].var;
                let tp = self.fresh_tan(p);
                self.tan.insert(p, tp.into());
                params.push(Param::new(tp));
                tin.push(t);
            }
        }
        params.extend_from_slice(&lam.params[n.min(lam.params.len())..]);
        Ok((params, tin))
    }

    /// The jvp of an operator with `k` = `neutral.len()` elements on
    /// (value, tangent) pairs: `(a, da, b, db) -> (r, dr)`, its neutral
    /// elements, and the element positions that have tangents.
    fn pair_op(
        &mut self,
        out: &mut Vec<Stm>,
        op: &Lambda,
        neutral: &[Operand],
    ) -> R<(Lambda, Vec<Operand>, Vec<usize>)> {
        let k = neutral.len();
        if op.params.len() != 2 * k || op.ret.len() != k {
            return Err(self.err("internal error: a malformed operator"));
        }
        let slots: Vec<usize> = (0..k)
            .filter(|&j| differentiable(&self.ty(op.params[j].var)))
            .collect();
        let mut params = op.params[..k].to_vec();
        for &j in &slots {
            let p = op.params[j].var;
            let tp = self.fresh_tan(p);
            self.tan.insert(p, tp.into());
            params.push(Param::new(tp));
        }
        params.extend_from_slice(&op.params[k..]);
        for &j in &slots {
            let p = op.params[k + j].var;
            let tp = self.fresh_tan(p);
            self.tan.insert(p, tp.into());
            params.push(Param::new(tp));
        }
        let mut bout = Vec::new();
        self.diff_body(&op.body, &mut bout)?;
        let mut result = op.body.result.clone();
        let mut ret = op.ret.clone();
        let mut ne = neutral.to_vec();
        for &j in &slots {
            result.push(self.tan_or_zero(&mut bout, &op.body.result[j])?);
            ret.push(op.ret[j].clone());
            let t = self.op_ty(&neutral[j]);
            ne.push(self.zeros_of(out, &t)?);
        }
        let lam = Lambda {
            params,
            ret,
            body: Body { stms: bout, result },
        };
        Ok((lam, ne, slots))
    }

    /// Appends to `pat` a fresh tangent variable for `v` and records it.
    fn tan_result(&mut self, pat: &mut Vec<VarId>, v: VarId) {
        let t = self.fresh_tan(v);
        pat.push(t);
        self.tan.insert(v, t.into());
    }

    /// Emits a `screma` with tangents.
    pub fn screma_stm(&mut self, out: &mut Vec<Stm>, stm: &Stm, s: &Screma) -> R<()> {
        let lam = &s.map;
        let (params, tin) = self.map_params(lam, &s.inputs)?;
        let mut bout = Vec::new();
        self.diff_body(&lam.body, &mut bout)?;
        let (mut result, mut ret, mut pat) = (Vec::new(), Vec::new(), Vec::new());
        let mut off = 0;
        let mut ops = Vec::new();
        for sr in s.scans.iter().chain(&s.reduces) {
            let k = sr.neutral.len();
            let (op, neutral, slots) = self.pair_op(out, &sr.op, &sr.neutral)?;
            result.extend_from_slice(&lam.body.result[off..off + k]);
            ret.extend_from_slice(&lam.ret[off..off + k]);
            pat.extend_from_slice(&stm.pat[off..off + k]);
            for &j in &slots {
                result.push(self.tan_or_zero(&mut bout, &lam.body.result[off + j])?);
                ret.push(lam.ret[off + j].clone());
                self.tan_result(&mut pat, stm.pat[off + j]);
            }
            ops.push(ScanRed {
                op,
                neutral,
                commutative: sr.commutative,
            });
            off += k;
        }
        let reduces = ops.split_off(s.scans.len());
        let mapped: Vec<usize> = (off..lam.ret.len()).collect();
        result.extend_from_slice(&lam.body.result[off..]);
        ret.extend_from_slice(&lam.ret[off..]);
        pat.extend_from_slice(&stm.pat[off..]);
        for &m in &mapped {
            if lam.ret[m].acc {
                return Err(self.err("an accumulator result of a screma"));
            }
            if differentiable(&lam.ret[m]) {
                result.push(self.tan_or_zero(&mut bout, &lam.body.result[m])?);
                ret.push(lam.ret[m].clone());
                self.tan_result(&mut pat, stm.pat[m]);
            }
        }
        let mut inputs = s.inputs.clone();
        inputs.extend(tin);
        out.push(Stm {
            pat,
            exp: Exp::Screma(Box::new(Screma {
                w: s.w,
                inputs,
                scans: ops,
                reduces,
                map: Lambda {
                    params,
                    ret,
                    body: Body { stms: bout, result },
                },
            })),
            attrs: stm.attrs.clone(),
            span: stm.span,
        });
        Ok(())
    }

    /// Emits a `hist` with tangent destinations.
    pub fn hist_stm(&mut self, out: &mut Vec<Stm>, stm: &Stm, h: &Hist) -> R<()> {
        let lam = &h.map;
        let (params, tin) = self.map_params(lam, &h.inputs)?;
        let mut bout = Vec::new();
        self.diff_body(&lam.body, &mut bout)?;
        let (mut result, mut ret, mut pat) = (Vec::new(), Vec::new(), Vec::new());
        let mut hists = Vec::new();
        let (mut off, mut poff) = (0, 0);
        for op in &h.hists {
            let k = op.dests.len();
            let (pop, neutral, slots) = self.pair_op(out, &op.op, &op.neutral)?;
            let mut dests = op.dests.clone();
            for &j in &slots {
                match self.consumable_tan(out, op.dests[j])? {
                    Operand::Var(t) => dests.push(t),
                    Operand::Const(_) => return Err(self.err("a scalar histogram destination")),
                }
            }
            result.extend_from_slice(&lam.body.result[off..off + 1 + k]);
            ret.extend_from_slice(&lam.ret[off..off + 1 + k]);
            pat.extend_from_slice(&stm.pat[poff..poff + k]);
            for &j in &slots {
                result.push(self.tan_or_zero(&mut bout, &lam.body.result[off + 1 + j])?);
                ret.push(lam.ret[off + 1 + j].clone());
                self.tan_result(&mut pat, stm.pat[poff + j]);
            }
            hists.push(HistOp {
                dests,
                neutral,
                op: pop,
            });
            off += 1 + k;
            poff += k;
        }
        let mut inputs = h.inputs.clone();
        inputs.extend(tin);
        out.push(Stm {
            pat,
            exp: Exp::Hist(Box::new(Hist {
                w: h.w,
                inputs,
                hists,
                map: Lambda {
                    params,
                    ret,
                    body: Body { stms: bout, result },
                },
            })),
            attrs: stm.attrs.clone(),
            span: stm.span,
        });
        Ok(())
    }

    /// Emits a `scatter` with tangent destinations.
    pub fn scatter_stm(&mut self, out: &mut Vec<Stm>, stm: &Stm, s: &Scatter) -> R<()> {
        let lam = &s.map;
        let (params, tin) = self.map_params(lam, &s.inputs)?;
        let mut bout = Vec::new();
        self.diff_body(&lam.body, &mut bout)?;
        let mut result = lam.body.result.clone();
        let mut ret = lam.ret.clone();
        let mut pat = stm.pat.clone();
        let mut dests = s.dests.clone();
        let mut off = 0;
        for (d, dest) in s.dests.iter().enumerate() {
            let value = lam.body.result[off + dest.rank];
            let has = self.tangent(&dest.arr.into()).is_some() || self.tangent(&value).is_some();
            if has && differentiable(&self.ty(dest.arr)) {
                let Operand::Var(ta) = self.consumable_tan(out, dest.arr)? else {
                    return Err(self.err("a scalar scatter destination"));
                };
                dests.push(ScatterDest {
                    arr: ta,
                    rank: dest.rank,
                });
                result.extend_from_slice(&lam.body.result[off..off + dest.rank]);
                ret.extend_from_slice(&lam.ret[off..off + dest.rank]);
                result.push(self.tan_or_zero(&mut bout, &value)?);
                ret.push(lam.ret[off + dest.rank].clone());
                self.tan_result(&mut pat, stm.pat[d]);
            }
            off += dest.rank + 1;
        }
        let mut inputs = s.inputs.clone();
        inputs.extend(tin);
        out.push(Stm {
            pat,
            exp: Exp::Scatter(Box::new(Scatter {
                w: s.w,
                inputs,
                dests,
                map: Lambda {
                    params,
                    ret,
                    body: Body { stms: bout, result },
                },
            })),
            attrs: stm.attrs.clone(),
            span: stm.span,
        });
        Ok(())
    }
}
