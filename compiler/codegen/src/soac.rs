//! Rust code for SOACs: `screma` as a loop over its iteration space (or,
//! as a segmented operation, that loop run on chunks in parallel and the
//! chunks' partials combined), `hist` and `scatter` as sequential loops
//! writing into their destinations in place.

use ir::{Exp, Hist, ScanRed, Scatter, Screma, Stm, Type, VarId};

use crate::emit::{FnEmitter, rust_type, var};
use crate::scalar::rust_prim;

type E<T> = Result<T, String>;

pub(crate) fn tuple(items: &[String]) -> String {
    if items.len() == 1 {
        format!("({},)", items[0])
    } else {
        format!("({})", items.join(", "))
    }
}

/// Emits `let NAME = |..| -> R<..> { .. };` for a scan or reduction
/// operator; the closure takes `2k` arguments and returns one value (k = 1)
/// or a tuple.
pub(crate) fn op_closure(em: &mut FnEmitter, name: &str, op: &ScanRed) -> E<()> {
    let k = op.neutral.len();
    let mut params = Vec::new();
    let mut args = Vec::new();
    for (j, p) in op.op.params.iter().enumerate() {
        let t = rust_type(em.var_type(p.var)?);
        params.push(format!("p{j}_: {t}"));
        args.push(format!("p{j}_"));
    }
    let rets: Vec<String> = op.op.ret.iter().take(k).map(rust_type).collect();
    let ret = if rets.len() == 1 {
        rets[0].clone()
    } else {
        tuple(&rets)
    };
    em.write(&format!(
        "let {name} = |{}| -> R<{ret}> {{\n",
        params.join(", ")
    ));
    em.lambda_call_body(&op.op, &args)?;
    em.write("};\n");
    Ok(())
}

/// `state = op(state, x)` for the `k` state variables `st` and the
/// operands `xs`.
pub(crate) fn apply_op(name: &str, st: &[String], xs: &[String]) -> String {
    let args: Vec<String> = st.iter().chain(xs).cloned().collect();
    if st.len() == 1 {
        format!("{} = {name}({})?;\n", st[0], args.join(", "))
    } else {
        format!("({}) = {name}({})?;\n", st.join(", "), args.join(", "))
    }
}

/// What a screma's results need while its loop runs.
struct Outputs {
    /// Per scan component: state name, type.
    scan_states: Vec<(String, Type)>,
    /// Per reduction component: state name, type.
    red_states: Vec<(String, Type)>,
    /// Per collected output (scan components, then non-accumulator map
    /// results): collector name, row type.
    collectors: Vec<(String, Type)>,
}

pub(crate) fn input_args(
    em: &FnEmitter,
    id: usize,
    inputs: &[VarId],
    l: &ir::Lambda,
) -> E<Vec<String>> {
    let mut args = Vec::new();
    let mut acc_k = 0;
    for v in inputs {
        let t = em.var_type(*v)?;
        if t.acc {
            args.push(format!("as_{id}_{acc_k}"));
            acc_k += 1;
        } else if t.rank() == 1 {
            args.push(format!("{}.as_slice()[i_{id}]", var(*v)));
        } else if l
            .params
            .get(args.len())
            .is_some_and(|p| crate::rows::read_only(&l.body, p.var))
        {
            args.push(format!("{}.row_ref(i_{id})", var(*v)));
        } else {
            args.push(format!("{}.row(i_{id})", var(*v)));
        }
    }
    if l.params.len() == inputs.len() + 1 {
        args.push(format!("(i_{id} as i64)"));
    }
    Ok(args)
}

/// Declares the accumulator states of a SOAC's accumulator inputs and
/// passes their operators on to the lambda's parameters.
fn acc_states(em: &mut FnEmitter, id: usize, inputs: &[VarId], l: &ir::Lambda) -> E<usize> {
    let mut k = 0;
    for (j, v) in inputs.iter().enumerate() {
        if em.var_type(*v)?.acc {
            let init = em.var_by_value(*v);
            em.write(&format!("let mut as_{id}_{k} = {init};\n"));
            if let Some(p) = l.params.get(j) {
                em.set_acc_op(p.var, *v);
            }
            k += 1;
        }
    }
    Ok(k)
}

pub(crate) fn check_inputs(em: &mut FnEmitter, id: usize, inputs: &[VarId], sp: &str) -> E<()> {
    for v in inputs {
        if !em.var_type(*v)?.acc {
            em.write(&format!(
                "at({}.check_rows(w_{id} as i64), {sp})?;\n",
                var(*v)
            ));
        }
    }
    Ok(())
}

