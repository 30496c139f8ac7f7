//! Programs that differentiate a generated `f64` function with `jvp` and `vjp`
//! and check both against central finite differences. The function is smooth
//! and bounded on the inputs (sines, products, `exp` of bounded values,
//! `sqrt` and `log` of values at least one), so the difference quotient is
//! accurate to far better than the tolerance the program checks.

use crate::expr::{Builder, Expr, prim_lit};
use crate::generator::Gen;
use crate::ty::{Prim, Ty};
use crate::{Config, Helper, Program};

const F64: Ty = Ty::Prim(Prim::F64);

/// An input of a differentiated function: a multiple of 1/4 in `[-2, 2]`.
/// Products of the inputs raise them to high powers, and the error of a
/// central difference grows with the third derivative: with inputs near 6,
/// `sin ((a * b) * (b * (b * b)))` (seed 101829) differed from its finite
/// difference by more than the tolerance.
fn ad_input(g: &mut Gen) -> String {
    format!("{:?}f64", g.rng.int_in(-8, 8) as f64 / 4.0)
}

/// A smooth `f64` expression of the variables `vars`.
fn smooth(g: &mut Gen, vars: &[String], depth: u32) -> Expr {
    if depth == 0 || g.chance(0.2) {
        return if g.chance(0.8) {
            Expr::var(&g.pick(vars), F64)
        } else {
            prim_lit(Prim::F64, g.rng.int_in(-8, 8) as f64 / 4.0)
        };
    }
    let d = depth - 1;
    match g.below(8) {
        0..=2 => {
            let a = smooth(g, vars, d);
            let b = smooth(g, vars, d);
            let o = g.pick(&[" + ", " - ", " * "]);
            Builder::new(F64).p(a).t(o).p(b).done()
        }
        3 => {
            let a = smooth(g, vars, d);
            let f = g.pick(&["f64.sin ", "f64.cos ", "f64.tanh ", "f64.atan "]);
            Builder::new(F64).t(f).p(a).done()
        }
        4 => {
            let a = smooth(g, vars, d);
            let t = g.pick(&[
                ("f64.exp (f64.sin (", "))"),
                ("1 / (1 + ", " ** 2)"),
                ("f64.sqrt (1 + ", " ** 2)"),
                ("f64.log (1 + ", " ** 2)"),
            ]);
            Builder::new(F64).t(t.0).p(a).t(t.1).done()
        }
        5 => {
            let c = smooth(g, vars, d);
            let a = smooth(g, vars, d);
            let b = smooth(g, vars, d);
            let k = g.rng.int_in(-4, 4);
            // A branch on a value unlikely to sit at the boundary.
            Builder::new(F64)
                .t("if ")
                .p(c)
                .t(&format!(" < {k}.3 then "))
                .e(a)
                .t(" else ")
                .e(b)
                .done()
        }
        6 => {
            let acc = g.fresh("acc");
            let init = smooth(g, vars, d);
            let mut inner = vars.to_vec();
            inner.push(acc.clone());
            let body = smooth(g, &inner, d);
            let n = 1 + g.below(3);
            Builder::new(F64)
                .t(&format!("loop {acc} = "))
                .p(init)
                .t(&format!(" for _i < {n} do 0.5 * f64.sin ("))
                .under(std::slice::from_ref(&acc), body)
                .t(")")
                .done()
        }
        _ => {
            let v = g.fresh("t");
            let e = smooth(g, vars, d);
            let mut inner = vars.to_vec();
            inner.push(v.clone());
            let body = smooth(g, &inner, d);
            Builder::new(F64)
                .t(&format!("let {v} = "))
                .e(e)
                .t(" in ")
                .under(std::slice::from_ref(&v), body)
                .done()
        }
    }
}

