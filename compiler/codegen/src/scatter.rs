//! Rust code for a parallel `scatter`: chunks of the iteration space
//! compute their indices and values in parallel (the map body), each into
//! a list of writes; the lists are then applied to the destinations in
//! chunk order, so a repeated index keeps the last write, as the
//! sequential loop does. Out-of-bounds writes are ignored; a row of the
//! wrong shape fails.

use ir::Scatter;

use crate::emit::{FnEmitter, rust_type};
use crate::soac::{input_args, scatter_prologue, tuple};

type E<T> = Result<T, String>;

/// Emits scatter `s` as a block producing its updated destinations.
pub(crate) fn par_scatter(em: &mut FnEmitter, s: &Scatter, sp: &str) -> E<()> {
    let (id, dests) = scatter_prologue(em, s, sp)?;
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
        "let parts_{id} = par::par_chunks(w_{id}, |lo_{id}: usize, hi_{id}: usize| -> R<{}> {{\n",
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
    em.write("}\n");
    em.write(&format!("{}\n}}", tuple(&dests)));
    Ok(())
}
