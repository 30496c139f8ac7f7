//! One imperative IR function as one Rust function.
//!
//! Scalar variables become `let mut` locals declared where [`decls`]
//! says (the IR sets each before reading it), memory block handles become
//! `Mem<T>` locals declared at the top, parameters keep their slots' order and the function returns
//! `R<(results,)>` so that failures propagate with `?`.

use std::collections::HashSet;
use std::fmt::Write;

use ir::Span;

use super::decls::{self, Decls};
use super::names::{fun, mem, mem_type, tuple, var};
use super::par::own_vars;
use crate::imp::{Function, MemId, Program, SVar, Slot};
use crate::scalar;

/// The emitter of one function's body.
pub struct FnEm<'a> {
    /// The program (callees' slots).
    pub prog: &'a Program,
    /// The function.
    pub f: &'a Function,
    /// The text of a source location, for naming parallel loops.
    pub locate: &'a dyn Fn(Span) -> String,
    /// Whether index bounds checks are kept (`--safe=false` removes them).
    pub safe: bool,
    /// The Rust code written so far.
    pub out: String,
    /// The accesses written unchecked (their statements' addresses,
    /// [`super::ranges::stm_key`]): those of the loops being written whose
    /// ranges were checked before them.
    pub unchecked: HashSet<usize>,
    /// Whether loops are versioned with their range checks hoisted (not
    /// inside the checked version of a loop).
    pub versioning: bool,
    /// Where the scalar variables are declared.
    pub decls: Decls,
    /// How many `if` chains have been written flat (numbering their labels).
    pub chains: usize,
}

impl<'a> FnEm<'a> {
    /// Writes `s`.
    pub fn w(&mut self, s: &str) {
        self.out.push_str(s);
    }

    /// `let mut` declarations of `vars` and `mems` with placeholder values.
    pub fn declare(&mut self, vars: &[SVar], mems: &[MemId]) {
        for v in vars {
            if let Some(info) = self.f.vars.get(v.0 as usize) {
                let t = scalar::rust_prim(info.ty);
                writeln!(self.out, "let mut {}: {t} = Default::default();", var(*v)).ok();
            }
        }
        for m in mems {
            if let Some(info) = self.f.mems.get(m.0 as usize) {
                let t = mem_type(info.elem);
                writeln!(self.out, "let mut {}: {t} = Mem::empty();", mem(*m)).ok();
            }
        }
    }

    /// The Rust type of a slot.
    pub fn slot_type(&self, s: &Slot) -> String {
        match s {
            Slot::Scalar(v) => self
                .f
                .vars
                .get(v.0 as usize)
                .map_or("i64", |i| scalar::rust_prim(i.ty))
                .to_string(),
            Slot::Mem(m) => self
                .f
                .mems
                .get(m.0 as usize)
                .map_or_else(|| "Mem<i64>".to_string(), |i| mem_type(i.elem)),
        }
    }
}

/// The Rust function of function `k` of `prog`; `safe`: keep the index
/// bounds checks.
pub fn function(
    prog: &Program,
    k: usize,
    safe: bool,
    locate: &dyn Fn(Span) -> String,
) -> Result<String, String> {
    let f = &prog.functions[k];
    let mut em = FnEm {
        prog,
        f,
        locate,
        safe,
        out: String::new(),
        unchecked: HashSet::new(),
        versioning: true,
        decls: Decls::default(),
        chains: 0,
    };
    let params: Vec<String> = f
        .params
        .iter()
        .map(|p| {
            let name = match p {
                Slot::Scalar(v) => var(*v),
                Slot::Mem(m) => mem(*m),
            };
            format!("mut {name}: {}", em.slot_type(p))
        })
        .collect();
    let results: Vec<String> = f.results.iter().map(|r| em.slot_type(r)).collect();
    writeln!(
        em.out,
        "/// `{}`\npub fn {}({}) -> R<{}> {{",
        f.name.replace('`', "'"),
        fun(k),
        params.join(", "),
        tuple(&results)
    )
    .ok();
    let vars: Vec<SVar> = (0..f.vars.len() as u32)
        .map(SVar)
        .filter(|v| !f.params.contains(&Slot::Scalar(*v)))
        .collect();
    let mems: Vec<MemId> = (0..f.mems.len() as u32)
        .map(MemId)
        .filter(|m| !f.params.contains(&Slot::Mem(*m)))
        .collect();
    let locals = vars.iter().copied().collect();
    let tail: Vec<SVar> = f
        .results
        .iter()
        .filter_map(|r| match r {
            Slot::Scalar(v) => Some(*v),
            Slot::Mem(_) => None,
        })
        .collect();
    match decls::plan(&f.body, &locals, &tail, &own_vars) {
        Some(d) => {
            em.decls = d;
            em.declare(&[], &mems);
        }
        None => em.declare(&vars, &mems),
    }
    em.block(&f.body)?;
    // A block returned twice is cloned for all but its last occurrence.
    let out: Vec<String> = f
        .results
        .iter()
        .enumerate()
        .map(|(j, r)| match r {
            Slot::Scalar(v) => var(*v),
            Slot::Mem(m) if f.results[j + 1..].contains(r) => format!("{}.clone()", mem(*m)),
            Slot::Mem(m) => mem(*m),
        })
        .collect();
    writeln!(em.out, "Ok({})\n}}\n", tuple(&out)).ok();
    Ok(em.out)
}
