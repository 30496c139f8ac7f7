//! Rust code for a parallel `scatter`: chunks of the iteration space
//! compute their indices and values in parallel (the map body), each into
//! a list of writes; the lists are then applied to the destinations in
//! chunk order, so a repeated index keeps the last write, as the
//! sequential loop does. Out-of-bounds writes are ignored; a row of the
//! wrong shape fails.
//!
//! The lists cost a pass over the writes that the sequential loop (which
//! writes as it goes) does not pay, so a scatter whose estimated work
//! (`codegen::cost`: iterations times the map's statements) is below
//! [`SCATTER_MIN_WORK`] runs as that loop, as does one nested in a chunk of
//! an operation that keeps every thread busy.

use ir::Scatter;

use crate::emit::{FnEmitter, rust_type};
use crate::soac::{input_args, scatter_loop, scatter_prologue, tuple};

type E<T> = Result<T, String>;

/// The least estimated work (iterations times the cost of one application
/// of the map, in `codegen::cost`'s units) for which a scatter runs in
/// parallel; below it the sequential loop is faster on the machines
/// measured (docs/multicore.md, "Parallel scatter").
pub const SCATTER_MIN_WORK: u64 = 1 << 20;

/// Emits scatter `s` as a block producing its updated destinations: the
/// sequential loop when the scatter is small (or runs inside a busy
/// chunk), else the parallel chunks and their write lists.
pub(crate) fn par_scatter(em: &mut FnEmitter, s: &Scatter, sp: &str) -> E<()> {
    let (id, dests) = scatter_prologue(em, s, sp)?;
    let cost = crate::cost::lambda_cost(em.program(), &s.map);
    em.write(&format!(
        "let nc_{id}: usize = if (w_{id} as u64).saturating_mul({cost}u64) < {SCATTER_MIN_WORK}u64 {{ 1 }} else {{ par::chunk_count_cost(w_{id}, {cost}u64) }};\nif nc_{id} <= 1 {{\n"
    ));
    scatter_loop(em, id, s, sp)?;
    em.write("} else {\n");
    // Per destination: (index, value) lists, and whether a write is one
    // element (scalar value at a full index) or a row.
    let mut lists = Vec::new();
    let mut off = 0;
    for (k, d) in s.dests.iter().enumerate() {
        let vt = s
            .map
            .ret
            .get(off + d.rank)
            .ok_or("a scatter's map returns too few values")?;
        let full = em.var_type(d.arr)?.rank() == d.rank;
        lists.push((
            format!("wr_{id}_{k}"),
            format!("Vec<([i64; {}], {})>", d.rank, rust_type(vt)),
            off,
            d.rank,
            full && vt.is_scalar(),
        ));
        off += d.rank + 1;
    }
    let types: Vec<String> = lists.iter().map(|l| l.1.clone()).collect();
    em.write(&format!(
        "let parts_{id} = par::par_chunks_n(w_{id}, nc_{id}, |lo_{id}: usize, hi_{id}: usize| -> R<{}> {{\n",
        tuple(&types)
    ));
    for (name, ty, ..) in &lists {
        em.write(&format!(
            "let mut {name}: {ty} = Vec::with_capacity(hi_{id} - lo_{id});\n"
        ));
    }
    em.write(&format!("for i_{id} in lo_{id}..hi_{id} {{\n"));
    let args = input_args(em, id, &s.inputs, &s.map)?;
    let r = em.inline_body(&s.map, &args, false)?;
    em.write(&format!("let r_{id} = {r};\n"));
    for (name, _, off, rank, _) in &lists {
        let idx: Vec<String> = (0..*rank).map(|j| format!("r_{id}.{}", off + j)).collect();
        em.write(&format!(
            "{name}.push(([{}], r_{id}.{}));\n",
            idx.join(", "),
            off + rank
        ));
    }
    let names: Vec<String> = lists.iter().map(|l| l.0.clone()).collect();
    em.write(&format!("}}\nOk({})\n}})?;\n", tuple(&names)));
    let qs: Vec<String> = (0..lists.len()).map(|k| format!("q{k}_")).collect();
    em.write(&format!(
        "for part_ in parts_{id} {{\nlet {} = part_;\n",
        tuple(&qs)
    ));
    for (k, (.., elem)) in lists.iter().enumerate() {
        if *elem {
            em.write(&format!(
                "for (ix_, v_) in q{k}_ {{ d_{id}_{k}.scatter1(&ix_, v_); }}\n"
            ));
        } else {
            em.write(&format!(
                "for (ix_, v_) in q{k}_ {{ at(d_{id}_{k}.scatter_row(&ix_, &v_), {sp})?; }}\n"
            ));
        }
    }
    em.write("}\n}\n");
    em.write(&format!("{}\n}}", tuple(&dests)));
    Ok(())
}