/// Declares the states and collectors and emits the loop over
/// `lo..hi` (Rust expressions).
fn screma_loop(
    em: &mut FnEmitter,
    id: usize,
    s: &Screma,
    outs: &Outputs,
    lo: &str,
    hi: &str,
    sp: &str,
) -> E<()> {
    let mut ne = s
        .scans
        .iter()
        .chain(&s.reduces)
        .flat_map(|x| x.neutral.iter());
    for (name, t) in outs.scan_states.iter().chain(&outs.red_states) {
        let n = ne
            .next()
            .map(|o| em.operand_by_value(o))
            .unwrap_or_default();
        em.write(&format!("let mut {name}: {} = {n};\n", rust_type(t)));
    }
    for (name, t) in &outs.collectors {
        em.write(&format!(
            "let mut {name}: Vec<{}> = Vec::with_capacity(({hi} - {lo}) * {});\nlet mut shp_{name}: Option<Vec<usize>> = None;\n",
            rust_prim(t.elem),
            if t.is_scalar() { "1" } else { "0" }
        ));
    }
    em.write(&format!("for i_{id} in {lo}..{hi} {{\n"));
    let args = input_args(em, id, &s.inputs, &s.map)?;
    let r = em.inline_body(&s.map, &args, false)?;
    em.write(&format!("let r_{id} = {r};\n"));
    let field = |k: usize| format!("r_{id}.{k}");
    let mut f = 0;
    let mut coll = outs.collectors.iter();
    let mut states = outs.scan_states.iter();
    for (j, sc) in s.scans.iter().enumerate() {
        let st: Vec<String> = (0..sc.neutral.len())
            .filter_map(|_| states.next().map(|x| x.0.clone()))
            .collect();
        let xs: Vec<String> = (0..sc.neutral.len()).map(|k| field(f + k)).collect();
        f += sc.neutral.len();
        em.write(&apply_op(&format!("sop_{id}_{j}"), &st, &xs));
        for name in &st {
            if let Some((c, t)) = coll.next() {
                push(em, c, t, name, sp);
            }
        }
    }
    let mut states = outs.red_states.iter();
    for (j, rd) in s.reduces.iter().enumerate() {
        let st: Vec<String> = (0..rd.neutral.len())
            .filter_map(|_| states.next().map(|x| x.0.clone()))
            .collect();
        let xs: Vec<String> = (0..rd.neutral.len()).map(|k| field(f + k)).collect();
        f += rd.neutral.len();
        em.write(&apply_op(&format!("rop_{id}_{j}"), &st, &xs));
    }
    let mut acc_k = 0;
    for t in &s.map.ret[f..] {
        if t.acc {
            em.write(&format!("as_{id}_{acc_k} = {};\n", field(f)));
            acc_k += 1;
        } else if let Some((c, t)) = coll.next() {
            push(em, c, t, &field(f), sp);
        }
        f += 1;
    }
    em.write("}\n");
    Ok(())
}

fn push(em: &mut FnEmitter, c: &str, t: &Type, x: &str, sp: &str) {
    if t.is_scalar() {
        em.write(&format!("{c}.push({x});\n"));
    } else {
        em.write(&format!(
            "at(push_row(&mut {c}, &mut shp_{c}, &{x}), {sp})?;\n"
        ));
    }
}

/// The array of one collected output, after the loop.
fn collected(em: &FnEmitter, id: usize, c: &str, t: &Type, e: &Exp, sp: &str) -> String {
    if t.is_scalar() {
        format!("Arr::new([w_{id}], {c})")
    } else {
        format!(
            "at(Arr::stacked(w_{id}, &shp_{c}.unwrap_or_else(|| {}), {c}), {sp})?",
            em.declared_shape(t, e)
        )
    }
}

