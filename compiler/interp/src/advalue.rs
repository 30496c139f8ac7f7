//! Differentiation of whole functions: `jvp2`, `vjp2`, `jmp2`, `mjp2`, `with_vjp`.
//!
//! Inputs are tagged scalar by scalar (tuples, records and arrays are flat collections
//! of their floats, traversed in a fixed order), the function runs on the tagged
//! values, and the result is untagged: forward mode reads the tangents off the
//! result, reverse mode seeds the result's adjoints and back-propagates along the tape.

use std::rc::Rc;

use syntax::Span;

use crate::ad::{self, CustomVjp, Tangent, Tape};
use crate::error::{R, at, rt_err};
use crate::eval::Interp;
use crate::ops;
use crate::scalar::Scalar;
use crate::value::{Array, Value};

/// Rebuilds `v` with every scalar replaced by `f` of it (array prototypes are kept).
pub fn map_scalars(v: &Value, f: &mut dyn FnMut(&Scalar) -> Scalar) -> Value {
    match v {
        Value::Scalar(s) => Value::Scalar(f(s)),
        Value::Array(a) => Value::Array(Array {
            elems: Rc::new(a.elems.iter().map(|x| map_scalars(x, f)).collect()),
            proto: a.proto.clone(),
        }),
        Value::Tuple(vs) => Value::Tuple(crate::value::tup(
            vs.iter().map(|x| map_scalars(x, f)).collect(),
        )),
        Value::Record(fs) => Value::Record(Rc::new(
            fs.iter()
                .map(|(n, x)| (n.clone(), map_scalars(x, f)))
                .collect(),
        )),
        Value::Sum(s) => Value::Sum(Rc::new((
            s.0.clone(),
            s.1.iter().map(|x| map_scalars(x, f)).collect(),
        ))),
        Value::Fun(_) => v.clone(),
    }
}

/// Rebuilds `v` with each scalar replaced by `f` of it and the corresponding scalar
/// of `w`, which must have the same structure and shape.
pub fn zip_scalars(
    v: &Value,
    w: &Value,
    f: &mut dyn FnMut(&Scalar, &Scalar) -> Scalar,
) -> Result<Value, String> {
    let bad = || "Size mismatch: a (co)tangent differs in shape from its value.".to_string();
    Ok(match (v, w) {
        (Value::Scalar(a), Value::Scalar(b)) => Value::Scalar(f(a, b)),
        (Value::Array(a), Value::Array(b)) => {
            if a.len() != b.len() {
                return Err(bad());
            }
            Value::Array(Array {
                elems: Rc::new(
                    a.elems
                        .iter()
                        .zip(b.elems.iter())
                        .map(|(x, y)| zip_scalars(x, y, f))
                        .collect::<Result<_, _>>()?,
                ),
                proto: a.proto.clone(),
            })
        }
        (Value::Tuple(a), Value::Tuple(b)) if a.len() == b.len() => {
            Value::Tuple(crate::value::tup(
                a.iter()
                    .zip(b.iter())
                    .map(|(x, y)| zip_scalars(x, y, f))
                    .collect::<Result<_, _>>()?,
            ))
        }
        (Value::Record(a), Value::Record(b)) if a.len() == b.len() => Value::Record(Rc::new(
            a.iter()
                .zip(b.iter())
                .map(|((n, x), (_, y))| Ok((n.clone(), zip_scalars(x, y, f)?)))
                .collect::<Result<_, String>>()?,
        )),
        (Value::Sum(a), Value::Sum(b)) if a.0 == b.0 && a.1.len() == b.1.len() => {
            Value::Sum(Rc::new((
                a.0.clone(),
                a.1.iter()
                    .zip(b.1.iter())
                    .map(|(x, y)| zip_scalars(x, y, f))
                    .collect::<Result<_, _>>()?,
            )))
        }
        (Value::Fun(_), _) => v.clone(),
        _ => return Err(bad()),
    })
}

/// Visits the scalars of `v` in traversal order.
fn each_scalar(v: &Value, f: &mut dyn FnMut(&Scalar)) {
    map_scalars(v, &mut |s| {
        f(s);
        Scalar::Bool(false)
    });
}

/// Zero (co)tangent of a scalar's type.
fn zero_like(s: &Scalar) -> Scalar {
    Scalar::zero(s.prim_type())
}

