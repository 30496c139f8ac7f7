//! A seeded generator of random well-typed Futhark programs, for differential
//! testing (`fut dev --fuzz`), and the shrinking of such programs.
//!
//! [`generate`] makes a [`Program`]: helper functions (size-polymorphic, some
//! inside modules) and an entry point `main` over arrays of rank 0 to 3 of every
//! primitive type, with random inputs. Expressions cover arithmetic on every
//! primitive type, nested `map`s, `reduce` and `scan` with builtin and tuple
//! operators, `hist`, `scatter`, `filter`, `partition`, `for` and bounded
//! `while` loops, in-place updates, `if`, `match` on integers and on a sum type,
//! records and tuples. One program in ten instead differentiates a generated
//! `f64` function with `jvp` and `vjp` and checks both against central finite
//! differences: its first result must be `true`.
//!
//! Programs have no undefined behaviour by construction (see `generator.rs`), so every
//! backend must give the reference interpreter's results. [`Program::shrink`]
//! lists smaller variants (a subexpression replaced by a zero of its type or by
//! one of its own subexpressions, an unused helper dropped); the caller keeps
//! those that still show its problem and are still valid.

mod ad;
mod expr;
mod generator;
mod inputs;
mod ty;

pub use expr::{Builder, Expr, Item, Kind};
pub use generator::{Gen, HelperSig, Scope};
pub use ty::{PRIMS, Prim, Ty};

/// A generated helper function.
#[derive(Clone, Debug, PartialEq)]
pub struct Helper {
    /// The module it is defined in, if any.
    pub module: Option<String>,
    /// `def name [d] (p: t) ... : ret =`, the text before the body.
    pub head: String,
    /// The name it is defined as (without the module).
    pub name: String,
    /// The body.
    pub body: Expr,
}

/// A generated program with the arguments of its entry point `main`.
#[derive(Clone, Debug, PartialEq)]
pub struct Program {
    /// The seed it was generated from.
    pub seed: u64,
    /// Definitions before `main`, in order.
    pub helpers: Vec<Helper>,
    /// `entry main [n] (p: t) ... : ret =`, the text before the body.
    pub head: String,
    /// The entry point's body.
    pub body: Expr,
    /// The arguments, in the text value format, one per parameter.
    pub inputs: Vec<String>,
    /// The first result must be `true` (a check the program makes itself).
    pub must_be_true: bool,
    /// The program must fail at run time with an error message containing
    /// this text (it is also a regular expression matching it).
    pub expect_error: Option<String>,
}

/// Generator settings.
#[derive(Clone, Copy, Debug)]
pub struct Config {
    /// Depth of expressions (about how deep the trees go).
    pub depth: u32,
    /// Most `let` statements in `main`'s body.
    pub statements: usize,
    /// Largest array size of the inputs.
    pub max_size: i64,
    /// Share of programs checking `jvp` and `vjp` against finite differences.
    pub ad_share: f64,
    /// Share of the other programs that must fail at run time (a false
    /// assertion, an index out of bounds or a division by zero before the
    /// result).
    pub error_share: f64,
}

impl Default for Config {
    fn default() -> Self {
        Config {
            depth: 4,
            statements: 4,
            max_size: 4,
            ad_share: 0.1,
            error_share: 0.05,
        }
    }
}

/// The program of seed `seed`.
pub fn generate(seed: u64, cfg: &Config) -> Program {
    let mut g = Gen::new(seed);
    if g.chance(cfg.ad_share) {
        return ad::generate(seed, &mut g, cfg);
    }
    let dim_names = ["n", "m", "k"];
    let nparams = 1 + g.below(4);
    let mut params = Vec::new();
    let mut dims: Vec<String> = Vec::new();
    for i in 0..nparams {
        let p = g.prim();
        let rank = if i == 0 { 1 + g.below(3) } else { g.below(4) };
        let mut t = Ty::Prim(p);
        for _ in 0..rank {
            let d = g.pick(&dim_names).to_string();
            if !dims.contains(&d) {
                dims.push(d.clone());
            }
            t = Ty::arr(t, &d);
        }
        params.push((format!("p{i}"), t));
    }
    let mut helpers = Vec::new();
    for _ in 0..g.below(3) {
        helpers.push(helper(&mut g, cfg));
    }
    let sc = Scope {
        vars: params.clone(),
        dims: dims.clone(),
    };
    let nres = 1 + g.below(3);
    let rets: Vec<Ty> = (0..nres).map(|_| g.some_type(&sc, false)).collect();
    let ret = if rets.len() == 1 {
        rets[0].clone()
    } else {
        Ty::Tuple(rets.clone())
    };
    let nstmts = g.below(cfg.statements + 1);
    let body = statements(&mut g, &sc, &ret, nstmts, cfg.depth);
    let mut head = String::from("entry main");
    for d in &dims {
        head.push_str(&format!(" [{d}]"));
    }
    for (n, t) in &params {
        head.push_str(&format!(" ({n}: {t})"));
    }
    head.push_str(&format!(" : {ret} ="));
    let sizes: Vec<(String, i64)> = dims
        .iter()
        .map(|d| {
            let v = if g.chance(0.1) {
                0
            } else {
                1 + g.below(cfg.max_size.max(1) as usize) as i64
            };
            (d.clone(), v)
        })
        .collect();
    let inputs = params
        .iter()
        .map(|(_, t)| inputs::value(&mut g, t, &sizes))
        .collect();
    // Drawn last, so that the other programs of a seed stay as they were.
    let (body, expect_error) = if g.chance(cfg.error_share) {
        let (body, msg) = failing(&mut g, &dims[0], &ret, body);
        (body, Some(msg.to_string()))
    } else {
        (body, None)
    };
    Program {
        seed,
        helpers,
        head,
        body,
        inputs,
        must_be_true: false,
        expect_error,
    }
}