/// Emits a screma as a block producing the tuple of its results.
pub fn screma(em: &mut FnEmitter, stm: &Stm, s: &Screma, par: bool, sp: &str) -> E<()> {
    let id = em.fresh_id();
    em.write("{\n");
    em.write(&format!(
        "let w_{id}: usize = at(len_of({}), {sp})?;\n",
        em.operand(&s.w)
    ));
    check_inputs(em, id, &s.inputs, sp)?;
    for (j, sc) in s.scans.iter().enumerate() {
        op_closure(em, &format!("sop_{id}_{j}"), sc)?;
    }
    for (j, rd) in s.reduces.iter().enumerate() {
        op_closure(em, &format!("rop_{id}_{j}"), rd)?;
    }
    let n_scan: usize = s.scans.iter().map(|x| x.neutral.len()).sum();
    let n_red: usize = s.reduces.iter().map(|x| x.neutral.len()).sum();
    let rets = &s.map.ret;
    if rets.len() < n_scan + n_red {
        return Err("a screma's map returns too few values".into());
    }
    let mut outs = Outputs {
        scan_states: Vec::new(),
        red_states: Vec::new(),
        collectors: Vec::new(),
    };
    for (k, t) in rets[..n_scan].iter().enumerate() {
        outs.scan_states.push((format!("ss_{id}_{k}"), t.clone()));
        outs.collectors.push((format!("col_{id}_{k}"), t.clone()));
    }
    for (k, t) in rets[n_scan..n_scan + n_red].iter().enumerate() {
        outs.red_states.push((format!("rs_{id}_{k}"), t.clone()));
    }
    for (k, t) in rets[n_scan + n_red..].iter().enumerate() {
        if !t.acc {
            outs.collectors
                .push((format!("col_{id}_{}", n_scan + k), t.clone()));
        }
    }
    acc_states(em, id, &s.inputs, &s.map)?;
    // Accumulator results carry the operators of the inputs they came from.
    let acc_inputs: Vec<VarId> = s
        .inputs
        .iter()
        .copied()
        .filter(|v| em.var_type(*v).is_ok_and(|t| t.acc))
        .collect();
    let mut acc_k = 0;
    for (t, p) in rets[n_scan + n_red..]
        .iter()
        .zip(&stm.pat[n_scan + n_red..])
    {
        if t.acc {
            if let Some(v) = acc_inputs.get(acc_k) {
                em.set_acc_op(*p, *v);
            }
            acc_k += 1;
        }
    }
    let results = {
        let mut results = Vec::new();
        let mut coll = outs.collectors.iter();
        for _ in 0..n_scan {
            if let Some((c, t)) = coll.next() {
                results.push(collected(em, id, c, t, &stm.exp, sp));
            }
        }
        results.extend(outs.red_states.iter().map(|(r, _)| r.clone()));
        let mut acc_k = 0;
        for t in &rets[n_scan + n_red..] {
            if t.acc {
                results.push(format!("as_{id}_{acc_k}"));
                acc_k += 1;
            } else if let Some((c, t)) = coll.next() {
                results.push(collected(em, id, c, t, &stm.exp, sp));
            }
        }
        results
    };
    let accs: Option<Vec<(String, String)>> = acc_inputs.iter().map(|v| em.acc_op(*v)).collect();
    let cost = crate::cost::screma_cost(em.program(), s);
    match accs {
        _ if !par => screma_loop(em, id, s, &outs, "0", &format!("w_{id}"), sp)?,
        Some(ops) if ops.is_empty() => {
            let nc = format!("par::chunk_count_cost(w_{id}, {cost}u64)");
            par_screma(em, id, s, &outs, n_scan, &[], &nc, sp)?;
        }
        Some(ops) if s.scans.is_empty() => {
            // Accumulators with operators: each chunk updates its own partial
            // accumulators, combined afterwards; one chunk updates them in place.
            let sizes: Vec<String> = (0..ops.len())
                .map(|k| format!("as_{id}_{k}.as_slice().len()"))
                .collect();
            em.write(&format!(
                "let nc_{id} = par::hist_chunks_cost(w_{id}, {}, {cost}u64);\nif nc_{id} <= 1 {{\n",
                sizes.join(" + ")
            ));
            screma_loop(em, id, s, &outs, "0", &format!("w_{id}"), sp)?;
            em.write(&format!("{}\n}} else {{\n", tuple(&results)));
            par_screma(em, id, s, &outs, n_scan, &ops, &format!("nc_{id}"), sp)?;
            em.write(&format!("{}\n}}\n}}", tuple(&results)));
            return Ok(());
        }
        _ => screma_loop(em, id, s, &outs, "0", &format!("w_{id}"), sp)?,
    }
    em.write(&format!("{}\n}}", tuple(&results)));
    Ok(())
}