/// The highest perturbation level carried by a float in `v`, with its mode.
fn top_level(v: &Value) -> Option<(u32, bool)> {
    let mut best: Option<(u32, bool)> = None;
    each_scalar(v, &mut |s| {
        if let Scalar::Ad(a) = s
            && best.is_none_or(|(l, _)| a.level > l)
        {
            best = Some((a.level, matches!(a.tan, Tangent::Rev(..))));
        }
    });
    best
}

impl Interp {
    /// `jvp2 f x dx`: the result of `f x` and its directional derivative along `dx`.
    pub fn jvp2(&mut self, f: Value, x: &Value, dx: &Value, span: Span) -> R<Value> {
        let level = ad::fresh_level();
        let xt = at(zip_scalars(x, dx, &mut |p, t| ad::dual(level, p, t)), span)?;
        let y = self.apply(f, vec![xt], span)?;
        let primal = map_scalars(&y, &mut |s| ad::split_dual(level, s).0);
        let tangent = map_scalars(&y, &mut |s| {
            if s.is_differentiable() {
                ad::split_dual(level, s).1
            } else {
                zero_like(s)
            }
        });
        Ok(Value::Tuple(crate::value::tup(vec![primal, tangent])))
    }

    /// `vjp2 f x dy`: the result of `f x` and the input cotangent for output
    /// cotangent `dy`.
    pub fn vjp2(&mut self, f: Value, x: &Value, dy: &Value, span: Span) -> R<Value> {
        let level = ad::fresh_level();
        let tape = Rc::new(Tape::default());
        let mut inputs = Vec::new();
        let xt = map_scalars(x, &mut |s| {
            let (t, idx) = ad::tag_input(level, &tape, s);
            inputs.push(idx);
            t
        });
        let y = self.apply(f, vec![xt], span)?;
        let n = tape.nodes.borrow().len();
        let mut adj: Vec<Option<Scalar>> = vec![None; n];
        let mut seed_err = None;
        let seeded = zip_scalars(&y, dy, &mut |s, d| {
            if let Some(i) = ad::rev_node(level, s) {
                let d = ops::convert(d, s.prim_type());
                adj[i] = Some(match &adj[i] {
                    Some(a) => match ops::add(a, &d) {
                        Ok(v) => v,
                        Err(e) => {
                            seed_err = Some(e);
                            d
                        }
                    },
                    None => d,
                });
            }
            Scalar::Bool(false)
        });
        at(seeded, span)?;
        if let Some(e) = seed_err {
            return Err(rt_err(e, span));
        }
        self.backpropagate(&tape, &mut adj, span)?;
        let primal = map_scalars(&y, &mut |s| ad::strip_level(level, s));
        let mut k = 0;
        let xbar = map_scalars(x, &mut |s| {
            let r = match inputs.get(k).copied().flatten() {
                Some(i) => adj[i].clone().unwrap_or_else(|| zero_like(s)),
                None => zero_like(s),
            };
            k += 1;
            r
        });
        Ok(Value::Tuple(crate::value::tup(vec![primal, xbar])))
    }

    /// Propagates adjoints from the last node of `tape` to the first, running the
    /// hand-written derivatives of `with_vjp` blocks when their outputs are done.
    fn backpropagate(&mut self, tape: &Tape, adj: &mut [Option<Scalar>], span: Span) -> R<()> {
        let n = tape.nodes.borrow().len().min(adj.len());
        for i in (0..n).rev() {
            let custom = tape.nodes.borrow()[i].custom.clone();
            if let Some(c) = custom {
                self.run_custom(tape, &c, adj, span)?;
            }
            let Some(a) = adj[i].clone() else {
                continue;
            };
            let parents: Vec<(usize, Scalar)> = tape.nodes.borrow()[i].parents.clone();
            for (p, partial) in parents {
                let contrib = at(ops::mul(&partial, &a), span)?;
                let pty = tape.nodes.borrow()[p].ty;
                let contrib = ops::convert(&contrib, pty);
                adj[p] = Some(match &adj[p] {
                    Some(old) => at(ops::add(old, &contrib), span)?,
                    None => contrib,
                });
            }
        }
        Ok(())
    }

