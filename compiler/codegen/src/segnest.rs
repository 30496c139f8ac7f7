//! Rust code for the nest plans of the `flatten` crate: perfect nests as
//! one segmented operation over a multi-dimensional space (or the outer map
//! alone, chosen at run time by the map's width), and maps with
//! parallelism inside as segmented operations whose bodies hold segmented
//! operations.
//!
//! [`dispatch`] is called before the emitter's own handling of a
//! statement and takes every statement that becomes a segmented operation.
//! With `FUT_FLATTEN=outer` in the compiler's environment it takes only
//! the outermost SOACs, each its own segmented operation, which gives the
//! plans of the first version (scatters sequential), for comparisons.

use std::collections::HashSet;

use ir::{Exp, Screma, Stm, Type, VarId};

use crate::emit::{FnEmitter, rust_type, var};
use crate::scalar::rust_prim;
use crate::soac::{check_inputs, input_args, op_closure, tuple};

type E<T> = Result<T, String>;

/// Emits statement `s` when it is a segmented operation (a plan of the
/// `flatten` crate covers it and it is not nested in another segmented
/// operation, or only in the body of a map with parallelism inside);
/// `None` leaves it to the emitter, which runs it sequentially. This is the
/// one place that chooses segmented operations. Each is timed for the
/// profiler under its kind and source location, nested ones too (their
/// time is also part of the operation around them).
pub(crate) fn dispatch(em: &mut FnEmitter, s: &Stm, sp: &str) -> Option<E<()>> {
    if !em.may_parallelise() {
        return None;
    }
    let f = em.ir_function();
    let plan = if outer_level_only() {
        flatten::seg_op(f, s).map(flatten::Plan::Seg)
    } else {
        flatten::plan(f, s)
    }?;
    let kind = match (&plan, &s.exp) {
        (flatten::Plan::Scatter, Exp::Scatter(_)) => "segscatter",
        (flatten::Plan::Seg(op), Exp::Screma(_) | Exp::Hist(_)) => op.name(),
        (flatten::Plan::Nest(n), Exp::Screma(_)) => n.inner.name(),
        (flatten::Plan::Versioned(_), Exp::Screma(sc)) => flatten::screma_seg_op(f, sc)?.name(),
        _ => return None,
    };
    let timer = em.profile_start(kind, s.span);
    let r = match (plan, &s.exp) {
        // Inside the body of a map with parallelism inside, a perfect nest
        // is one version: its outer map in parallel, its body sequential
        // (two versions at every level would double the code with each
        // level of nesting).
        (flatten::Plan::Nest(_), Exp::Screma(sc)) if em.in_parallel_body() => {
            crate::soac::screma(em, s, sc, true, sp)
        }
        (flatten::Plan::Nest(_), Exp::Screma(sc)) => nest_or_outer(em, s, sc, sp),
        (flatten::Plan::Versioned(_), Exp::Screma(sc)) => versioned(em, s, sc, sp),
        (flatten::Plan::Scatter, Exp::Scatter(sc)) => crate::scatter::par_scatter(em, sc, sp),
        (flatten::Plan::Seg(_), Exp::Screma(sc)) => crate::soac::screma(em, s, sc, true, sp),
        (flatten::Plan::Seg(_), Exp::Hist(h)) => crate::seghist::seg_hist(em, h, sp),
        _ => Err("internal error: a segmented operation of an unexpected kind".into()),
    };
    em.profile_end(&timer);
    Some(r)
}

/// Whether `FUT_FLATTEN=outer` asks for the first version's plans only
/// (the outermost level of SOACs parallel, scatters sequential), to
/// compare against.
fn outer_level_only() -> bool {
    std::env::var("FUT_FLATTEN").is_ok_and(|v| v == "outer")
}