/// `body` behind a check that fails whatever the inputs: a false assertion on
/// the size `d`, an index `d` into an array of `d` elements, or a division by
/// zero; each feeds an assertion before the result, so that it cannot be
/// dropped as dead code. The text the error message contains comes with it.
fn failing(g: &mut Gen, d: &str, ret: &Ty, body: Expr) -> (Expr, &'static str) {
    let v = g.fresh("fail");
    let (pre, msg) = match g.below(3) {
        0 => (format!("assert ({d} < 0) "), "Assertion is false"),
        // An index of `iota`, `replicate` (which the simplifier rewrites
        // away where the index is known in bounds) or of a computed array.
        1 => {
            let arr = match g.below(3) {
                0 => format!("iota {d}"),
                1 => format!("replicate {d} 7i64"),
                _ => format!("scan (+) 0 (iota {d})"),
            };
            (
                format!("let {v} = ({arr})[{d}] in assert ({v} != 12345) "),
                "out of bounds",
            )
        }
        _ => (
            format!(
                "let {v} = (i32.i64 {d} + 1) / (i32.i64 {d} - i32.i64 {d}) in \
                 assert ({v} != 12345) "
            ),
            "Division by zero",
        ),
    };
    (Builder::new(ret.clone()).t(&pre).p(body).done(), msg)
}

/// `let` statements of random types, then an expression of type `ret`.
fn statements(g: &mut Gen, sc: &Scope, ret: &Ty, n: usize, depth: u32) -> Expr {
    if n == 0 {
        return g.expr(sc, ret, depth);
    }
    let t = g.some_type(sc, true);
    g.let_in(sc, ret, depth, &t, |g, s| {
        statements(g, s, ret, n - 1, depth)
    })
}

/// A size-polymorphic helper over `[d]` arrays, perhaps inside a module.
fn helper(g: &mut Gen, cfg: &Config) -> Helper {
    let name = g.fresh("h");
    let dim = "d".to_string();
    let dims = vec![dim.clone()];
    let mut params = vec![("q0".to_string(), Ty::arr(Ty::Prim(g.prim()), &dim))];
    for i in 1..1 + g.below(3) {
        let t = if g.chance(0.5) {
            Ty::Prim(g.prim())
        } else {
            Ty::arr(Ty::Prim(g.prim()), &dim)
        };
        params.push((format!("q{i}"), t));
    }
    let sc = Scope {
        vars: params.clone(),
        dims,
    };
    let ret = if g.chance(0.5) {
        Ty::Prim(g.prim())
    } else {
        Ty::arr(Ty::Prim(g.prim()), &dim)
    };
    let body = g.expr(&sc, &ret, cfg.depth.saturating_sub(1));
    let module = g.chance(0.3).then(|| g.fresh("M"));
    let mut head = format!("def {name} [{dim}]");
    for (n, t) in &params {
        head.push_str(&format!(" ({n}: {t})"));
    }
    head.push_str(&format!(" : {ret} ="));
    let call = match &module {
        Some(m) => format!("{m}.{name}"),
        None => name.clone(),
    };
    g.helpers.push(HelperSig {
        call,
        dim,
        params: params.into_iter().map(|(_, t)| t).collect(),
        ret,
    });
    Helper {
        module,
        head,
        name,
        body,
    }
}

impl Program {
    /// The program's source text (without a test block).
    pub fn render(&self) -> String {
        let mut s = String::new();
        for h in &self.helpers {
            let def = format!("{}\n  {}\n", h.head, h.body.render());
            match &h.module {
                Some(m) => {
                    s.push_str(&format!("module {m} = {{\n"));
                    for l in def.lines() {
                        s.push_str("  ");
                        s.push_str(l);
                        s.push('\n');
                    }
                    s.push_str("}\n\n");
                }
                None => {
                    s.push_str(&def);
                    s.push('\n');
                }
            }
        }
        s.push_str(&format!("{}\n  {}\n", self.head, self.body.render()));
        s
    }

    /// The program's size: nodes of its expressions.
    pub fn size(&self) -> usize {
        self.body.size() + self.helpers.iter().map(|h| h.body.size()).sum::<usize>()
    }

    /// Smaller variants, most reducing first. Some may not type-check (a copy
    /// removed before an in-place update); the caller checks.
    pub fn shrink(&self) -> Vec<Program> {
        let mut out = Vec::new();
        for (i, h) in self.helpers.iter().enumerate() {
            let call = match &h.module {
                Some(m) => format!("{m}.{}", h.name),
                None => h.name.clone(),
            };
            let mut p = self.clone();
            p.helpers.remove(i);
            if !p.render().contains(&format!("{call} ")) {
                out.push(p);
            }
        }
        for c in self.body.shrink() {
            let mut p = self.clone();
            p.body = c;
            out.push(p);
        }
        for (i, h) in self.helpers.iter().enumerate() {
            for c in h.body.shrink() {
                let mut p = self.clone();
                p.helpers[i].body = c;
                out.push(p);
            }
        }
        out
    }
}

#[cfg(test)]
mod tests;