/// Opens the block of hist `h` (sequential or segmented): its width
/// `w_ID`, the checks of its inputs, a closure `hop_ID_K` per operator and
/// one mutable `d_ID_K_J` per destination. Returns `ID` and the
/// destinations' names.
pub(crate) fn hist_prologue(em: &mut FnEmitter, h: &Hist, sp: &str) -> E<(usize, Vec<String>)> {
    let id = em.fresh_id();
    em.write("{\n");
    em.write(&format!(
        "let w_{id}: usize = at(len_of({}), {sp})?;\n",
        em.operand(&h.w)
    ));
    check_inputs(em, id, &h.inputs, sp)?;
    let mut dests = Vec::new();
    for (k, op) in h.hists.iter().enumerate() {
        let sr = ScanRed {
            op: op.op.clone(),
            neutral: op.neutral.clone(),
            commutative: true,
        };
        op_closure(em, &format!("hop_{id}_{k}"), &sr)?;
        for (j, d) in op.dests.iter().enumerate() {
            let init = em.var_by_value(*d);
            em.write(&format!("let mut d_{id}_{k}_{j} = {init};\n"));
            dests.push(format!("d_{id}_{k}_{j}"));
        }
    }
    Ok((id, dests))
}

/// Emits a `hist` as a sequential loop updating its destinations in place.
pub fn hist(em: &mut FnEmitter, stm: &Stm, h: &Hist, sp: &str) -> E<()> {
    let _ = stm;
    let (id, dests) = hist_prologue(em, h, sp)?;
    acc_states(em, id, &h.inputs, &h.map)?;
    em.write(&format!("for i_{id} in 0..w_{id} {{\n"));
    let args = input_args(em, id, &h.inputs, &h.map)?;
    let r = em.inline_body(&h.map, &args, false)?;
    em.write(&format!("let r_{id} = {r};\n"));
    let mut off = 0;
    for (k, op) in h.hists.iter().enumerate() {
        let m = op.dests.len();
        // Per destination: a one-dimensional destination holds scalars,
        // a higher-ranked one rows (one operator may combine both).
        let scalar_rows: Vec<bool> = op
            .dests
            .iter()
            .map(|d| em.var_type(*d).is_ok_and(|t| t.rank() == 1))
            .collect();
        em.write(&format!(
            "{{\nlet ix_ = r_{id}.{off};\nif ix_ >= 0 && ix_ < d_{id}_{k}_0.dim(0) {{\nlet iu_ = ix_ as usize;\n"
        ));
        let olds: Vec<String> = (0..m)
            .map(|j| {
                if scalar_rows[j] {
                    format!("d_{id}_{k}_{j}.as_slice()[iu_]")
                } else {
                    format!("d_{id}_{k}_{j}.row(iu_)")
                }
            })
            .collect();
        let vals: Vec<String> = (0..m).map(|j| format!("r_{id}.{}", off + 1 + j)).collect();
        let news: Vec<String> = (0..m).map(|j| format!("n{j}_")).collect();
        let args: Vec<String> = olds.into_iter().chain(vals).collect();
        if m == 1 {
            em.write(&format!("let n0_ = hop_{id}_{k}({})?;\n", args.join(", ")));
        } else {
            em.write(&format!(
                "let {} = hop_{id}_{k}({})?;\n",
                tuple(&news),
                args.join(", ")
            ));
        }
        for (j, &scalar) in scalar_rows.iter().enumerate() {
            if scalar {
                em.write(&format!("d_{id}_{k}_{j}.make_mut()[iu_] = n{j}_;\n"));
            } else {
                em.write(&format!(
                    "at(d_{id}_{k}_{j}.scatter_row(&[ix_], &n{j}_), {sp})?;\n"
                ));
            }
        }
        em.write("}\n}\n");
        off += 1 + m;
    }
    em.write("}\n");
    em.write(&format!("{}\n}}", tuple(&dests)));
    Ok(())
}

/// Opens the block of scatter `s` (sequential or parallel): its width
/// `w_ID`, the checks of its inputs, and one mutable `d_ID_K` per
/// destination. Returns `ID` and the destinations' names.
pub(crate) fn scatter_prologue(
    em: &mut FnEmitter,
    s: &Scatter,
    sp: &str,
) -> E<(usize, Vec<String>)> {
    let id = em.fresh_id();
    em.write("{\n");
    em.write(&format!(
        "let w_{id}: usize = at(len_of({}), {sp})?;\n",
        em.operand(&s.w)
    ));
    check_inputs(em, id, &s.inputs, sp)?;
    let mut dests = Vec::new();
    for (k, d) in s.dests.iter().enumerate() {
        let init = em.var_by_value(d.arr);
        em.write(&format!("let mut d_{id}_{k} = {init};\n"));
        dests.push(format!("d_{id}_{k}"));
    }
    Ok((id, dests))
}