/// A map with parallelism inside: one segmented operation whose body's
/// parallel operations are segmented operations too. The runtime splits
/// those only while the map's own chunks leave threads idle
/// (`par::chunk_count`): with a row or more per thread the body runs as
/// sequential loops, with fewer rows its operations use the idle threads.
/// One version of the body is emitted, not one per case: two versions
/// made the generated code of the test corpus half as large again.
fn versioned(em: &mut FnEmitter, s: &Stm, sc: &Screma, sp: &str) -> E<()> {
    em.with_parallel_inside(|em| crate::soac::screma(em, s, sc, true, sp))
}

/// The outer map `sc` in parallel when it has at least one row per thread,
/// else what `fewer` writes.
fn by_width(
    em: &mut FnEmitter,
    s: &Stm,
    sc: &Screma,
    sp: &str,
    fewer: impl FnOnce(&mut FnEmitter) -> E<()>,
) -> E<()> {
    let id = em.fresh_id();
    em.write(&format!(
        "{{\nlet wv_{id}: usize = at(len_of({}), {sp})?;\nif wv_{id} >= rayon::current_num_threads() {{\n",
        em.operand(&sc.w)
    ));
    crate::soac::screma(em, s, sc, true, sp)?;
    em.write("\n} else {\n");
    fewer(em)?;
    em.write("\n}\n}");
    Ok(())
}

/// The outer parameters of a perfect nest that are rows of two-dimensional
/// inputs used only as inputs of the inner screma, each with its input.
fn direct_rows(
    em: &FnEmitter,
    outer: &Screma,
    inner: &Screma,
    prologue: &[Stm],
) -> E<Vec<(VarId, VarId)>> {
    let vars = &em.ir_function().vars;
    let mut used = HashSet::new();
    for s in prologue {
        ir::uses::exp_uses(vars, &s.exp, &mut used);
    }
    used.extend(ir::uses::lambda_free(vars, &inner.map));
    for op in inner.scans.iter().chain(&inner.reduces) {
        used.extend(ir::uses::lambda_free(vars, &op.op));
    }
    if let ir::Operand::Var(v) = inner.w {
        used.insert(v);
    }
    let mut out = Vec::new();
    for (p, input) in outer.map.params.iter().zip(&outer.inputs) {
        let t = em.var_type(*input)?;
        if t.rank() == 2 && !t.acc && !used.contains(&p.var) && inner.inputs.contains(&p.var) {
            out.push((p.var, *input));
        }
    }
    Ok(out)
}

/// A perfect nest: with at least one row per thread the outer map alone is
/// the segmented operation (each chunk whole rows, no partial rows to
/// combine); with fewer rows, one segmented operation over the `n * m`
/// points ([`nest`]).
fn nest_or_outer(em: &mut FnEmitter, s: &Stm, sc: &Screma, sp: &str) -> E<()> {
    by_width(em, s, sc, sp, |em| nest(em, sc, sp))
}

