//! Strength reduction of quadratic index arithmetic in sequential loops.
//!
//! In the body of `for (i < n)`, an `i64` scalar assigned once, at the
//! body's top level, from sums, differences, products and exact divisions
//! by positive constants of the counter and values the loop does not
//! change is a polynomial in `i`. Where it is of degree 2 (a triangular
//! index such as `d + c*(d-1) - c*(c-1)/2 + (r-c-1)`, from packed lower
//! triangles), computing it afresh costs multiplications and a division in
//! every iteration, and the result is no affine index LLVM can follow. Two
//! running sums carried across the iterations give it with two additions
//! instead.
//!
//! A polynomial is held in Newton's basis, `p(i) = a0 + a1·i + a2·C(i,2)`,
//! whose coefficients are integers (sums of integer multiples of loop
//! invariants) exactly when the polynomial maps integers to integers;
//! `p(0) = a0` and `p(i+1) - p(i) = a1 + a2·i`. A division by a constant is
//! accepted only when every coefficient is a multiple of it, so the
//! quotient is exact for every `i` and the rounding of the original
//! division never matters. The arithmetic is `i64` wrapping arithmetic in
//! both forms; they agree wherever the original's intermediate products do
//! not overflow.
//!
//! The statements that only fed a reduced scalar are removed; the reduced
//! scalar's assignment reads the running sum, so the body's other
//! statements (bounds checks, reads) are unchanged.

use std::collections::HashMap;

use ir::{BinOp, PrimType, PrimValue, Span, UnOp};

use crate::{Block, Function, SExp, SVar, Stm, VarInfo};

/// The most invariant terms a coefficient may hold (beyond that the loop
/// is left alone: the running sums' set-up would cost more than it saves).
const MOST_TERMS: usize = 8;

/// Reduces the quadratic scalars of every sequential `for` loop of `f`.
pub(crate) fn reduce_quadratic_indices(f: &mut Function) {
    let mut cx = Cx {
        uses: HashMap::new(),
        vars: std::mem::take(&mut f.vars),
    };
    let mut body = std::mem::take(&mut f.body);
    count_uses(&body, &mut cx.uses);
    for s in &f.results {
        if let crate::Slot::Scalar(v) = s {
            *cx.uses.entry(*v).or_insert(0) += 1;
        }
    }
    for shape in &f.result_shapes {
        for e in shape {
            e.for_each_var(&mut |v| *cx.uses.entry(v).or_insert(0) += 1);
        }
    }
    walk(&mut body.stms, &mut cx);
    f.body = body;
    f.vars = cx.vars;
}

/// The pass's state: how many times each scalar is read in the function,
/// and the function's scalars (new ones are added).
struct Cx {
    uses: HashMap<SVar, usize>,
    vars: Vec<VarInfo>,
}

impl Cx {
    fn ty(&self, v: SVar) -> Option<PrimType> {
        self.vars.get(v.0 as usize).map(|i| i.ty)
    }

    fn new_var(&mut self, name: String) -> SVar {
        self.vars.push(VarInfo {
            name,
            ty: PrimType::I64,
        });
        SVar(self.vars.len() as u32 - 1)
    }

    fn count(&mut self, e: &SExp, delta: isize) {
        e.for_each_var(&mut |v| {
            let n = self.uses.entry(v).or_insert(0);
            *n = n.saturating_add_signed(delta);
        });
    }
}

fn walk(stms: &mut Vec<Stm>, cx: &mut Cx) {
    let mut k = 0;
    while k < stms.len() {
        for b in stms[k].blocks_mut() {
            walk(&mut b.stms, cx);
        }
        let pre = match &mut stms[k] {
            Stm::For { i, body, .. } => reduce_loop(*i, body, cx),
            _ => Vec::new(),
        };
        let added = pre.len();
        stms.splice(k..k, pre);
        k += added + 1;
    }
}