/// Emits a `scatter` as a sequential loop writing into its destinations in
/// place; out-of-bounds writes are ignored.
pub fn scatter(em: &mut FnEmitter, stm: &Stm, s: &Scatter, sp: &str) -> E<()> {
    let _ = stm;
    let (id, dests) = scatter_prologue(em, s, sp)?;
    acc_states(em, id, &s.inputs, &s.map)?;
    scatter_loop(em, id, s, sp)?;
    em.write(&format!("{}\n}}", tuple(&dests)));
    Ok(())
}

/// The sequential loop of scatter `s` (block `id` of [`scatter_prologue`]):
/// each iteration's writes applied in place as it runs.
pub(crate) fn scatter_loop(em: &mut FnEmitter, id: usize, s: &Scatter, sp: &str) -> E<()> {
    em.write(&format!("for i_{id} in 0..w_{id} {{\n"));
    let args = input_args(em, id, &s.inputs, &s.map)?;
    let r = em.inline_body(&s.map, &args, false)?;
    em.write(&format!("let r_{id} = {r};\n"));
    // The value operands' types decide between element and row writes.
    let mut off = 0;
    for (k, d) in s.dests.iter().enumerate() {
        let idx: Vec<String> = (0..d.rank).map(|j| format!("r_{id}.{}", off + j)).collect();
        let value_ty = s.map.ret.get(off + d.rank).cloned();
        let full = em.var_type(d.arr).is_ok_and(|t| t.rank() == d.rank);
        let scalar_value = value_ty.as_ref().is_some_and(|t| t.is_scalar());
        if full && scalar_value {
            em.write(&format!(
                "d_{id}_{k}.scatter1(&[{}], r_{id}.{});\n",
                idx.join(", "),
                off + d.rank
            ));
        } else {
            em.write(&format!(
                "at(d_{id}_{k}.scatter_row(&[{}], &r_{id}.{}), {sp})?;\n",
                idx.join(", "),
                off + d.rank
            ));
        }
        off += d.rank + 1;
    }
    em.write("}\n");
    Ok(())
}