/// A perfect nest `map (\r -> screma g r) xss` (or deeper maps around the
/// inner screma) as one segmented operation over all its points: the rows
/// are the combinations of the map levels' indices (row-major), each chunk
/// runs the rows it covers (the first and last possibly in part),
/// collecting the inner map and scan results in order and one reduction
/// and scan total per row part; the totals of a row split between chunks
/// are combined in chunk order, and the scanned elements of a row that a
/// chunk starts in the middle of are offset by the totals before them.
fn nest(em: &mut FnEmitter, outer: &Screma, sp: &str) -> E<()> {
    let f = em.ir_function();
    let Some(levels) = flatten::nest::nest_levels(f, outer) else {
        return Err("internal error: a perfect nest without an inner statement".into());
    };
    let maps: Vec<&Screma> = std::iter::once(outer)
        .chain(levels.iter().take(levels.len() - 1).map(|l| l.next))
        .collect();
    let last = &levels[levels.len() - 1];
    let (istm, inner) = (last.stm, last.next);
    let id = em.fresh_id();
    let iid = em.fresh_id();
    let ids: Vec<usize> = std::iter::once(id)
        .chain((1..maps.len()).map(|_| em.fresh_id()))
        .collect();
    em.write("{\n");
    for (l, m) in maps.iter().enumerate() {
        em.write(&format!(
            "let w_{}: usize = at(len_of({}), {sp})?;\n",
            ids[l],
            em.operand(&m.w)
        ));
    }
    em.write(&format!(
        "let m_{id}: usize = at(len_of({}), {sp})?;\n",
        em.operand(&inner.w)
    ));
    let widths: Vec<String> = ids.iter().map(|k| format!("w_{k}")).collect();
    em.write(&format!(
        "let nr_{id}: usize = {};\n",
        widths
            .iter()
            .skip(1)
            .fold(widths[0].clone(), |a, w| format!(
                "{a}.checked_mul({w}).unwrap_or(usize::MAX)"
            ))
    ));
    check_inputs(em, id, &outer.inputs, sp)?;
    for (j, sc) in inner.scans.iter().enumerate() {
        op_closure(em, &format!("sop_{iid}_{j}"), sc)?;
    }
    for (j, rd) in inner.reduces.iter().enumerate() {
        op_closure(em, &format!("rop_{iid}_{j}"), rd)?;
    }
    let n_scan: usize = inner.scans.iter().map(|x| x.neutral.len()).sum();
    let n_red: usize = inner.reduces.iter().map(|x| x.neutral.len()).sum();
    let rets = &inner.map.ret;
    if rets.len() < n_scan + n_red || n_scan != inner.scans.len() {
        return Err("internal error: a nest's inner screma of an unexpected form".into());
    }
    let scan_types: Vec<&Type> = rets[..n_scan].iter().collect();
    let red_types: Vec<&Type> = rets[n_scan..n_scan + n_red].iter().collect();
    let col_types: Vec<&Type> = rets[n_scan + n_red..].iter().collect();
    let neutral = |em: &FnEmitter, ops: &[ir::ScanRed]| -> Vec<String> {
        ops.iter()
            .flat_map(|x| x.neutral.iter())
            .map(|o| em.operand(o))
            .collect()
    };
    let scan_ne = neutral(em, &inner.scans);
    let red_ne = neutral(em, &inner.reduces);
    // The chunk's results: scanned elements of its first row part and of
    // the rest, collected map results, the scan and reduction totals of the
    // row parts it covers, the row shapes of array results, its first row.
    let (ns, nr, nc) = (n_scan, n_red, col_types.len());
    let mut part_types: Vec<String> = Vec::new();
    for t in scan_types.iter().chain(&scan_types).chain(&col_types) {
        part_types.push(format!("Vec<{}>", rust_prim(t.elem)));
    }
    for t in scan_types.iter().chain(&red_types) {
        part_types.push(format!("Vec<{}>", rust_type(t)));
    }
    part_types.extend(col_types.iter().map(|_| "Option<Vec<usize>>".to_string()));
    part_types.push("usize".into());
    // The points are split by their estimated work, as any segmented
    // operation's iterations: a small nest runs as one chunk.
    let cost = crate::cost::screma_cost(em.program(), inner);
    // Rows of two-dimensional inputs that only feed the inner screma of a
    // two-level nest are read in place (element `i * row_len + j`), not
    // bound as rows.
    let direct = if maps.len() == 1 {
        direct_rows(em, outer, inner, last.prologue)?
    } else {
        Vec::new()
    };
    for (k, (_, input)) in direct.iter().enumerate() {
        em.write(&format!(
            "let rl_{id}_{k}: usize = {}.row_len();\nif w_{id} > 0 {{ at({}.row(0).check_rows(m_{id} as i64), {sp})?; }}\n",
            var(*input),
            var(*input)
        ));
    }
    em.write(&format!(
        "let t_{id}: usize = nr_{id}.checked_mul(m_{id}).unwrap_or(usize::MAX);\n\
         let parts_{id} = par::par_chunks_n(t_{id}, par::chunk_count_cost(t_{id}, {cost}u64), |lo_{id}: usize, hi_{id}: usize| -> R<{}> {{\n",
        tuple(&part_types)
    ));
    for (k, t) in scan_types.iter().enumerate() {
        let e = rust_prim(t.elem);
        em.write(&format!(
            "let mut hd_{id}_{k}: Vec<{e}> = Vec::new();\nlet mut sc_{id}_{k}: Vec<{e}> = Vec::with_capacity(hi_{id} - lo_{id});\nlet mut srows_{id}_{k}: Vec<{e}> = Vec::new();\n"
        ));
    }
    for (k, t) in col_types.iter().enumerate() {
        em.write(&format!(
            "let mut col_{id}_{k}: Vec<{}> = Vec::with_capacity(hi_{id} - lo_{id});\nlet mut shp_col_{id}_{k}: Option<Vec<usize>> = None;\n",
            rust_prim(t.elem)
        ));
    }
    for (k, t) in red_types.iter().enumerate() {
        em.write(&format!(
            "let mut rows_{id}_{k}: Vec<{}> = Vec::new();\n",
            rust_type(t)
        ));
    }
    em.write(&format!(
        "let mut g_{id} = lo_{id};\nwhile g_{id} < hi_{id} {{\n\
         let r_{id}: usize = g_{id} / m_{id};\n\
         let j0_{id}: usize = g_{id} - r_{id} * m_{id};\n\
         let j1_{id}: usize = m_{id}.min(j0_{id} + (hi_{id} - g_{id}));\n"
    ));
    // The index of each map level in the row number, innermost last.
    if maps.len() == 1 {
        em.write(&format!("let i_{id}: usize = r_{id};\n"));
    } else {
        em.write(&format!("let mut rr_{id}: usize = r_{id};\n"));
        for k in ids.iter().rev() {
            em.write(&format!(
                "let i_{k}: usize = rr_{id} % w_{k};\nrr_{id} /= w_{k};\n"
            ));
        }
    }
    // Each map level's parameters (this row of each input) and prologue.
    for (l, m) in maps.iter().enumerate() {
        if l > 0 {
            check_inputs(em, ids[l], &m.inputs, sp)?;
        }
        let args = input_args(em, ids[l], &m.inputs, &m.map)?;
        for (p, a) in m.map.params.iter().zip(&args) {
            if !direct.iter().any(|(d, _)| *d == p.var) {
                em.write(&format!("let {} = {a};\n", var(p.var)));
            }
        }
        let prologue = levels[l].prologue;
        if !prologue.is_empty() {
            let pl = ir::Lambda {
                params: Vec::new(),
                ret: Vec::new(),
                body: ir::Body {
                    stms: prologue.to_vec(),
                    result: Vec::new(),
                },
            };
            em.inline_body(&pl, &[], false)?;
        }
    }
    em.write(&format!("let w_{iid}: usize = m_{id};\n"));
    let bound: Vec<VarId> = inner
        .inputs
        .iter()
        .copied()
        .filter(|v| !direct.iter().any(|(d, _)| d == v))
        .collect();
    check_inputs(em, iid, &bound, sp)?;
    let scan_st: Vec<String> = (0..ns).map(|k| format!("ss_{iid}_{k}")).collect();
    let red_st: Vec<String> = (0..nr).map(|k| format!("rs_{iid}_{k}")).collect();
    for ((st, t), ne) in scan_st
        .iter()
        .zip(&scan_types)
        .chain(red_st.iter().zip(&red_types))
        .zip(scan_ne.iter().chain(&red_ne))
    {
        em.write(&format!("let mut {st}: {} = {ne};\n", rust_type(t)));
    }
    // A chunk's first row part goes to its own buffers: it may need the
    // totals of the row's parts in earlier chunks added.
    for k in 0..ns {
        em.write(&format!(
            "let tg_{id}_{k}: &mut Vec<_> = if g_{id} == lo_{id} {{ &mut hd_{id}_{k} }} else {{ &mut sc_{id}_{k} }};\n"
        ));
    }
    em.write(&format!("for i_{iid} in j0_{id}..j1_{id} {{\n"));
    let mut iargs = input_args(em, iid, &inner.inputs, &inner.map)?;
    for (a, v) in iargs.iter_mut().zip(&inner.inputs) {
        if let Some((k, (_, input))) = direct.iter().enumerate().find(|(_, (d, _))| d == v) {
            *a = format!("{}.as_slice()[i_{id} * rl_{id}_{k} + i_{iid}]", var(*input));
        }
    }
    let r = em.inline_body(&inner.map, &iargs, false)?;
    em.write(&format!("let r_{iid} = {r};\n"));
    for (j, st) in scan_st.iter().enumerate() {
        em.write(&crate::soac::apply_op(
            &format!("sop_{iid}_{j}"),
            std::slice::from_ref(st),
            &[format!("r_{iid}.{j}")],
        ));
        em.write(&format!("tg_{id}_{j}.push({st});\n"));
    }
    let mut f = n_scan;
    for (j, rd) in inner.reduces.iter().enumerate() {
        let m = rd.neutral.len();
        let xs: Vec<String> = (f..f + m).map(|k| format!("r_{iid}.{k}")).collect();
        em.write(&crate::soac::apply_op(
            &format!("rop_{iid}_{j}"),
            &red_st[f - n_scan..f - n_scan + m],
            &xs,
        ));
        f += m;
    }
    for (k, t) in col_types.iter().enumerate() {
        let x = format!("r_{iid}.{}", n_scan + n_red + k);
        if t.is_scalar() {
            em.write(&format!("col_{id}_{k}.push({x});\n"));
        } else {
            em.write(&format!(
                "at(push_row(&mut col_{id}_{k}, &mut shp_col_{id}_{k}, &{x}), {sp})?;\n"
            ));
        }
    }
    em.write("}\n");
    for (k, st) in scan_st.iter().enumerate() {
        em.write(&format!("srows_{id}_{k}.push({st});\n"));
    }
    for (k, st) in red_st.iter().enumerate() {
        em.write(&format!("rows_{id}_{k}.push({st});\n"));
    }
    em.write(&format!("g_{id} += j1_{id} - j0_{id};\n}}\n"));
    let mut fields: Vec<String> = Vec::new();
    fields.extend((0..ns).map(|k| format!("hd_{id}_{k}")));
    fields.extend((0..ns).map(|k| format!("sc_{id}_{k}")));
    fields.extend((0..nc).map(|k| format!("col_{id}_{k}")));
    fields.extend((0..ns).map(|k| format!("srows_{id}_{k}")));
    fields.extend((0..nr).map(|k| format!("rows_{id}_{k}")));
    fields.extend((0..nc).map(|k| format!("shp_col_{id}_{k}")));
    fields.push(format!("lo_{id} / m_{id}.max(1)"));
    em.write(&format!("Ok({})\n}})?;\n", tuple(&fields)));
    combine(em, id, iid, inner, (&scan_types, &red_types, &col_types))?;
    // The results, in the order of the inner screma's.
    let dims = widths.join(", ");
    let mut results: Vec<String> = (0..ns)
        .map(|k| format!("Arr::new(vec![{dims}, m_{id}], s_{id}_{k})"))
        .collect();
    results.extend((0..nr).map(|k| format!("Arr::new(vec![{dims}], red_{id}_{k})")));
    for (k, t) in col_types.iter().enumerate() {
        em.write(&format!(
            "let c_{id}_{k} = par::concat_chunks(pc_{id}_{k});\n"
        ));
        if t.is_scalar() {
            results.push(format!("Arr::new(vec![{dims}, m_{id}], c_{id}_{k})"));
        } else {
            let row = em.declared_shape(t, &istm.exp);
            let rest = widths[1..].join(", ");
            let sep = if rest.is_empty() { "" } else { ", " };
            results.push(format!(
                "at(Arr::stacked(w_{id}, &{{ let mut s_ = vec![{rest}{sep}m_{id}]; s_.extend(shp_{id}_{k}.unwrap_or_else(|| {row})); s_ }}, c_{id}_{k}), {sp})?"
            ));
        }
    }
    em.write(&format!("{}\n}}", tuple(&results)));
    Ok(())
}