/// Reduces the quadratic scalars of one loop's body; returns the
/// statements that set up the running sums, to run before the loop.
fn reduce_loop(i: SVar, body: &mut Block, cx: &mut Cx) -> Vec<Stm> {
    if cx.ty(i) != Some(PrimType::I64) {
        return Vec::new();
    }
    let mut sets = HashMap::new();
    body.for_each_set(&mut |v| *sets.entry(v).or_insert(0) += 1);
    // The polynomial of each eligible top-level assignment, in order.
    let mut polys: HashMap<SVar, Poly> = HashMap::new();
    let mut order = Vec::new();
    for s in &body.stms {
        if let Stm::Assign { var, exp, .. } = s
            && *var != i
            && cx.ty(*var) == Some(PrimType::I64)
            && sets.get(var) == Some(&1)
        {
            let an = Analysis {
                i,
                polys: &polys,
                sets: &sets,
                cx,
            };
            if let Some(p) = an.poly(exp) {
                polys.insert(*var, p);
                order.push(*var);
            }
        }
    }
    // The quadratic scalars read elsewhere than in other quadratic ones'
    // assignments are the ones to reduce.
    let mut inner_uses: HashMap<SVar, usize> = HashMap::new();
    for s in &body.stms {
        if let Stm::Assign { var, exp, .. } = s
            && polys.get(var).is_some_and(|p| p.degree() == 2)
        {
            exp.for_each_var(&mut |v| *inner_uses.entry(v).or_insert(0) += 1);
        }
    }
    let roots: Vec<SVar> = order
        .iter()
        .copied()
        .filter(|v| {
            polys[v].degree() == 2
                && cx.uses.get(v).copied().unwrap_or(0) > inner_uses.get(v).copied().unwrap_or(0)
        })
        .collect();
    if roots.is_empty() {
        return Vec::new();
    }
    let mut pre = Vec::new();
    let mut post = Vec::new();
    for &r in &roots {
        let [a0, a1, a2] = polys[&r].0.clone();
        let name = cx.vars[r.0 as usize].name.clone();
        let value = cx.new_var(format!("{name}_at"));
        let step = cx.new_var(format!("{name}_step"));
        let second = match a2.to_sexp() {
            c @ SExp::Const(_) => c,
            e => {
                let s = cx.new_var(format!("{name}_step2"));
                pre.push(assign(s, e));
                SExp::Var(s)
            }
        };
        pre.push(assign(value, a0.to_sexp()));
        pre.push(assign(step, a1.to_sexp()));
        post.push(assign(value, SExp::plus(SExp::Var(value), SExp::Var(step))));
        post.push(assign(step, SExp::plus(SExp::Var(step), second)));
        for s in &mut body.stms {
            if let Stm::Assign { var, exp, .. } = s
                && *var == r
            {
                let old = std::mem::replace(exp, SExp::Var(value));
                cx.count(&old, -1);
                cx.count(exp, 1);
            }
        }
    }
    for s in pre.iter().chain(&post) {
        s.for_each_exp(&mut |e| cx.count(e, 1));
    }
    body.stms.extend(post);
    // Remove the assignments that only fed the reduced scalars.
    loop {
        let dead = body.stms.iter().position(|s| {
            matches!(s, Stm::Assign { var, .. }
                if polys.contains_key(var) && cx.uses.get(var).copied().unwrap_or(0) == 0)
        });
        let Some(k) = dead else { break };
        if let Stm::Assign { exp, .. } = body.stms.remove(k) {
            cx.count(&exp, -1);
        }
    }
    pre
}

fn assign(var: SVar, exp: SExp) -> Stm {
    Stm::Assign {
        var,
        exp,
        span: Span::NONE,
    }
}

/// Counts the reads of each scalar in `b` (nested blocks included).
fn count_uses(b: &Block, out: &mut HashMap<SVar, usize>) {
    for s in &b.stms {
        s.for_each_exp(&mut |e| e.for_each_var(&mut |v| *out.entry(v).or_insert(0) += 1));
        for inner in s.blocks() {
            count_uses(inner, out);
        }
    }
}

/// The polynomial reading of expressions in one loop's body.
struct Analysis<'a> {
    i: SVar,
    polys: &'a HashMap<SVar, Poly>,
    sets: &'a HashMap<SVar, usize>,
    cx: &'a Cx,
}

impl Analysis<'_> {
    fn poly(&self, e: &SExp) -> Option<Poly> {
        match e {
            SExp::Var(v) if *v == self.i => Some(Poly::counter()),
            SExp::Var(v) => match self.polys.get(v) {
                Some(p) => Some(p.clone()),
                None if !self.sets.contains_key(v) && self.cx.ty(*v) == Some(PrimType::I64) => {
                    Some(Poly::invariant(Lin::atom(e.clone())))
                }
                None => None,
            },
            SExp::Const(PrimValue::I64(k)) => Some(Poly::invariant(Lin::constant(*k))),
            SExp::UnOp(UnOp::Neg, x) => self.poly(x)?.scale(-1),
            SExp::BinOp(op, a, b) => {
                let (pa, pb) = (self.poly(a)?, self.poly(b)?);
                match op {
                    BinOp::Add => pa.add(&pb, 1),
                    BinOp::Sub => pa.add(&pb, -1),
                    BinOp::Mul => pa.mul(&pb),
                    BinOp::Div | BinOp::Quot => match pb.as_constant()? {
                        c if c > 0 => pa.div_exact(c),
                        _ => None,
                    },
                    _ => None,
                }
            }
            _ => None,
        }
    }
}

/// A value the loop does not change: `konst + Σ m·term`, each term a
/// product of invariant scalars.
#[derive(Clone, Debug, PartialEq)]
struct Lin {
    konst: i64,
    terms: Vec<(SExp, i64)>,
}

impl Lin {
    fn constant(k: i64) -> Lin {
        Lin {
            konst: k,
            terms: Vec::new(),
        }
    }

    fn atom(e: SExp) -> Lin {
        Lin {
            konst: 0,
            terms: vec![(e, 1)],
        }
    }

