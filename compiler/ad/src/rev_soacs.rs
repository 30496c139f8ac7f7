//! Adjoints through `screma`.
//!
//! The return sweep of a `screma` is a `screma` over the same inputs and
//! the adjoints of the mapped results, whose lambda re-executes the map
//! lambda on one row and sweeps it back. It maps out the adjoints of the
//! input rows, and sums the adjoints of the free variables over the
//! iterations with one `+` reduction each. A reduction with `+` passes its
//! result's adjoint unchanged to every element it reduced; scans and
//! reductions with other operators go through [`crate::rev_scanred`].

use std::collections::HashSet;

use ir::{BinOp, Body, Exp, Lambda, Operand, Param, ScanRed, Screma, Stm, Type, VarId};

use crate::ctx::{Ctx, R, konst};
use crate::rev_scanred::is_binop;

impl Ctx<'_> {
    /// The return sweep of a `screma`.
    pub fn rev_screma(&mut self, out: &mut Vec<Stm>, stm: &Stm, s: &Screma) -> R<()> {
        if s.inputs.iter().any(|v| self.ty(*v).acc) {
            return Err(self.err("a screma over accumulators inside vjp"));
        }
        let nscan: usize = s.scans.iter().map(|sr| sr.neutral.len()).sum();
        let mut split = stm.pat[..nscan].iter().any(|v| self.adj.contains_key(v));
        let mut at = nscan;
        for sr in &s.reduces {
            let k = sr.neutral.len();
            let used = stm.pat[at..at + k].iter().any(|v| self.adj.contains_key(v));
            split |= used && !is_binop(sr, BinOp::Add);
            at += k;
        }
        if split {
            return self.rev_screma_split(out, stm, s);
        }
        let nred = at - nscan;
        let nin = s.inputs.len();
        let pvars: Vec<VarId> = s.map.params.iter().map(|p| p.var).collect();
        let (ps, body) = self.rename(&pvars, &s.map.body);
        // Seeds of the lambda's results and the extra inputs.
        let mut seeds: Vec<Option<Operand>> = vec![None; nscan];
        for v in &stm.pat[nscan..nscan + nred] {
            seeds.push(self.adj.get(v).copied());
        }
        let mut adj_inputs = Vec::new();
        let mut adj_rows = Vec::new();
        for v in &stm.pat[nscan + nred..] {
            match self.adj.get(v).and_then(Operand::var) {
                Some(a) if !self.ty(*v).acc => {
                    let t = self.ty(a);
                    let row = Type::array(t.elem, t.shape[1..].to_vec());
                    let r = self.fresh("adj_row", row);
                    adj_inputs.push(a);
                    adj_rows.push(r);
                    seeds.push(Some(r.into()));
                }
                _ => seeds.push(None),
            }
        }
        let mut b = Vec::new();
        self.fwd_body(&body, &mut b)?;
        let saved = self.enter_scope();
        let swept = self.rev_body(&body, &seeds, &mut b).and_then(|()| {
            let mut res = Vec::new();
            for p in &ps[..nin] {
                if self.active(&(*p).into()) {
                    res.push((*p, self.adj_or_zero(&mut b, *p)?));
                }
            }
            Ok(res)
        });
        let mut binds: HashSet<VarId> = ps.iter().copied().collect();
        ir::uses::body_binds(&body, &mut binds);
        let mut free: Vec<(VarId, Operand)> = self
            .adj
            .iter()
            .filter(|(v, _)| !binds.contains(v))
            .map(|(v, a)| (*v, *a))
            .collect();
        free.sort_by_key(|(v, _)| v.as_u32());
        self.leave_scope(saved);
        let param_adjs = swept?;
        let mut params: Vec<Param> = ps[..nin].iter().copied().map(Param::new).collect();
        params.extend(adj_rows.iter().copied().map(Param::new));
        if ps.len() > nin {
            params.push(Param::new(ps[nin]));
        }
        let mut inputs = s.inputs.clone();
        inputs.extend(adj_inputs);
        let mut ret = Vec::new();
        let mut result = Vec::new();
        let mut reduces = Vec::new();
        let mut pat = Vec::new();
        for (f, a) in &free {
            let t = self.ty(*f);
            ret.push(t.clone());
            result.push(*a);
            let op = self.add_lambda(&t)?;
            let zero = if t.shape.is_empty() {
                konst(t.elem, 0.0)
            } else {
                self.zeros_of(out, &t)?
            };
            reduces.push(ScanRed {
                op,
                neutral: vec![zero],
                commutative: true,
            });
            pat.push(self.fresh("adj_free", t));
        }
        let ws = s.w.to_size();
        let mut targets = Vec::new();
        for (p, a) in &param_adjs {
            let t = self.ty(*p);
            ret.push(t.clone());
            result.push(*a);
            pat.push(self.fresh("adj_in", t.array_of(ws)));
            targets.push(*p);
        }
        if pat.is_empty() {
            return Ok(());
        }
        self.push(
            out,
            pat.clone(),
            Exp::Screma(Box::new(Screma {
                w: s.w,
                inputs,
                scans: Vec::new(),
                reduces,
                map: Lambda {
                    params,
                    ret,
                    body: Body { stms: b, result },
                },
            })),
        );
        for (n, (f, _)) in free.iter().enumerate() {
            self.add_adj(out, &(*f).into(), pat[n].into(), true)?;
        }
        for (n, p) in targets.iter().enumerate() {
            let j = ps.iter().position(|q| q == p).unwrap_or(0);
            let x = s.inputs[j];
            self.add_adj(out, &x.into(), pat[free.len() + n].into(), true)?;
        }
        Ok(())
    }
}