/// Combines the chunks' results of a nest (`parts_ID`) in chunk order:
/// map results gathered for concatenation (`pc_ID_K`), the row parts'
/// reduction totals folded per row (`red_ID_K`), and the scanned elements
/// (`s_ID_K`) of each chunk's first row part offset by the totals of that
/// row's parts in the chunks before it.
fn combine(
    em: &mut FnEmitter,
    id: usize,
    iid: usize,
    inner: &Screma,
    (scan_types, red_types, col_types): (&[&Type], &[&Type], &[&Type]),
) -> E<()> {
    let (ns, nr, nc) = (scan_types.len(), red_types.len(), col_types.len());
    for (k, t) in col_types.iter().enumerate() {
        em.write(&format!(
            "let mut pc_{id}_{k}: Vec<Vec<{}>> = Vec::new();\nlet mut shp_{id}_{k}: Option<Vec<usize>> = None;\n",
            rust_prim(t.elem)
        ));
    }
    for (k, t) in scan_types.iter().enumerate() {
        let e = rust_prim(t.elem);
        let ne = em.operand(&inner.scans[k].neutral[0]);
        em.write(&format!(
            "let mut st_{id}_{k}: {e} = {ne};\nlet mut sp_{id}_{k}: Vec<Vec<{e}>> = Vec::new();\nlet mut car_{id}_{k}: Vec<Option<{e}>> = Vec::new();\n"
        ));
    }
    for (k, t) in red_types.iter().enumerate() {
        let ne = inner
            .reduces
            .iter()
            .flat_map(|x| x.neutral.iter())
            .nth(k)
            .map(|o| em.operand(o))
            .unwrap_or_default();
        em.write(&format!(
            "let mut red_{id}_{k}: Vec<{}> = vec![{ne}; nr_{id}];\n",
            rust_type(t)
        ));
    }
    em.write(&format!(
        "let mut seen_{id}: Vec<bool> = vec![false; nr_{id}];\n"
    ));
    let q: Vec<String> = (0..2 * ns + 2 * nc + ns + nr + 1)
        .map(|k| format!("q{k}_"))
        .collect();
    let (q_hd, q_sc, q_col) = (0, ns, 2 * ns);
    let (q_stot, q_red) = (2 * ns + nc, 3 * ns + nc);
    let (q_shp, q_first) = (3 * ns + nc + nr, 3 * ns + 2 * nc + nr);
    em.write(&format!(
        "for part_ in parts_{id} {{\nlet {} = part_;\n",
        tuple(&q)
    ));
    for k in 0..nc {
        em.write(&format!(
            "pc_{id}_{k}.push(q{}_);\nif shp_{id}_{k}.is_none() {{ shp_{id}_{k} = q{}_; }}\n",
            q_col + k,
            q_shp + k
        ));
    }
    // Scans: the first row part continues a row begun in an earlier chunk
    // when that row has been seen; its carry is the running total of the
    // last row seen (`st_ID_K`), which is that row.
    for k in 0..ns {
        em.write(&format!(
            "let c_ = if !q{hd}_.is_empty() && seen_{id}[q{first}_] {{ Some(st_{id}_{k}) }} else {{ None }};\n\
             car_{id}_{k}.push(c_);\nsp_{id}_{k}.push(q{hd}_);\ncar_{id}_{k}.push(None);\nsp_{id}_{k}.push(q{sc}_);\n",
            hd = q_hd + k,
            first = q_first,
            sc = q_sc + k
        ));
    }
    if ns + nr > 0 {
        em.write(&format!(
            "for e_ in 0..q{}_.len() {{\nlet r_ = q{q_first}_ + e_;\n",
            if ns > 0 { q_stot } else { q_red }
        ));
        for k in 0..ns {
            em.write(&format!(
                "st_{id}_{k} = if seen_{id}[r_] {{ sop_{iid}_{k}(st_{id}_{k}, q{}_[e_])? }} else {{ q{}_[e_] }};\n",
                q_stot + k,
                q_stot + k
            ));
        }
        let mut f = 0;
        for (j, rd) in inner.reduces.iter().enumerate() {
            let m = rd.neutral.len();
            let st: Vec<String> = (f..f + m).map(|k| format!("red_{id}_{k}[r_]")).collect();
            let xs: Vec<String> = (f..f + m).map(|k| format!("q{}_[e_]", q_red + k)).collect();
            let tmp: Vec<String> = (f..f + m).map(|k| format!("x{k}_")).collect();
            em.write(&format!(
                "if seen_{id}[r_] {{\nlet {} = rop_{iid}_{j}({})?;\n",
                if m == 1 { tmp[0].clone() } else { tuple(&tmp) },
                st.iter().chain(&xs).cloned().collect::<Vec<_>>().join(", ")
            ));
            for (s_, t_) in st.iter().zip(&tmp) {
                em.write(&format!("{s_} = {t_};\n"));
            }
            em.write("} else {\n");
            for (s_, x_) in st.iter().zip(&xs) {
                em.write(&format!("{s_} = {x_};\n"));
            }
            em.write("}\n");
            f += m;
        }
        em.write(&format!("seen_{id}[r_] = true;\n}}\n"));
    }
    em.write("}\n");
    for k in 0..ns {
        em.write(&format!(
            "par::offset_chunks(&mut sp_{id}_{k}, &car_{id}_{k}, |a_, b_| sop_{iid}_{k}(a_, b_))?;\nlet s_{id}_{k} = par::concat_chunks(sp_{id}_{k});\n"
        ));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use crate::{Options, program_module};

    fn module(src: &str) -> String {
        let prog = ir::parse::parse_program(src).unwrap();
        program_module(&prog, &Options::default(), &|_| String::new()).unwrap()
    }

    #[test]
    fn perfect_nests_are_chunked_over_both_dimensions() {
        let m = module(
            "fun main(n: i64, m: i64, xss: [n][m]f64) -> ([n]f64) {
  let ss: [n]f64 = screma(n, xss)
    map(\\(xs: [m]f64) -> (f64) {
      let s: f64 = screma(m, xs)
        reduce(\\(a: f64, b: f64) -> (f64) {
          let c: f64 = add(a, b)
          in (c)
        }, 0.0f64)
        map(\\(x: f64) -> (f64) {
          in (x)
        })
      in (s)
    })
  in (ss)
}
",
        );
        // With few rows, one parallel loop over the n * m points, row
        // partials combined; with many, the outer map alone.
        assert!(m.contains("rayon::current_num_threads()"), "{m}");
        assert!(m.contains("checked_mul(m_"), "{m}");
        assert_eq!(m.matches("par::par_chunks_n(t_").count(), 1, "{m}");
        assert_eq!(m.matches("par::par_chunks_n(").count(), 2, "{m}");
        assert!(m.contains("if seen_"), "{m}");
        // Both versions are one operation for the profiler, a segmented
        // reduction.
        assert_eq!(m.matches("profile::op_start()").count(), 1, "{m}");
        assert!(m.contains("op_end(\"segred\""), "{m}");
        // The rows are read in place, not copied per chunk.
        assert!(m.contains(".row_len()"), "{m}");
        assert!(!m.contains(".row(i_"), "{m}");
    }

    #[test]
    fn maps_of_scans_are_segmented_scans() {
        let m = module(
            "fun main(n: i64, m: i64, xss: [n][m]i64) -> ([n][m]i64) {
  let yss: [n][m]i64 = screma(n, xss)
    map(\\(xs: [m]i64) -> ([m]i64) {
      let ys: [m]i64 = screma(m, xs)
        scan(\\(a: i64, b: i64) -> (i64) {
          let c: i64 = add(a, b)
          in (c)
        }, 0i64)
        map(\\(x: i64) -> (i64) {
          in (x)
        })
      in (ys)
    })
  in (yss)
}
",
        );
        // The outer map alone with a row per thread, else one scan over the
        // n * m points whose chunks' first row parts are offset.
        assert!(m.contains("rayon::current_num_threads()"), "{m}");
        assert_eq!(m.matches("par::par_chunks_n(t_").count(), 1, "{m}");
        assert!(m.contains("par::offset_chunks(&mut sp_"), "{m}");
        assert!(m.contains("op_end(\"segscan\""), "{m}");
    }

    #[test]
    fn three_level_nests_are_one_space() {
        let m = module(
            "fun main(n: i64, m: i64, k: i64, xsss: [n][m][k]f64) -> ([n][m]f64) {
  let rss: [n][m]f64 = screma(n, xsss)
    map(\\(xss: [m][k]f64) -> ([m]f64) {
      let rs: [m]f64 = screma(m, xss)
        map(\\(xs: [k]f64) -> (f64) {
          let s: f64 = screma(k, xs)
            reduce(\\(a: f64, b: f64) -> (f64) {
              let c: f64 = add(a, b)
              in (c)
            }, 0.0f64)
            map(\\(x: f64) -> (f64) {
              in (x)
            })
          in (s)
        })
      in (rs)
    })
  in (rss)
}
",
        );
        // One space of n * m rows of k points: the row number split into
        // the two map levels' indices.
        assert_eq!(m.matches("par::par_chunks_n(t_").count(), 1, "{m}");
        assert_eq!(m.matches("par::par_chunks_n(").count(), 2, "{m}");
        assert!(m.contains("let mut rr_"), "{m}");
        assert!(m.contains("op_end(\"segred\""), "{m}");
    }

    #[test]
    fn maps_with_parallel_bodies_are_parallel_at_both_levels() {
        let m = module(
            "fun main(n: i64, m: i64, xss: [n][m]f64) -> ([n][m]f64, [n]f64) {
  let (yss: [n][m]f64, ss: [n]f64) = screma(n, xss)
    map(\\(xs: [m]f64) -> ([m]f64, f64) {
      let ys: [m]f64 = screma(m, xs)
        map(\\(x: f64) -> (f64) {
          let y: f64 = mul(x, x)
          in (y)
        })
      let s: f64 = screma(m, ys)
        reduce(\\(a: f64, b: f64) -> (f64) {
          let c: f64 = add(a, b)
          in (c)
        }, 0.0f64)
        map(\\(x: f64) -> (f64) {
          in (x)
        })
      in (ys, s)
    })
  in (yss, ss)
}
",
        );
        // One version: the outer map in parallel, and each of the two
        // inner SOACs in parallel inside its body (split at run time only
        // while the outer map leaves threads idle).
        assert!(!m.contains("rayon::current_num_threads()"), "{m}");
        assert_eq!(m.matches("par::par_chunks_n(").count(), 3, "{m}");
        // Each is timed by the profiler, the nested ones too.
        assert_eq!(m.matches("profile::op_start()").count(), 3, "{m}");
        assert_eq!(m.matches("op_end(\"segmap\"").count(), 2, "{m}");
        assert_eq!(m.matches("op_end(\"segred\"").count(), 1, "{m}");
    }

    #[test]
    fn scatters_compute_in_parallel_and_write_in_order() {
        let m = module(
            "fun main(n: i64, is: [n]i64, xs: [n]f64, d: [10]f64) -> ([10]f64) {
  let r: [10]f64 = scatter(n, is, xs)
    into(d@1)
    map(\\(i: i64, v: f64) -> (i64, f64) {
      let w: f64 = mul(v, v)
      in (i, w)
    })
  in (r)
}
",
        );
        assert!(m.contains("par::par_chunks_n(w_"), "{m}");
        assert!(m.contains(".scatter1(&ix_, v_)"), "{m}");
        // Small scatters run as the sequential loop, writing as they go.
        let small = format!("< {}u64 {{ 1 }}", crate::scatter::SCATTER_MIN_WORK);
        assert!(m.contains(&small), "{m}");
        assert!(m.contains(".scatter1(&[r_"), "{m}");
        assert!(m.contains("op_end(\"segscatter\""), "{m}");
    }
}
