//! The generator: random well-typed expressions of a requested type, built from
//! the variables in scope, with undefined behaviour ruled out by construction
//! (indices reduced modulo a length checked non-zero, divisors and shift amounts
//! masked into a safe range, float-to-integer conversions only of values in
//! range, scatter indices distinct, reduction operators associative).

use values::generate::Rng;

use crate::expr::{Builder, Expr, prim_lit, zero};
use crate::ty::{PRIMS, Prim, Ty};

/// A generated helper function's signature, as callers see it.
#[derive(Clone, Debug)]
pub struct HelperSig {
    /// The name to call it by (`f2`, or `M3.f2` inside a module).
    pub call: String,
    /// Its size parameter.
    pub dim: String,
    /// Parameter types (sizes named `dim`).
    pub params: Vec<Ty>,
    /// Result type (sizes named `dim`).
    pub ret: Ty,
}

/// What is in scope: variables with their types, and the size names.
#[derive(Clone, Debug, Default)]
pub struct Scope {
    /// Variables, innermost last.
    pub vars: Vec<(String, Ty)>,
    /// Size names usable as array sizes (each also an `i64` variable).
    pub dims: Vec<String>,
}

impl Scope {
    /// The scope with `name: ty` added.
    pub fn with(&self, name: &str, ty: &Ty) -> Scope {
        let mut s = self.clone();
        s.vars.push((name.to_string(), ty.clone()));
        s
    }
}

/// The generator's state.
pub struct Gen {
    /// The random source.
    pub rng: Rng,
    fresh: usize,
    /// Helpers callable from the code being generated.
    pub helpers: Vec<HelperSig>,
}