/// The parallel part of a segmented screma: the loop run on `nc` (a Rust
/// expression) chunks, and the chunks' partials combined in order.
/// `accs` are the operators and neutral elements of the accumulator
/// inputs: each chunk updates partial accumulators of their own, which are
/// then combined into the accumulators with the operators.
#[allow(clippy::too_many_arguments)]
fn par_screma(
    em: &mut FnEmitter,
    id: usize,
    s: &Screma,
    outs: &Outputs,
    n_scan: usize,
    accs: &[(String, String)],
    nc: &str,
    sp: &str,
) -> E<()> {
    let mut part_types: Vec<String> = outs
        .collectors
        .iter()
        .map(|(_, t)| format!("Vec<{}>", rust_prim(t.elem)))
        .collect();
    part_types.extend(outs.red_states.iter().map(|(_, t)| rust_type(t)));
    part_types.extend(
        outs.collectors
            .iter()
            .map(|_| "Option<Vec<usize>>".to_string()),
    );
    for k in 0..accs.len() {
        part_types.push(format!("Arr<{}>", acc_elem(em, s, k)?));
    }
    em.write(&format!(
        "let ch_{id} = |lo_{id}: usize, hi_{id}: usize| -> R<{}> {{\n",
        tuple(&part_types)
    ));
    for (k, (_, ne)) in accs.iter().enumerate() {
        em.write(&format!(
            "let mut as_{id}_{k} = Arr::new(as_{id}_{k}.shape.clone(), vec![{ne}; as_{id}_{k}.as_slice().len()]);\n"
        ));
    }
    screma_loop(
        em,
        id,
        s,
        outs,
        &format!("lo_{id}"),
        &format!("hi_{id}"),
        sp,
    )?;
    let mut fields: Vec<String> = outs.collectors.iter().map(|(c, _)| c.clone()).collect();
    fields.extend(outs.red_states.iter().map(|(r, _)| r.clone()));
    fields.extend(outs.collectors.iter().map(|(c, _)| format!("shp_{c}")));
    fields.extend((0..accs.len()).map(|k| format!("as_{id}_{k}")));
    em.write(&format!("Ok({})\n}};\n", tuple(&fields)));
    // One chunk (a small operation, or one nested in a chunk of an
    // operation that keeps every thread busy): its results are the
    // operation's, with nothing allocated to combine them.
    let mut names: Vec<String> = outs.collectors.iter().map(|(c, _)| c.clone()).collect();
    names.extend(outs.red_states.iter().map(|(r, _)| r.clone()));
    names.extend(outs.collectors.iter().map(|(c, _)| format!("shp_{c}")));
    let direct = accs.is_empty();
    if direct {
        em.write(&format!(
            "let nc_{id}: usize = {nc};\nlet {} = if nc_{id} <= 1 {{\nch_{id}(0, w_{id})?\n}} else {{\n",
            tuple(&names)
        ));
        em.write(&format!(
            "let parts_{id} = par::par_chunks_n(w_{id}, nc_{id}, &ch_{id})?;\n"
        ));
    } else {
        em.write(&format!(
            "let parts_{id} = par::par_chunks_n(w_{id}, {nc}, &ch_{id})?;\n"
        ));
    }
    // Combine the chunks' partials in order.
    for (c, t) in &outs.collectors {
        em.write(&format!(
            "let mut pc_{c}: Vec<Vec<{}>> = Vec::new();\nlet mut shp_{c}: Option<Vec<usize>> = None;\n",
            rust_prim(t.elem)
        ));
    }
    let mut ne = s.reduces.iter().flat_map(|x| x.neutral.iter());
    for (name, t) in &outs.red_states {
        let n = ne
            .next()
            .map(|o| em.operand_by_value(o))
            .unwrap_or_default();
        em.write(&format!("let mut {name}: {} = {n};\n", rust_type(t)));
    }
    let nc_ = outs.collectors.len();
    let nr = outs.red_states.len();
    let na = accs.len();
    let pnames: Vec<String> = (0..2 * nc_ + nr + na).map(|k| format!("q{k}_")).collect();
    em.write(&format!(
        "for part_ in parts_{id} {{\nlet {} = part_;\n",
        tuple(&pnames)
    ));
    for (k, (c, _)) in outs.collectors.iter().enumerate() {
        em.write(&format!(
            "pc_{c}.push(q{k}_);\nif shp_{c}.is_none() {{ shp_{c} = q{}_; }}\n",
            nc_ + nr + k
        ));
    }
    let mut r0 = 0;
    for (j, rd) in s.reduces.iter().enumerate() {
        let m = rd.neutral.len();
        let st: Vec<String> = outs.red_states[r0..r0 + m]
            .iter()
            .map(|x| x.0.clone())
            .collect();
        let xs: Vec<String> = (0..m).map(|k| format!("q{}_", nc_ + r0 + k)).collect();
        em.write(&apply_op(&format!("rop_{id}_{j}"), &st, &xs));
        r0 += m;
    }
    for (k, (op, _)) in accs.iter().enumerate() {
        em.write(&format!(
            "{{\nlet o_ = as_{id}_{k}.make_mut();\nfor (e_, x_) in q{}_.as_slice().iter().enumerate() {{ o_[e_] = {op}(o_[e_], *x_)?; }}\n}}\n",
            2 * nc_ + nr + k
        ));
    }
    em.write("}\n");
    for (j, (c, t)) in outs.collectors.iter().take(n_scan).enumerate() {
        let tn = rust_type(t);
        em.write(&format!(
            "{{\nlet mut car_: Vec<Option<{tn}>> = Vec::new();\nlet mut run_: Option<{tn}> = None;\nfor p_ in &pc_{c} {{\ncar_.push(run_);\nif let Some(&l_) = p_.last() {{\nrun_ = Some(match run_ {{ None => l_, Some(r_) => sop_{id}_{j}(r_, l_)? }});\n}}\n}}\npar::offset_chunks(&mut pc_{c}, &car_, |a_, b_| sop_{id}_{j}(a_, b_))?;\n}}\n"
        ));
    }
    for (c, _) in &outs.collectors {
        em.write(&format!("let {c} = par::concat_chunks(pc_{c});\n"));
    }
    if direct {
        em.write(&format!("{}\n}};\n", tuple(&names)));
    }
    Ok(())
}

/// The element type of the `k`-th accumulator input of `s`.
fn acc_elem(em: &FnEmitter, s: &Screma, k: usize) -> E<&'static str> {
    let v = s
        .inputs
        .iter()
        .filter(|v| em.var_type(**v).is_ok_and(|t| t.acc))
        .nth(k)
        .ok_or("a missing accumulator input")?;
    Ok(rust_prim(em.var_type(*v)?.elem))
}