/// A differentiation program: `f` over a scalar or over an array.
pub fn generate(seed: u64, g: &mut Gen, cfg: &Config) -> Program {
    let depth = cfg.depth.clamp(2, 4);
    let vector = g.chance(0.5);
    let close = Helper {
        module: None,
        head: "def close (a: f64) (b: f64) : bool =".into(),
        name: "close".into(),
        body: Expr::lit(
            "f64.abs (a - b) <= 1e-4 * (1 + f64.abs b) || f64.isnan b || f64.isinf b".into(),
            Ty::Prim(Prim::Bool),
        ),
    };
    let x = "x".to_string();
    if !vector {
        let f = Helper {
            module: None,
            head: "def f (x: f64) : f64 =".into(),
            name: "f".into(),
            body: smooth(g, std::slice::from_ref(&x), depth),
        };
        let body = Expr::lit(
            "let h = 1e-5\n  \
             let fd = (f (x + h) - f (x - h)) / (2 * h)\n  \
             let dj = jvp f x 1\n  \
             let dv = vjp f x 1\n  \
             in (close dj fd && close dv fd, dj, dv)"
                .into(),
            Ty::Tuple(vec![Ty::Prim(Prim::Bool), F64, F64]),
        );
        let xv = ad_input(g);
        return Program {
            seed,
            helpers: vec![close, f],
            head: "entry main (x: f64) : (bool, f64, f64) =".into(),
            body,
            inputs: vec![xv],
            must_be_true: true,
            expect_error: None,
        };
    }
    // f over an array: a sum or product of a smooth function of each element
    // and its neighbour, or a loop over the elements.
    let (a, b, s) = ("a".to_string(), "b".to_string(), "s".to_string());
    let elem = smooth(g, &[a.clone(), b.clone()], depth - 1);
    let body = match g.below(3) {
        0 => Builder::new(F64)
            .t("f64.sum (map2 (\\a b -> ")
            .under(&[a, b], elem)
            .t(") xs (rotate 1 xs))")
            .done(),
        1 => Builder::new(F64)
            .t("f64.product (map2 (\\a b -> 0.5 + 0.25 * f64.sin (")
            .under(&[a, b], elem)
            .t(")) xs (rotate 1 xs))")
            .done(),
        _ => {
            let step = smooth(g, &[s.clone(), a.clone()], depth - 1);
            Builder::new(F64)
                .t("loop s = 0 for a in xs do 0.5 * f64.sin (")
                .under(&[s, a], step)
                .t(")")
                .done()
        }
    };
    let f = Helper {
        module: None,
        head: "def f [n] (xs: [n]f64) : f64 =".into(),
        name: "f".into(),
        body,
    };
    let bump = Helper {
        module: None,
        head: "def bump [n] (xs: [n]f64) (i: i64) (d: f64) : [n]f64 =".into(),
        name: "bump".into(),
        body: Expr::lit(
            "let ys = copy xs\n  let v = ys[i] + d\n  in ys with [i] = v".into(),
            Ty::arr(F64, "n"),
        ),
    };
    let body = Expr::lit(
        "let h = 1e-5\n  \
         let fd = map (\\i -> (f (bump xs i h) - f (bump xs i (-h))) / (2 * h)) (iota n)\n  \
         let dj = map (\\i -> jvp f xs (map (\\j -> if j == i then 1 else 0) (iota n))) (iota n)\n  \
         let dv = vjp f xs 1\n  \
         in (and (map2 close dj fd) && and (map2 close dv fd), dj, dv)"
            .into(),
        Ty::Tuple(vec![Ty::Prim(Prim::Bool), Ty::arr(F64, "n"), Ty::arr(F64, "n")]),
    );
    let n = 1 + g.below(cfg.max_size.max(1) as usize);
    let elems: Vec<String> = (0..n).map(|_| ad_input(g)).collect();
    Program {
        seed,
        helpers: vec![close, bump, f],
        head: "entry main [n] (xs: [n]f64) : (bool, [n]f64, [n]f64) =".into(),
        body,
        inputs: vec![format!("[{}]", elems.join(", "))],
        must_be_true: true,
        expect_error: None,
    }
}