    fn is_zero(&self) -> bool {
        self.konst == 0 && self.terms.is_empty()
    }

    fn as_constant(&self) -> Option<i64> {
        self.terms.is_empty().then_some(self.konst)
    }

    /// `self + sign·other`.
    fn add(&self, other: &Lin, sign: i64) -> Option<Lin> {
        let mut out = self.clone();
        out.konst = out.konst.checked_add(other.konst.checked_mul(sign)?)?;
        for (t, m) in &other.terms {
            out.add_term(t.clone(), m.checked_mul(sign)?)?;
        }
        (out.terms.len() <= MOST_TERMS).then_some(out)
    }

    fn add_term(&mut self, t: SExp, m: i64) -> Option<()> {
        match self.terms.iter().position(|(u, _)| *u == t) {
            Some(k) => {
                self.terms[k].1 = self.terms[k].1.checked_add(m)?;
                if self.terms[k].1 == 0 {
                    self.terms.remove(k);
                }
            }
            None if m != 0 => self.terms.push((t, m)),
            None => {}
        }
        Some(())
    }

    fn scale(&self, m: i64) -> Option<Lin> {
        let mut out = Lin::constant(self.konst.checked_mul(m)?);
        for (t, n) in &self.terms {
            out.add_term(t.clone(), n.checked_mul(m)?)?;
        }
        Some(out)
    }

    fn mul(&self, other: &Lin) -> Option<Lin> {
        let mut out = other.scale(self.konst)?;
        for (t, m) in &self.terms {
            out.add_term(t.clone(), m.checked_mul(other.konst)?)?;
            for (u, n) in &other.terms {
                out.add_term(SExp::times(t.clone(), u.clone()), m.checked_mul(*n)?)?;
            }
        }
        (out.terms.len() <= MOST_TERMS).then_some(out)
    }

    /// `self / c`, when every multiplier is a multiple of `c`.
    fn div_exact(&self, c: i64) -> Option<Lin> {
        if self.konst % c != 0 || self.terms.iter().any(|(_, m)| m % c != 0) {
            return None;
        }
        Some(Lin {
            konst: self.konst / c,
            terms: self.terms.iter().map(|(t, m)| (t.clone(), m / c)).collect(),
        })
    }

    fn to_sexp(&self) -> SExp {
        self.terms
            .iter()
            .fold(SExp::i64(self.konst), |acc, (t, m)| match *m {
                -1 => SExp::minus(acc, t.clone()),
                m => SExp::plus(acc, SExp::times(SExp::i64(m), t.clone())),
            })
    }
}

/// A polynomial in the loop counter `i` of degree at most 2, in Newton's
/// basis: `p(i) = c[0] + c[1]·i + c[2]·i(i-1)/2`.
#[derive(Clone, Debug, PartialEq)]
struct Poly([Lin; 3]);

impl Poly {
    fn invariant(a: Lin) -> Poly {
        Poly([a, Lin::constant(0), Lin::constant(0)])
    }

    fn counter() -> Poly {
        Poly([Lin::constant(0), Lin::constant(1), Lin::constant(0)])
    }

    fn degree(&self) -> usize {
        (0..3).rev().find(|&k| !self.0[k].is_zero()).unwrap_or(0)
    }

    fn as_constant(&self) -> Option<i64> {
        if self.degree() == 0 {
            self.0[0].as_constant()
        } else {
            None
        }
    }

    fn add(&self, other: &Poly, sign: i64) -> Option<Poly> {
        Some(Poly([
            self.0[0].add(&other.0[0], sign)?,
            self.0[1].add(&other.0[1], sign)?,
            self.0[2].add(&other.0[2], sign)?,
        ]))
    }

    fn scale(&self, m: i64) -> Option<Poly> {
        Some(Poly([
            self.0[0].scale(m)?,
            self.0[1].scale(m)?,
            self.0[2].scale(m)?,
        ]))
    }

    /// The product, when its degree is at most 2: with `C1 = i` and
    /// `C2 = i(i-1)/2`, `C1·C1 = C1 + 2·C2`.
    fn mul(&self, other: &Poly) -> Option<Poly> {
        if self.degree() + other.degree() > 2 {
            return None;
        }
        let [p0, p1, p2] = &self.0;
        let [q0, q1, q2] = &other.0;
        let pq11 = p1.mul(q1)?;
        let c0 = p0.mul(q0)?;
        let c1 = p0.mul(q1)?.add(&p1.mul(q0)?, 1)?.add(&pq11, 1)?;
        let c2 = p0.mul(q2)?.add(&p2.mul(q0)?, 1)?.add(&pq11.scale(2)?, 1)?;
        Some(Poly([c0, c1, c2]))
    }

    fn div_exact(&self, c: i64) -> Option<Poly> {
        Some(Poly([
            self.0[0].div_exact(c)?,
            self.0[1].div_exact(c)?,
            self.0[2].div_exact(c)?,
        ]))
    }
}