/// An associative and commutative operator with its neutral element.
#[derive(Clone, Copy, Debug)]
enum Op {
    Infix(&'static str),
    Fun(&'static str),
}

impl Gen {
    /// A generator seeded with `seed`.
    pub fn new(seed: u64) -> Gen {
        Gen {
            rng: Rng::new(seed),
            fresh: 0,
            helpers: Vec::new(),
        }
    }

    /// A uniform integer in `0..n` (`n > 0`).
    pub fn below(&mut self, n: usize) -> usize {
        self.rng.int_in(0, n as i128 - 1) as usize
    }

    /// True with probability `p`.
    pub fn chance(&mut self, p: f64) -> bool {
        self.rng.next_f64() < p
    }

    /// A fresh name with prefix `p` (`i32` among them: a variable does not hide
    /// the module `i32` of `i32.highest`).
    pub fn fresh(&mut self, p: &str) -> String {
        self.fresh += 1;
        format!("{p}{}", self.fresh)
    }

    /// One of `xs` (non-empty).
    pub fn pick<T: Clone>(&mut self, xs: &[T]) -> T {
        xs[self.below(xs.len())].clone()
    }

    /// A random primitive type, common ones more likely.
    pub fn prim(&mut self) -> Prim {
        if self.chance(0.5) {
            self.pick(&[Prim::I32, Prim::I64, Prim::F32, Prim::F64])
        } else {
            self.pick(&PRIMS)
        }
    }

    /// A random numeric (non-bool) primitive type.
    pub fn num_prim(&mut self) -> Prim {
        loop {
            let p = self.prim();
            if p != Prim::Bool {
                return p;
            }
        }
    }

    /// A literal of type `p`: small, sometimes an extreme value.
    pub fn lit(&mut self, p: Prim) -> Expr {
        match p {
            Prim::Bool => prim_lit(p, self.below(2) as f64),
            p if p.is_float() => {
                let v = self.rng.int_in(-16, 16) as f64 / 4.0;
                prim_lit(p, v)
            }
            p => {
                if self.chance(0.05) {
                    Expr::lit(format!("{}.highest", p.name()), Ty::Prim(p))
                } else if self.chance(0.05) {
                    Expr::lit(format!("{}.lowest", p.name()), Ty::Prim(p))
                } else {
                    let lo = if p.is_signed_integer() { -9 } else { 0 };
                    prim_lit(p, self.rng.int_in(lo, 9) as f64)
                }
            }
        }
    }

    /// Expressions that read a variable in scope as type `ty`: the variable,
    /// a tuple component, a record field.
    fn leaves(&self, sc: &Scope, ty: &Ty) -> Vec<Expr> {
        let mut out = Vec::new();
        for (v, t) in &sc.vars {
            if t == ty {
                out.push(Expr::var(v, ty.clone()));
            }
            match t {
                Ty::Tuple(ts) => {
                    for (i, c) in ts.iter().enumerate() {
                        if c == ty {
                            out.push(Expr::var(&format!("{v}.{i}"), ty.clone()));
                        }
                    }
                }
                Ty::Record(fs) => {
                    for (n, c) in fs {
                        if c == ty {
                            out.push(Expr::var(&format!("{v}.{n}"), ty.clone()));
                        }
                    }
                }
                _ => {}
            }
        }
        if *ty == Ty::Prim(Prim::I64) {
            for d in &sc.dims {
                out.push(Expr::var(d, ty.clone()));
            }
        }
        out
    }

    /// An expression of type `ty` of depth at most about `depth`.
    pub fn expr(&mut self, sc: &Scope, ty: &Ty, depth: u32) -> Expr {
        match ty {
            Ty::Prim(p) => self.prim_expr(sc, *p, depth),
            Ty::Arr(t, d) => self.arr_expr(sc, t, d, depth),
            Ty::Tuple(ts) => {
                let mut b = Builder::new(ty.clone()).t("(");
                for (i, t) in ts.iter().enumerate() {
                    if i > 0 {
                        b = b.t(", ");
                    }
                    let e = self.expr(sc, t, depth.saturating_sub(1));
                    b = b.e(e);
                }
                b.t(")").done()
            }
            Ty::Record(fs) => {
                let mut b = Builder::new(ty.clone()).t("{");
                for (i, (n, t)) in fs.iter().enumerate() {
                    if i > 0 {
                        b = b.t(", ");
                    }
                    let e = self.expr(sc, t, depth.saturating_sub(1));
                    b = b.t(&format!("{n} = ")).e(e);
                }
                b.t("}").done()
            }
        }
    }

    /// A leaf of type `ty`: a variable or a literal (or zeros for arrays).
    fn leaf(&mut self, sc: &Scope, ty: &Ty) -> Expr {
        let ls = self.leaves(sc, ty);
        if !ls.is_empty() && self.chance(0.8) {
            return self.pick(&ls);
        }
        match ty {
            Ty::Prim(p) => self.lit(*p),
            Ty::Arr(t, d) if **t == Ty::Prim(Prim::I64) && self.chance(0.5) => {
                Expr::lit(format!("iota {d}"), ty.clone())
            }
            Ty::Arr(t, d) => {
                let e = self.leaf(sc, t);
                Builder::new(ty.clone())
                    .t(&format!("replicate {d} "))
                    .p(e)
                    .done()
            }
            _ => zero(ty),
        }
    }

    /// A `let` of a fresh variable of a random type, then `body(scope)`.
    pub fn let_in(
        &mut self,
        sc: &Scope,
        ty: &Ty,
        depth: u32,
        bound_ty: &Ty,
        body: impl FnOnce(&mut Gen, &Scope) -> Expr,
    ) -> Expr {
        let v = self.fresh("x");
        let e = self.expr(sc, bound_ty, depth);
        let inner = sc.with(&v, bound_ty);
        let b = body(self, &inner);
        Builder::new(ty.clone())
            .t(&format!("let {v} = "))
            .e(e)
            .t(" in\n  ")
            .under(&[v], b)
            .done()
    }

    /// A random type for an intermediate value: a primitive, an array over a
    /// size in scope, sometimes a tuple or record.
    pub fn some_type(&mut self, sc: &Scope, allow_compound: bool) -> Ty {
        let p = Ty::Prim(self.prim());
        if sc.dims.is_empty() {
            return p;
        }
        match self.below(if allow_compound { 6 } else { 4 }) {
            0 => p,
            1 | 2 => {
                let d = self.pick(&sc.dims);
                Ty::arr(p, &d)
            }
            3 => {
                let (d1, d2) = (self.pick(&sc.dims), self.pick(&sc.dims));
                Ty::arr(Ty::arr(p, &d2), &d1)
            }
            4 => {
                let q = self.some_type(sc, false);
                Ty::Tuple(vec![p, q])
            }
            _ => {
                let q = self.some_type(sc, false);
                let f = self.fresh("f");
                let g = self.fresh("g");
                Ty::Record(vec![(f, p), (g, q)])
            }
        }
    }

    fn ops(&mut self, p: Prim) -> (Op, Expr) {
        let n = p.name();
        let lit = |s: String| Expr::lit(s, Ty::Prim(p));
        if p == Prim::Bool {
            return if self.chance(0.5) {
                (Op::Infix("&&"), lit("true".into()))
            } else {
                (Op::Infix("||"), lit("false".into()))
            };
        }
        if p.is_float() {
            return match self.below(3) {
                0 => (Op::Infix("+"), prim_lit(p, 0.0)),
                1 => (Op::Fun("min"), lit(format!("{n}.inf"))),
                _ => (Op::Fun("max"), lit(format!("(-{n}.inf)"))),
            };
        }
        match self.below(7) {
            0 => (Op::Infix("*"), prim_lit(p, 1.0)),
            1 => (Op::Infix("&"), lit(format!("({n}.highest | {n}.lowest)"))),
            2 => (Op::Infix("|"), prim_lit(p, 0.0)),
            3 => (Op::Infix("^"), prim_lit(p, 0.0)),
            4 => (Op::Fun("min"), lit(format!("{n}.highest"))),
            5 => (Op::Fun("max"), lit(format!("{n}.lowest"))),
            _ => (Op::Infix("+"), prim_lit(p, 0.0)),
        }
    }

    fn op_section(op: Op, p: Prim) -> String {
        match op {
            Op::Infix(o) => format!("({o})"),
            Op::Fun(f) => format!("{}.{f}", p.name()),
        }
    }

    fn op_apply(op: Op, p: Prim, a: &str, b: &str) -> String {
        match op {
            Op::Infix(o) => format!("{a} {o} {b}"),
            Op::Fun(f) => format!("{}.{f} {a} {b}", p.name()),
        }
    }

    /// An array of `elem` over some size in scope.
    fn some_array(&mut self, sc: &Scope, elem: &Ty, depth: u32) -> Expr {
        let d = self.pick(&sc.dims);
        self.expr(sc, &Ty::arr(elem.clone(), &d), depth)
    }

    /// A primitive expression.
    fn prim_expr(&mut self, sc: &Scope, p: Prim, depth: u32) -> Expr {
        let ty = Ty::Prim(p);
        if depth == 0 || self.chance(0.15) {
            return self.leaf(sc, &ty);
        }
        let d1 = depth - 1;
        let have_dims = !sc.dims.is_empty();
        loop {
            match self.below(16) {
                0..=2 => return self.binop(sc, p, d1),
                3 => return self.unop(sc, p, d1),
                4 => return self.convert(sc, p, d1),
                5 => {
                    let c = self.prim_expr(sc, Prim::Bool, d1);
                    let a = self.prim_expr(sc, p, d1);
                    let b = self.prim_expr(sc, p, d1);
                    return Builder::new(ty)
                        .t("if ")
                        .e(c)
                        .t(" then ")
                        .e(a)
                        .t(" else ")
                        .e(b)
                        .done();
                }
                6 if have_dims => {
                    let (op, ne) = self.ops(p);
                    let arr = self.some_array(sc, &ty, d1);
                    return Builder::new(ty)
                        .t(&format!("reduce {} ", Self::op_section(op, p)))
                        .p(ne)
                        .t(" ")
                        .p(arr)
                        .done();
                }
                7 if have_dims => return self.tuple_reduce(sc, p, d1),
                8 if have_dims => return self.filter_reduce(sc, p, d1),
                9 => return self.loop_expr(sc, p, d1),
                10 if have_dims => return self.index(sc, p, d1),
                11 => return self.match_expr(sc, p, d1),
                12 => {
                    let bt = self.some_type(sc, true);
                    return self.let_in(sc, &ty, d1, &bt, |g, s| g.prim_expr(s, p, d1));
                }
                13 if have_dims => {
                    if let Some(e) = self.call(sc, &ty, d1) {
                        return e;
                    }
                }
                14 => return self.sum_type(sc, p, d1),
                15 if p == Prim::I64 && have_dims => {
                    let elem = Ty::Prim(self.prim());
                    let a = self.some_array(sc, &elem, d1);
                    return Builder::new(ty).t("length ").p(a).done();
                }
                _ => {}
            }
        }
    }

    fn binop(&mut self, sc: &Scope, p: Prim, d: u32) -> Expr {
        let ty = Ty::Prim(p);
        let n = p.name();
        if p == Prim::Bool {
            if self.chance(0.4) {
                let a = self.prim_expr(sc, p, d);
                let b = self.prim_expr(sc, p, d);
                let o = self.pick(&[" && ", " || ", " != ", " == "]);
                return Builder::new(ty).p(a).t(o).p(b).done();
            }
            let q = self.num_prim();
            let a = self.prim_expr(sc, q, d);
            let b = self.prim_expr(sc, q, d);
            let o = self.pick(&[" < ", " <= ", " == ", " != ", " > ", " >= "]);
            return Builder::new(ty).p(a).t(o).p(b).done();
        }
        let a = self.prim_expr(sc, p, d);
        let b = self.prim_expr(sc, p, d);
        if p.is_float() {
            let o = self.pick(&[" + ", " - ", " * ", " / ", " ** ", "min", "max"]);
            return if o != "min" && o != "max" {
                Builder::new(ty).p(a).t(o).p(b).done()
            } else {
                Builder::new(ty)
                    .t(&format!("{n}.{o} "))
                    .p(a)
                    .t(" ")
                    .p(b)
                    .done()
            };
        }
        match self.below(9) {
            0 => {
                // Division and remainder by a divisor masked into 1..8.
                let o = self.pick(&["/", "%", "//", "%%"]);
                Builder::new(ty)
                    .p(a)
                    .t(&format!(" {o} (("))
                    .p(b)
                    .t(&format!(" & 7{n}) + 1{n})"))
                    .done()
            }
            1 => {
                let o = self.pick(&["<<", ">>", ">>>"]);
                Builder::new(ty)
                    .p(a)
                    .t(&format!(" {o} ("))
                    .p(b)
                    .t(&format!(" & 7{n})"))
                    .done()
            }
            2 => Builder::new(ty)
                .p(a)
                .t(" ** (")
                .p(b)
                .t(&format!(" & 3{n})"))
                .done(),
            3 => {
                let f = self.pick(&["min", "max"]);
                Builder::new(ty)
                    .t(&format!("{n}.{f} "))
                    .p(a)
                    .t(" ")
                    .p(b)
                    .done()
            }
            _ => {
                let o = self.pick(&[" + ", " - ", " * ", " & ", " | ", " ^ "]);
                Builder::new(ty).p(a).t(o).p(b).done()
            }
        }
    }

    fn unop(&mut self, sc: &Scope, p: Prim, d: u32) -> Expr {
        let ty = Ty::Prim(p);
        let n = p.name();
        let a = self.prim_expr(sc, p, d);
        let f = if p == Prim::Bool {
            "!".to_string()
        } else if p.is_float() {
            let f = self.pick(&[
                "sqrt", "sin", "cos", "exp", "log", "abs", "neg", "floor", "tanh", "atan",
            ]);
            format!("{n}.{f} ")
        } else {
            let f = self.pick(&["neg", "abs", "sgn"]);
            format!("{n}.{f} ")
        };
        Builder::new(ty).t(&f).p(a).done()
    }

    fn convert(&mut self, sc: &Scope, p: Prim, d: u32) -> Expr {
        let ty = Ty::Prim(p);
        let q = self.prim();
        let a = self.prim_expr(sc, q, d);
        let (n, m) = (p.name(), q.name());
        if p == Prim::Bool {
            return match q {
                Prim::Bool => a,
                q => Builder::new(ty).p(a).t(" < ").e(prim_lit(q, 1.0)).done(),
            };
        }
        if p == Prim::I32 && q.is_integer() && self.chance(0.3) {
            let f = self.pick(&["popc", "clz"]);
            return Builder::new(ty).t(&format!("{m}.{f} ")).p(a).done();
        }
        if q.is_float() && !p.is_float() {
            // Only values well inside every integer type's range convert.
            let v = self.fresh("v");
            let body = Expr::lit(
                format!("if {v} >= -100{m} && {v} <= 100{m} then {n}.{m} {v} else 0{n}"),
                ty.clone(),
            );
            return Builder::new(ty)
                .t(&format!("let {v} = "))
                .e(a)
                .t(" in ")
                .under(&[v], body)
                .done();
        }
        Builder::new(ty).t(&format!("{n}.{m} ")).p(a).done()
    }

    /// A reduction with a tuple operator over two zipped arrays, then a
    /// primitive expression of its two results.
    fn tuple_reduce(&mut self, sc: &Scope, p: Prim, d: u32) -> Expr {
        let ty = Ty::Prim(p);
        let dim = self.pick(&sc.dims);
        let q = self.prim();
        let (op1, ne1) = self.ops(p);
        let (op2, ne2) = self.ops(q);
        let xs = self.expr(sc, &Ty::arr(Ty::Prim(p), &dim), d);
        let ys = self.expr(sc, &Ty::arr(Ty::Prim(q), &dim), d);
        let (r0, r1) = (self.fresh("r"), self.fresh("r"));
        let scan = self.chance(0.3);
        let lam = format!(
            "(\\(a0, b0) (a1, b1) -> ({}, {}))",
            Self::op_apply(op1, p, "a0", "a1"),
            Self::op_apply(op2, q, "b0", "b1")
        );
        let inner = sc.with(&r0, &Ty::Prim(p)).with(&r1, &Ty::Prim(q));
        let body = self.prim_expr(&inner, p, d);
        let b = Builder::new(ty.clone()).t(&format!("let ({r0}, {r1}) = "));
        let b = if scan {
            // The last element of an inclusive scan, or the neutral elements.
            let s = self.fresh("s");
            b.t(&format!("(let {s} = scan {lam} ("))
                .e(ne1.clone())
                .t(", ")
                .e(ne2.clone())
                .t(") (zip ")
                .p(xs)
                .t(" ")
                .p(ys)
                .t(&format!(") in if length {s} == 0 then ("))
                .e(ne1)
                .t(", ")
                .e(ne2)
                .t(&format!(") else {s}[length {s} - 1])"))
        } else {
            b.t(&format!("reduce {lam} ("))
                .e(ne1)
                .t(", ")
                .e(ne2)
                .t(") (zip ")
                .p(xs)
                .t(" ")
                .p(ys)
                .t(")")
        };
        b.t(" in\n  ").under(&[r0, r1], body).done()
    }

    /// `filter` or `partition`, then reductions of the parts.
    fn filter_reduce(&mut self, sc: &Scope, p: Prim, d: u32) -> Expr {
        let ty = Ty::Prim(p);
        let dim = self.pick(&sc.dims);
        let xs = self.expr(sc, &Ty::arr(Ty::Prim(p), &dim), d);
        let x = self.fresh("a");
        let cond = self.prim_expr(&sc.with(&x, &ty), Prim::Bool, d);
        let (op, ne) = self.ops(p);
        let sec = Self::op_section(op, p);
        if self.chance(0.5) {
            Builder::new(ty)
                .t(&format!("reduce {sec} "))
                .p(ne)
                .t(&format!(" (filter (\\{x} -> "))
                .under(std::slice::from_ref(&x), cond)
                .t(") ")
                .p(xs)
                .t(")")
                .done()
        } else {
            let (pa, pb) = (self.fresh("pa"), self.fresh("pb"));
            let nes = ne.render();
            let tail = Expr::lit(
                format!(
                    "{} + {}.i64 (length {pb})",
                    Self::op_apply(
                        op,
                        p,
                        &format!("(reduce {sec} ({nes}) {pa})"),
                        &format!("(reduce {sec} ({nes}) {pb})")
                    ),
                    p.name()
                ),
                ty.clone(),
            );
            let tail = if p == Prim::Bool {
                Expr::lit(
                    format!(
                        "{} != (length {pb} > 1)",
                        Self::op_apply(
                            op,
                            p,
                            &format!("(reduce {sec} ({nes}) {pa})"),
                            &format!("(reduce {sec} ({nes}) {pb})")
                        )
                    ),
                    ty.clone(),
                )
            } else {
                tail
            };
            Builder::new(ty)
                .t(&format!("let ({pa}, {pb}) = partition (\\{x} -> "))
                .under(std::slice::from_ref(&x), cond)
                .t(") ")
                .p(xs)
                .t(" in ")
                .under(&[pa, pb], tail)
                .done()
        }
    }

    /// A `for` loop (bounded by a size or a literal) or a `while` loop with a
    /// counter bound.
    fn loop_expr(&mut self, sc: &Scope, p: Prim, d: u32) -> Expr {
        let ty = Ty::Prim(p);
        let acc = self.fresh("acc");
        let i = self.fresh("i");
        let init = self.prim_expr(sc, p, d);
        let bound = if !sc.dims.is_empty() && self.chance(0.5) {
            self.pick(&sc.dims)
        } else {
            format!("{}i64", self.below(5))
        };
        let inner = sc.with(&acc, &ty).with(&i, &Ty::Prim(Prim::I64));
        let body = self.prim_expr(&inner, p, d);
        if self.chance(0.7) {
            Builder::new(ty)
                .t(&format!("loop {acc} = "))
                .p(init)
                .t(&format!(" for {i} < {bound} do "))
                .under(&[acc, i], body)
                .done()
        } else {
            let cond = self.prim_expr(&inner, Prim::Bool, d);
            let w = self.fresh("w");
            Builder::new(ty)
                .t(&format!("let ({w}, _) = loop ({acc}, {i}) = ("))
                .e(init)
                .t(&format!(", 0i64) while {i} < {bound} && "))
                // Parenthesised: `c || d` after `&&` would escape the bound.
                .under_p(&[acc.clone(), i.clone()], cond)
                .t(" do (")
                .under(&[acc, i.clone()], body)
                .t(&format!(", {i} + 1) in "))
                .under(std::slice::from_ref(&w), Expr::var(&w, Ty::Prim(p)))
                .done()
        }
    }

    /// An element of a one-dimensional array, the index reduced modulo its
    /// length, which is checked non-zero.
    fn index(&mut self, sc: &Scope, p: Prim, d: u32) -> Expr {
        let ty = Ty::Prim(p);
        let xs = self.some_array(sc, &ty, d);
        let v = self.fresh("xs");
        let i = self.prim_expr(sc, Prim::I64, d);
        let dflt = self.prim_expr(sc, p, d);
        let body = Builder::new(ty.clone())
            .t(&format!("if length {v} == 0 then "))
            .p(dflt)
            .t(&format!(" else {v}[("))
            .e(i)
            .t(&format!(") % length {v}]"))
            .done();
        Builder::new(ty)
            .t(&format!("let {v} = "))
            .e(xs)
            .t(" in ")
            .under(&[v], body)
            .done()
    }

    fn match_expr(&mut self, sc: &Scope, p: Prim, d: u32) -> Expr {
        let ty = Ty::Prim(p);
        let s = self.prim_expr(sc, Prim::I32, d);
        let a = self.prim_expr(sc, p, d);
        let b = self.prim_expr(sc, p, d);
        let c = self.prim_expr(sc, p, d);
        Builder::new(ty)
            .t("match (")
            .e(s)
            .t(") % 3i32\n    case 0 -> ")
            .p(a)
            .t("\n    case 1 -> ")
            .p(b)
            .t("\n    case _ -> ")
            .p(c)
            .done()
    }

    /// A value of a sum type made in one of two branches, then matched.
    fn sum_type(&mut self, sc: &Scope, p: Prim, d: u32) -> Expr {
        let ty = Ty::Prim(p);
        let (q1, q2) = (self.prim(), self.prim());
        let c = self.prim_expr(sc, Prim::Bool, d);
        let a = self.prim_expr(sc, q1, d);
        let b = self.prim_expr(sc, q2, d);
        let (x, y) = (self.fresh("y"), self.fresh("y"));
        let ka = self.prim_expr(&sc.with(&x, &Ty::Prim(q1)), p, d);
        let kb = self.prim_expr(&sc.with(&y, &Ty::Prim(q2)), p, d);
        let st = format!("#l {} | #r {}", q1.name(), q2.name());
        Builder::new(ty)
            .t("match ((if ")
            .e(c)
            .t(" then #l ")
            .p(a)
            .t(" else #r ")
            .p(b)
            .t(&format!(") : ({st}))\n    case #l {x} -> "))
            .under_p(std::slice::from_ref(&x), ka)
            .t(&format!("\n    case #r {y} -> "))
            .under_p(std::slice::from_ref(&y), kb)
            .done()
    }

    /// A call of a helper whose result has type `ty`, if there is one.
    fn call(&mut self, sc: &Scope, ty: &Ty, d: u32) -> Option<Expr> {
        let dims = sc.dims.clone();
        let mut options = Vec::new();
        for h in &self.helpers {
            for dim in &dims {
                if h.ret.rename_dim(&h.dim, dim) == *ty {
                    options.push((h.clone(), dim.clone()));
                }
            }
        }
        if options.is_empty() {
            return None;
        }
        let (h, dim) = self.pick(&options);
        let mut b = Builder::new(ty.clone()).t(&h.call);
        for pt in &h.params {
            let a = self.expr(sc, &pt.rename_dim(&h.dim, &dim), d);
            b = b.t(" ").p(a);
        }
        Some(b.done())
    }

    /// An array expression of `[d]elem`.
    /// An array `a` of size `d` rebuilt through `concat` with another array
    /// (of a size `d2` of the scope), `take`, `drop`, a slice or `flatten`;
    /// the sizes that the checker cannot see are equal are coerced.
    fn concat_slice(
        &mut self,
        sc: &Scope,
        elem: &Ty,
        d: &str,
        a: Expr,
        form: usize,
        depth: u32,
    ) -> Expr {
        let ty = Ty::arr(elem.clone(), d);
        let d2 = self.pick(&sc.dims);
        match form {
            2 => {
                let b = self.arr_expr(sc, elem, &d2, depth);
                Builder::new(ty)
                    .t(&format!("take {d} (concat "))
                    .p(a)
                    .t(" ")
                    .p(b)
                    .t(")")
                    .done()
            }
            3 => {
                let b = self.arr_expr(sc, elem, &d2, depth);
                let slice = self.chance(0.5);
                let (head, tail) = if slice {
                    ("(".to_string(), format!(")[{d2}:] :> {ty}"))
                } else {
                    (format!("drop {d2} ("), format!(") :> {ty}"))
                };
                Builder::new(ty)
                    .t(&head)
                    .p(b)
                    .t(" ++ ")
                    .p(a)
                    .t(&tail)
                    .done()
            }
            _ => {
                let x = self.fresh("a");
                Builder::new(ty.clone())
                    .t(&format!("flatten (map (\\{x} -> [{x}]) "))
                    .p(a)
                    .t(&format!(") :> {ty}"))
                    .done()
            }
        }
    }

    fn arr_expr(&mut self, sc: &Scope, elem: &Ty, d: &str, depth: u32) -> Expr {
        let ty = Ty::arr(elem.clone(), d);
        if depth == 0 || self.chance(0.15) {
            return self.leaf(sc, &ty);
        }
        let d1 = depth - 1;
        let ep = match elem {
            Ty::Prim(p) => Some(*p),
            _ => None,
        };
        loop {
            match self.below(15) {
                0..=2 => {
                    // map, map2 or map3 over arrays of size d.
                    let k = 1 + self.below(3);
                    let head = if k == 1 {
                        "map (\\".to_string()
                    } else {
                        format!("map{k} (\\")
                    };
                    let mut b = Builder::new(ty.clone()).t(&head);
                    let mut inner = sc.clone();
                    let mut names = Vec::new();
                    let mut arrs = Vec::new();
                    for _ in 0..k {
                        let t = if elem.rank() < 2 && self.chance(0.3) {
                            let e = Ty::Prim(self.prim());
                            Ty::arr(e, &self.pick(&sc.dims))
                        } else {
                            Ty::Prim(self.prim())
                        };
                        let x = self.fresh("a");
                        arrs.push(self.expr(sc, &Ty::arr(t.clone(), d), d1));
                        inner = inner.with(&x, &t);
                        names.push(x);
                    }
                    let body = self.expr(&inner, elem, d1);
                    b = b
                        .t(&format!("{} -> ", names.join(" ")))
                        .under(&names, body)
                        .t(")");
                    for a in arrs {
                        b = b.t(" ").p(a);
                    }
                    return b.done();
                }
                3 => {
                    let i = self.fresh("i");
                    let inner = sc.with(&i, &Ty::Prim(Prim::I64));
                    let body = self.expr(&inner, elem, d1);
                    return Builder::new(ty)
                        .t(&format!("map (\\{i} -> "))
                        .under(std::slice::from_ref(&i), body)
                        .t(&format!(") (iota {d})"))
                        .done();
                }
                4 => {
                    let e = self.expr(sc, elem, d1);
                    return Builder::new(ty).t(&format!("replicate {d} ")).p(e).done();
                }
                5 if ep.is_some() => {
                    let p = ep.unwrap_or(Prim::I32);
                    let (op, ne) = self.ops(p);
                    let a = self.arr_expr(sc, elem, d, d1);
                    return Builder::new(ty)
                        .t(&format!("scan {} ", Self::op_section(op, p)))
                        .p(ne)
                        .t(" ")
                        .p(a)
                        .done();
                }
                6 => {
                    let a = self.arr_expr(sc, elem, d, d1);
                    return match self.below(5) {
                        0 => Builder::new(ty).t("reverse ").p(a).done(),
                        1 => {
                            let r = self.prim_expr(sc, Prim::I64, d1);
                            Builder::new(ty).t("rotate ").p(r).t(" ").p(a).done()
                        }
                        n => self.concat_slice(sc, elem, d, a, n, d1),
                    };
                }
                7 => {
                    // An in-place update at an index reduced modulo the length.
                    let a = self.arr_expr(sc, elem, d, d1);
                    let i = self.prim_expr(sc, Prim::I64, d1);
                    let v = self.expr(sc, elem, d1);
                    let u = self.fresh("u");
                    let body = Builder::new(ty.clone())
                        .t(&format!("if length {u} == 0 then {u} else {u} with [("))
                        .e(i)
                        .t(&format!(") % length {u}] = "))
                        .p(v)
                        .done();
                    return Builder::new(ty)
                        .t(&format!("let {u} = copy "))
                        .p(a)
                        .t(" in ")
                        .under(&[u], body)
                        .done();
                }
                8 if elem.rank() == 0 => {
                    // A loop updating every element in place.
                    let a = self.arr_expr(sc, elem, d, d1);
                    let (acc, i, cur) = (self.fresh("acc"), self.fresh("i"), self.fresh("c"));
                    // The new value may read `acc` (of size `d`, the initial
                    // size, inside the body too) and its element `cur`.
                    let inner = sc
                        .with(&i, &Ty::Prim(Prim::I64))
                        .with(&cur, elem)
                        .with(&acc, &ty);
                    let v = self.expr(&inner, elem, d1);
                    return Builder::new(ty.clone())
                        .t(&format!("loop {acc} = copy "))
                        .p(a)
                        .t(&format!(
                            " for {i} < {d} do\n    let {cur} = {acc}[{i}] in {acc} with [{i}] = "
                        ))
                        .under(&[acc, i, cur], v)
                        .done();
                }
                9 => {
                    // scatter with distinct indices (some out of bounds).
                    let d2 = self.pick(&sc.dims);
                    let dest = self.arr_expr(sc, elem, d, d1);
                    let vs = self.arr_expr(sc, elem, &d2, d1);
                    let i = self.fresh("i");
                    let c = self.prim_expr(&sc.with(&i, &Ty::Prim(Prim::I64)), Prim::Bool, d1);
                    let k = self.below(3);
                    return Builder::new(ty)
                        .t("scatter (copy ")
                        .p(dest)
                        .t(&format!(") (map (\\{i} -> if "))
                        .under(std::slice::from_ref(&i), c)
                        .t(&format!(" then {i} + {k} else -1) (iota {d2})) "))
                        .p(vs)
                        .done();
                }
                10 if ep.is_some() => {
                    let p = ep.unwrap_or(Prim::I32);
                    let d2 = self.pick(&sc.dims);
                    let (op, ne) = self.ops(p);
                    let is = self.arr_expr(sc, &Ty::Prim(Prim::I64), &d2, d1);
                    let vs = self.arr_expr(sc, elem, &d2, d1);
                    return Builder::new(ty)
                        .t(&format!("hist {} ", Self::op_section(op, p)))
                        .p(ne)
                        .t(&format!(" {d} "))
                        .p(is)
                        .t(" ")
                        .p(vs)
                        .done();
                }
                11 => {
                    // A row of a two-dimensional array.
                    let d2 = self.pick(&sc.dims);
                    let xss = self.arr_expr(sc, &ty, &d2, d1);
                    let i = self.prim_expr(sc, Prim::I64, d1);
                    let dflt = self.arr_expr(sc, elem, d, d1);
                    let v = self.fresh("xss");
                    let body = Builder::new(ty.clone())
                        .t(&format!("if length {v} == 0 then "))
                        .p(dflt)
                        .t(&format!(" else {v}[("))
                        .e(i)
                        .t(&format!(") % length {v}]"))
                        .done();
                    return Builder::new(ty)
                        .t(&format!("let {v} = "))
                        .e(xss)
                        .t(" in ")
                        .under(&[v], body)
                        .done();
                }
                12 => {
                    if let Ty::Arr(inner, d2) = elem {
                        let t = self.arr_expr(sc, &Ty::arr((**inner).clone(), d), d2, d1);
                        return Builder::new(ty).t("transpose ").p(t).done();
                    }
                }
                13 => {
                    let c = self.prim_expr(sc, Prim::Bool, d1);
                    let a = self.arr_expr(sc, elem, d, d1);
                    let b = self.arr_expr(sc, elem, d, d1);
                    return Builder::new(ty)
                        .t("if ")
                        .e(c)
                        .t(" then ")
                        .e(a)
                        .t(" else ")
                        .e(b)
                        .done();
                }
                _ => {
                    if self.chance(0.5)
                        && let Some(e) = self.call(sc, &ty, d1)
                    {
                        return e;
                    }
                    let bt = self.some_type(sc, true);
                    let (elem, d) = (elem.clone(), d.to_string());
                    return self.let_in(sc, &ty, d1, &bt, move |g, s| g.arr_expr(s, &elem, &d, d1));
                }
            }
        }
    }
}
