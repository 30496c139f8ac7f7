//! Reverse mode of accumulators: the return sweep of a `with_acc` (as the
//! expansion of an inner `vjp` emits it), so that a `vjp` of a `vjp`
//! through a gather in a map differentiates.
//!
//! `(r, …) = with_acc(a op(+), \c -> body)` computes `r = a + Σᵤ eᵤ`, where
//! each `update_acc(c, i, v)` of the body adds `v` at index `i` (`eᵤ` is
//! zero elsewhere). With `r̄` the adjoint of `r`, `ā += r̄`, and each update
//! gets `v̄ = r̄[i]`, the element (or row) of `r̄` where it wrote. That is
//! the gradient of `L = Σᵤ ⟨r̄[iᵤ], vᵤ⟩` with respect to the values, so the
//! rule sweeps back an accumulator-free copy of the body that computes `L`:
//! - the accumulator becomes a scalar, the sum so far of the products
//!   `⟨r̄[i], v⟩` (starting from zero); `r̄` and its reads carry no adjoint
//!   ([`Ctx::inactive`](crate::ctx::Ctx::inactive)), and an update out of
//!   bounds (which changes nothing) adds nothing;
//! - a `screma` taking the accumulator sums its iterations' products with a
//!   new `+` reduction, an `if` returns the sum from its branches, and a
//!   loop carries it as a parameter;
//! - the copy's results are the sums, seeded with one, and the body's
//!   other results, seeded with their adjoints.
//!
//! The copy is then run again and swept back by the ordinary rules.
//! An accumulator without an operator overwrites: `update_acc(c, i, v)` is
//! then `c with [i] = v`, and the copy updates an array in place (of
//! unspecified initial contents: the values are never read), whose adjoint
//! after the sweep, the result's with the written elements zeroed (the last
//! write to an element takes its adjoint), goes to `a`. Overwrites inside a
//! map, and accumulators with another operator, are reported as errors.
//! Accumulators of integers follow the same rule in integer arithmetic; an
//! accumulator whose result has no adjoint contributes nothing: its
//! updates are left out of the copy.

use std::collections::{HashMap, HashSet};

use ir::{
    BinOp, Body, DimIndex, Exp, Lambda, Operand, Param, ScanRed, Screma, Stm, Type, VarId, WithAcc,
};

use opt::acc_screma::{AddedReduction, accs_to_reductions, threaded_accs};

use crate::ctx::{Ctx, R, konst};
use crate::fwd_acc::is_addition;

/// What an accumulator of the body becomes in the accumulator-free copy.
#[derive(Clone, Copy, Debug, PartialEq)]
enum Lin {
    /// A `+` accumulator whose result has adjoint `adj`: `sum` is the sum so
    /// far of the products of its updates with `adj` where they wrote.
    Dot {
        /// The sum (a constant zero before any update).
        sum: Operand,
        /// The adjoint of the `with_acc` result.
        adj: VarId,
    },
    /// An overwriting accumulator: the array it updates in place.
    Array(VarId),
    /// An accumulator whose updates contribute nothing.
    Dead,
}

/// Accumulators in scope and what they became.
type Map = HashMap<VarId, Lin>;

fn is_zero(o: &Operand) -> bool {
    match o {
        Operand::Const(c) => c.as_f64() == Some(0.0) || c.as_i128() == Some(0),
        Operand::Var(_) => false,
    }
}