    fn run_custom(
        &mut self,
        tape: &Tape,
        c: &CustomVjp,
        adj: &mut [Option<Scalar>],
        span: Span,
    ) -> R<()> {
        let mut k = 0;
        let dy = map_scalars(&c.y, &mut |s| {
            if !s.is_differentiable() {
                return zero_like(s);
            }
            let r = c
                .y_nodes
                .get(k)
                .and_then(|&i| adj.get(i).cloned().flatten())
                .unwrap_or_else(|| zero_like(s));
            k += 1;
            r
        });
        let dx = self.apply(c.df.clone(), vec![c.y.clone(), dy], span)?;
        let mut contribs = Vec::new();
        at(
            zip_scalars(&c.x, &dx, &mut |t, d| {
                if t.is_differentiable() {
                    contribs.push(d.clone());
                }
                Scalar::Bool(false)
            }),
            span,
        )?;
        for (slot, d) in c.x_nodes.iter().zip(contribs) {
            if let Some(p) = slot {
                let pty = tape.nodes.borrow()[*p].ty;
                let d = ops::convert(&ad::strip_level(c.level, &d), pty);
                adj[*p] = Some(match &adj[*p] {
                    Some(old) => at(ops::add(old, &d), span)?,
                    None => d,
                });
            }
        }
        Ok(())
    }

    /// `with_vjp f df x`: `f x`, with `df` as its derivative under reverse mode.
    pub fn with_vjp(&mut self, f: Value, df: Value, x: Value, span: Span) -> R<Value> {
        let Some((level, true)) = top_level(&x) else {
            return self.apply(f, vec![x], span);
        };
        let mut tape: Option<Rc<Tape>> = None;
        let mut x_nodes = Vec::new();
        let xs = map_scalars(&x, &mut |s| {
            if s.is_differentiable() {
                if let Scalar::Ad(a) = s
                    && a.level == level
                    && let Tangent::Rev(t, i) = &a.tan
                {
                    tape = Some(t.clone());
                    x_nodes.push(Some(*i));
                } else {
                    x_nodes.push(None);
                }
            }
            ad::strip_level(level, s)
        });
        let Some(tape) = tape else {
            return self.apply(f, vec![x], span);
        };
        let y = self.apply(f, vec![xs.clone()], span)?;
        let y = map_scalars(&y, &mut |s| ad::strip_level(level, s));
        let mut y_nodes = Vec::new();
        let mut tagged = Vec::new();
        each_scalar(&y, &mut |s| {
            if s.is_differentiable() {
                let (t, idx) = ad::tag_input(level, &tape, s);
                y_nodes.extend(idx);
                tagged.push(t);
            }
        });
        if let Some(&first) = y_nodes.first() {
            let custom = Rc::new(CustomVjp {
                df,
                y: y.clone(),
                y_nodes: y_nodes.clone(),
                x: xs,
                x_nodes,
                level,
            });
            tape.nodes.borrow_mut()[first].custom = Some(custom);
        }
        let mut it = tagged.into_iter();
        Ok(map_scalars(&y, &mut |s| {
            if s.is_differentiable() {
                it.next().unwrap_or_else(|| s.clone())
            } else {
                s.clone()
            }
        }))
    }

    /// `jmp2 f x dxs` / `mjp2 f x dys`: one derivative per row of the last argument.
    pub fn many(&mut self, forward: bool, f: Value, x: &Value, ds: &Value, span: Span) -> R<Value> {
        let Value::Array(rows) = ds else {
            return Err(rt_err("expected an array of (co)tangents", span));
        };
        let mut primal = None;
        let mut outs = Vec::with_capacity(rows.len());
        for d in rows.elems.iter() {
            let r = if forward {
                self.jvp2(f.clone(), x, d, span)?
            } else {
                self.vjp2(f.clone(), x, d, span)?
            };
            if let Value::Tuple(p) = r {
                primal.get_or_insert_with(|| p[0].clone());
                outs.push(p[1].clone());
            }
        }
        let primal = match primal {
            Some(p) => p,
            None => self.apply(f, vec![x.clone()], span)?,
        };
        let proto = if forward { primal.clone() } else { x.clone() };
        Ok(Value::Tuple(crate::value::tup(vec![
            primal,
            Value::array(outs, Some(Rc::new(proto))),
        ])))
    }
}