impl Ctx<'_> {
    /// The return sweep of `stm = with_acc(inputs, lambda)` (see the module
    /// documentation).
    pub fn rev_with_acc(&mut self, out: &mut Vec<Stm>, stm: &Stm, w: &WithAcc) -> R<()> {
        let lam = &w.lambda;
        let k = w.inputs.len();
        if lam.params.len() != k
            || lam.body.result.len() != lam.ret.len()
            || stm.pat.len() != lam.ret.len()
            || lam.ret.len() < k
        {
            return Err(self.err("internal error: a malformed with_acc"));
        }
        let pvars: Vec<VarId> = lam.params.iter().map(|p| p.var).collect();
        let (ps, body) = self.rename(&pvars, &lam.body);
        let mut map = Map::new();
        let mut stms = Vec::new();
        // (input, adjoint of the result) for `+`, (input, array) for overwrites.
        let mut sums = Vec::new();
        let mut arrays = Vec::new();
        for (j, inp) in w.inputs.iter().enumerate() {
            let t = self.ty(inp.arr);
            let seed = self.adj.get(&stm.pat[j]).copied();
            let lin = match (&inp.op, seed) {
                (Some((op, _)), _) if !is_addition(op) => {
                    return Err(self.err(
                        "an accumulator whose operator is not `+` inside vjp (reverse mode of accumulators knows `+` and overwriting updates)",
                    ));
                }
                (_, None) => Lin::Dead,
                (Some(_), Some(Operand::Var(a))) if t.elem != ir::PrimType::Bool => {
                    self.inactive.insert(a);
                    sums.push((inp.arr, a));
                    Lin::Dot {
                        sum: konst(t.elem, 0.0),
                        adj: a,
                    }
                }
                (Some(_), _) => Lin::Dead,
                (None, Some(_)) => {
                    let arr_t = Type {
                        acc: false,
                        ..t.clone()
                    };
                    let shape = arr_t.shape.clone();
                    let c = self.fresh("acc_arr", arr_t);
                    self.push(
                        &mut stms,
                        vec![c],
                        Exp::Scratch {
                            elem: t.elem,
                            shape,
                        },
                    );
                    arrays.push((inp.arr, c));
                    Lin::Array(c)
                }
            };
            map.insert(ps[j], lin);
        }
        self.lin_stms(&body.stms, &mut map, &mut stms)?;
        let mut result = Vec::new();
        let mut seeds = Vec::new();
        for (j, r) in body.result[..k].iter().enumerate() {
            match self.lin_of(&map, r)? {
                Lin::Dot { sum, .. } => {
                    let t = self.op_ty(&sum).elem;
                    result.push(sum);
                    seeds.push(Some(konst(t, 1.0)));
                }
                Lin::Array(a) => {
                    result.push(a.into());
                    seeds.push(self.adj.get(&stm.pat[j]).copied());
                }
                Lin::Dead => {}
            }
        }
        for (r, y) in body.result[k..].iter().zip(&stm.pat[k..]) {
            result.push(*r);
            seeds.push(self.adj.get(y).copied());
        }
        let lin = Body { stms, result };
        self.fwd_body(&lin, out)?;
        self.rev_body(&lin, &seeds, out)?;
        for (arr, a) in sums {
            self.add_adj(out, &arr.into(), a.into(), false)?;
        }
        for (arr, c) in arrays {
            if let Some(a) = self.adj.remove(&c) {
                let owned = self.owned.remove(&c);
                self.add_adj(out, &arr.into(), a, owned)?;
            }
        }
        Ok(())
    }

    /// What the accumulator `o` became.
    fn lin_of(&self, map: &Map, o: &Operand) -> R<Lin> {
        o.var()
            .and_then(|v| map.get(&v).copied())
            .ok_or_else(|| self.err("internal error: an accumulator lost in reverse mode"))
    }

    /// Appends to `out` the accumulator-free copy of `stms`.
    fn lin_stms(&mut self, stms: &[Stm], map: &mut Map, out: &mut Vec<Stm>) -> R<()> {
        for stm in stms {
            self.span = stm.span;
            self.lin_stm(stm, map, out)?;
        }
        Ok(())
    }

    fn lin_stm(&mut self, stm: &Stm, map: &mut Map, out: &mut Vec<Stm>) -> R<()> {
        let mut used = HashSet::new();
        ir::uses::exp_uses(self.vars(), &stm.exp, &mut used);
        let touches =
            used.iter().any(|v| map.contains_key(v)) || stm.pat.iter().any(|v| self.ty(*v).acc);
        if !touches {
            out.push(stm.clone());
            return Ok(());
        }
        match &stm.exp {
            Exp::Atom(o) => {
                let l = self.lin_of(map, o)?;
                map.insert(stm.pat[0], l);
                Ok(())
            }
            Exp::UpdateAcc { acc, idx, value } => {
                let l = self.lin_of(map, &(*acc).into())?;
                let l2 = self.lin_update(out, l, idx, value)?;
                map.insert(stm.pat[0], l2);
                Ok(())
            }
            Exp::Screma(s) => self.lin_screma(stm, s, map, out),
            Exp::If {
                cond,
                then_body,
                else_body,
            } => {
                let mut results = Vec::new();
                let mut bodies = Vec::new();
                for b in [then_body, else_body] {
                    let mut m = map.clone();
                    let mut stms = Vec::new();
                    self.lin_stms(&b.stms, &mut m, &mut stms)?;
                    let mut lins = Vec::new();
                    for (y, r) in stm.pat.iter().zip(&b.result) {
                        lins.push(if self.ty(*y).acc {
                            Some(self.lin_of(&m, r)?)
                        } else {
                            None
                        });
                    }
                    results.push(lins);
                    bodies.push(stms);
                }
                self.span = stm.span;
                let mut pat = Vec::new();
                let mut res = [Vec::new(), Vec::new()];
                for (n, y) in stm.pat.iter().enumerate() {
                    let (lt, le) = (results[0][n], results[1][n]);
                    match (lt, le) {
                        (None, _) | (_, None) => {
                            pat.push(*y);
                            res[0].push(then_body.result[n]);
                            res[1].push(else_body.result[n]);
                        }
                        (Some(lt), Some(le)) => {
                            let Some((v, a, b)) = self.merge(*y, lt, le, map)? else {
                                continue;
                            };
                            pat.push(v);
                            res[0].push(a);
                            res[1].push(b);
                        }
                    }
                }
                let [rt, re] = res;
                let else_stms = bodies.pop().unwrap_or_default();
                let then_stms = bodies.pop().unwrap_or_default();
                out.push(Stm {
                    pat,
                    exp: Exp::If {
                        cond: *cond,
                        then_body: Body {
                            stms: then_stms,
                            result: rt,
                        },
                        else_body: Body {
                            stms: else_stms,
                            result: re,
                        },
                    },
                    attrs: stm.attrs.clone(),
                    span: stm.span,
                });
                Ok(())
            }
            Exp::Loop { params, form, body } => {
                let mut m = map.clone();
                let mut nparams = Vec::new();
                let mut kinds = Vec::new();
                for (p, init) in params {
                    if !self.ty(p.var).acc {
                        nparams.push((*p, *init));
                        kinds.push(None);
                        continue;
                    }
                    let l = self.lin_of(map, init)?;
                    let (np, ni) = match l {
                        Lin::Dead => {
                            m.insert(p.var, Lin::Dead);
                            kinds.push(Some(Lin::Dead));
                            continue;
                        }
                        Lin::Dot { sum, adj } => {
                            let t = Type::scalar(self.ty(p.var).elem);
                            let v = self.fresh("acc_sum", t);
                            m.insert(p.var, Lin::Dot { sum: v.into(), adj });
                            kinds.push(Some(Lin::Dot { sum: v.into(), adj }));
                            (Param::new(v), sum)
                        }
                        Lin::Array(a) => {
                            let v = self.fresh("acc_arr", self.ty(a));
                            m.insert(p.var, Lin::Array(v));
                            kinds.push(Some(Lin::Array(v)));
                            (
                                Param {
                                    var: v,
                                    unique: true,
                                },
                                a.into(),
                            )
                        }
                    };
                    nparams.push((np, ni));
                }
                let mut stms = Vec::new();
                self.lin_stms(&body.stms, &mut m, &mut stms)?;
                self.span = stm.span;
                let mut result = Vec::new();
                let mut pat = Vec::new();
                for ((r, y), kind) in body.result.iter().zip(&stm.pat).zip(&kinds) {
                    match kind {
                        None => {
                            result.push(*r);
                            pat.push(*y);
                        }
                        Some(Lin::Dead) => {
                            map.insert(*y, Lin::Dead);
                        }
                        Some(Lin::Dot { adj, .. }) => {
                            let Lin::Dot { sum, .. } = self.lin_of(&m, r)? else {
                                return Err(self.err("internal error: a loop changed an accumulator"));
                            };
                            result.push(sum);
                            let v = self.fresh("acc_sum", self.op_ty(&sum));
                            map.insert(*y, Lin::Dot {
                                sum: v.into(),
                                adj: *adj,
                            });
                            pat.push(v);
                        }
                        Some(Lin::Array(a)) => {
                            let Lin::Array(b) = self.lin_of(&m, r)? else {
                                return Err(self.err("internal error: a loop changed an accumulator"));
                            };
                            result.push(b.into());
                            let v = self.fresh("acc_arr", self.ty(*a));
                            map.insert(*y, Lin::Array(v));
                            pat.push(v);
                        }
                    }
                }
                out.push(Stm {
                    pat,
                    exp: Exp::Loop {
                        params: nparams,
                        form: *form,
                        body: Body { stms, result },
                    },
                    attrs: stm.attrs.clone(),
                    span: stm.span,
                });
                Ok(())
            }
            _ => Err(self.err(
                "an accumulator used by a construct other than update_acc, screma, if or loop inside vjp (reverse mode has no rule for it)",
            )),
        }
    }

    /// The result `y` of an `if` whose branches gave accumulators `lt` and
    /// `le`: the new pattern variable and the branch results, or `None`
    /// when it contributes nothing. Records what `y` became in `map`.
    fn merge(
        &mut self,
        y: VarId,
        lt: Lin,
        le: Lin,
        map: &mut Map,
    ) -> R<Option<(VarId, Operand, Operand)>> {
        match (lt, le) {
            (Lin::Dead, Lin::Dead) => {
                map.insert(y, Lin::Dead);
                Ok(None)
            }
            (Lin::Dot { sum: a, adj }, Lin::Dot { sum: b, adj: adj2 }) if adj == adj2 => {
                let t = Type::scalar(self.ty(y).elem);
                let v = self.fresh("acc_sum", t);
                map.insert(y, Lin::Dot { sum: v.into(), adj });
                Ok(Some((v, a, b)))
            }
            (Lin::Array(a), Lin::Array(b)) => {
                let v = self.fresh("acc_arr", self.ty(a));
                map.insert(y, Lin::Array(v));
                Ok(Some((v, a.into(), b.into())))
            }
            _ => Err(self.err(
                "an if whose branches return different accumulators inside vjp (reverse mode has no rule for it)",
            )),
        }
    }

    /// The copy of `update_acc(acc, idx, value)` where `acc` became `l`.
    /// An update at an index out of bounds changes nothing, so the copy's
    /// update is guarded by the index check (none without an index).
    fn lin_update(
        &mut self,
        out: &mut Vec<Stm>,
        l: Lin,
        idx: &[Operand],
        value: &Operand,
    ) -> R<Lin> {
        let dims: Vec<DimIndex> = idx.iter().copied().map(DimIndex::Fix).collect();
        match l {
            Lin::Dead => Ok(Lin::Dead),
            Lin::Dot { sum, adj } => {
                let at_ty = self.ty(adj);
                let inb = self.idx_in_bounds(out, &at_ty, idx)?;
                let mut b = Vec::new();
                let at = self.bind(&mut b, "acc_adj", Exp::Index(adj, dims))?;
                self.inactive.insert(at);
                let p = self.dot(&mut b, *value, at)?;
                let p = match inb {
                    None => {
                        out.extend(b);
                        p
                    }
                    Some(c) => {
                        let v = self.fresh("acc_dot", Type::scalar(at_ty.elem));
                        let zero = konst(at_ty.elem, 0.0);
                        self.push_if(out, v, c, (b, p), (Vec::new(), zero));
                        v.into()
                    }
                };
                let sum = if is_zero(&sum) {
                    p
                } else {
                    self.bin(out, BinOp::Add, sum, p)?
                };
                Ok(Lin::Dot { sum, adj })
            }
            Lin::Array(a) => {
                let t = self.ty(a);
                let inb = self.idx_in_bounds(out, &t, idx)?;
                let v = self.fresh("acc_arr", t.clone());
                let update = Exp::Update(a, dims, *value);
                match inb {
                    None => self.push(out, vec![v], update),
                    Some(c) => {
                        let w = self.fresh("acc_arr", t);
                        let mut tb = Vec::new();
                        self.push(&mut tb, vec![w], update);
                        self.push_if(out, v, c, (tb, w.into()), (Vec::new(), a.into()));
                    }
                }
                Ok(Lin::Array(v))
            }
        }
    }

    /// `0 <= idx[d] < shape[d]` for every index of `idx` into an array of
    /// type `t`; `None` without indices.
    fn idx_in_bounds(
        &mut self,
        out: &mut Vec<Stm>,
        t: &Type,
        idx: &[Operand],
    ) -> R<Option<Operand>> {
        if idx.is_empty() {
            return Ok(None);
        }
        let dims = t.shape[..idx.len()]
            .iter()
            .map(|n| self.size_op(n))
            .collect::<R<Vec<Operand>>>()?;
        Ok(Some(self.in_bounds(out, idx, &dims)?))
    }

    /// `⟨v, t⟩`: a product for scalars, else the sum of the elementwise
    /// products (`t` carries no adjoint).
    fn dot(&mut self, out: &mut Vec<Stm>, v: Operand, t: VarId) -> R<Operand> {
        let tt = self.ty(t);
        if tt.shape.is_empty() {
            return self.bin(out, BinOp::Mul, v, t.into());
        }
        let Operand::Var(vv) = v else {
            return Err(self.err("internal error: a constant row update"));
        };
        let w = self.size_op(&tt.shape[0])?;
        let row = Type::array(tt.elem, tt.shape[1..].to_vec());
        let x = self.fresh("v_row", row.clone());
        let y = self.fresh("adj_row", row);
        self.inactive.insert(y);
        let mut b = Vec::new();
        let r = self.dot(&mut b, x.into(), y)?;
        let scalar = Type::scalar(tt.elem);
        let op = self.add_lambda(&scalar)?;
        let exp = Exp::Screma(Box::new(Screma {
            w,
            inputs: vec![vv, t],
            scans: Vec::new(),
            reduces: vec![ScanRed {
                op,
                neutral: vec![konst(tt.elem, 0.0)],
                commutative: true,
            }],
            map: Lambda {
                params: vec![Param::new(x), Param::new(y)],
                ret: vec![scalar],
                body: Body {
                    stms: b,
                    result: vec![r],
                },
            },
        }));
        Ok(self.bind(out, "acc_dot", exp)?.into())
    }

    /// The copy of a `screma` taking accumulators: they leave its inputs,
    /// and the sums of the products of each one's updates become new `+`
    /// reductions, added to the sums before it.
    fn lin_screma(&mut self, stm: &Stm, s: &Screma, map: &mut Map, out: &mut Vec<Stm>) -> R<()> {
        let lam = &s.map;
        if lam.params.len() < s.inputs.len() {
            return Err(self.err("internal error: a screma lambda with too few parameters"));
        }
        let Some(threads) = threaded_accs(s, |v| self.ty(v).acc) else {
            return Err(self.err(
                "internal error: a screma returns another number of accumulators than it takes",
            ));
        };
        let mut m = Map::new();
        let mut outer = Vec::new();
        for acc in &threads {
            let x = s.inputs[acc.input];
            let l = self.lin_of(map, &x.into())?;
            let inner = match l {
                Lin::Dead => Lin::Dead,
                Lin::Dot { adj, .. } => Lin::Dot {
                    sum: konst(self.ty(x).elem, 0.0),
                    adj,
                },
                Lin::Array(_) => {
                    return Err(self.err(
                        "an overwriting accumulator updated inside a map inside vjp (reverse mode has no rule for it)",
                    ));
                }
            };
            m.insert(lam.params[acc.input].var, inner);
            outer.push(l);
        }
        let mut stms = Vec::new();
        self.lin_stms(&lam.body.stms, &mut m, &mut stms)?;
        self.span = stm.span;
        let mut added = Vec::new();
        let mut sums = Vec::new();
        for (acc, before) in threads.iter().zip(outer) {
            let y = stm.pat[acc.result];
            match (before, self.lin_of(&m, &lam.body.result[acc.result])?) {
                (Lin::Dot { sum: s0, adj }, Lin::Dot { sum, .. }) => {
                    let st = Type::scalar(lam.ret[acc.result].elem);
                    let op = self.add_lambda(&st)?;
                    let v = self.fresh("acc_sum", st.clone());
                    added.push(AddedReduction {
                        op: ScanRed {
                            op,
                            neutral: vec![konst(st.elem, 0.0)],
                            commutative: true,
                        },
                        ty: st,
                        value: sum,
                        var: v,
                    });
                    sums.push((y, s0, v, adj));
                }
                _ => {
                    map.insert(y, Lin::Dead);
                }
            }
        }
        let copy = Lambda {
            params: lam.params.clone(),
            ret: lam.ret.clone(),
            body: Body {
                stms,
                result: lam.body.result.clone(),
            },
        };
        out.push(accs_to_reductions(
            stm,
            s,
            copy,
            stm.pat.clone(),
            &threads,
            added,
        ));
        for (y, s0, v, adj) in sums {
            let sum = if is_zero(&s0) {
                v.into()
            } else {
                self.bin(out, BinOp::Add, s0, v.into())?
            };
            map.insert(y, Lin::Dot { sum, adj });
        }
        Ok(())
    }
}
