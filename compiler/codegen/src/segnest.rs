//! Rust code for the nest plans of the `flatten` crate: perfect nests as
//! one segmented operation over a two-dimensional space (or the outer map
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
        (flatten::Plan::Nest(_) | flatten::Plan::Versioned(_), Exp::Screma(sc)) => {
            flatten::screma_seg_op(f, sc)?.name()
        }
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

/// A perfect nest `map (\r -> screma g r) xss` as one segmented operation
/// over the `n * m` points: each chunk runs the rows it covers (the first
/// and last possibly in part), collecting the inner map results in order
/// and one reduction partial per row it touches; the partials of a row
/// split between chunks are combined in chunk order.
fn nest(em: &mut FnEmitter, outer: &Screma, sp: &str) -> E<()> {
    let Some(istm) = outer.map.body.stms.last() else {
        return Err("internal error: a perfect nest without an inner statement".into());
    };
    let Exp::Screma(inner) = &istm.exp else {
        return Err("internal error: a perfect nest whose inner statement is no screma".into());
    };
    let id = em.fresh_id();
    let iid = em.fresh_id();
    em.write("{\n");
    em.write(&format!(
        "let w_{id}: usize = at(len_of({}), {sp})?;\nlet m_{id}: usize = at(len_of({}), {sp})?;\n",
        em.operand(&outer.w),
        em.operand(&inner.w)
    ));
    check_inputs(em, id, &outer.inputs, sp)?;
    for (j, rd) in inner.reduces.iter().enumerate() {
        op_closure(em, &format!("rop_{iid}_{j}"), rd)?;
    }
    let n_red: usize = inner.reduces.iter().map(|x| x.neutral.len()).sum();
    let rets = &inner.map.ret;
    if rets.len() < n_red {
        return Err("a screma's map returns too few values".into());
    }
    let red_types: Vec<&Type> = rets[..n_red].iter().collect();
    let col_types: Vec<&Type> = rets[n_red..].iter().collect();
    let neutrals: Vec<String> = inner
        .reduces
        .iter()
        .flat_map(|x| x.neutral.iter())
        .map(|o| em.operand(o))
        .collect();
    // The chunk's results: collected map results, the reduction partials
    // of the rows it touches, the row shapes of array results, its first row.
    let mut part_types: Vec<String> = col_types
        .iter()
        .map(|t| format!("Vec<{}>", rust_prim(t.elem)))
        .collect();
    part_types.extend(red_types.iter().map(|t| format!("Vec<{}>", rust_type(t))));
    part_types.extend(col_types.iter().map(|_| "Option<Vec<usize>>".to_string()));
    part_types.push("usize".into());
    // Rows of two-dimensional inputs that only feed the inner screma are
    // read in place (element `i * row_len + j`), not bound as rows: a chunk
    // covering part of a row would otherwise copy all of it.
    let prologue = &outer.map.body.stms[..outer.map.body.stms.len() - 1];
    let direct = direct_rows(em, outer, inner, prologue)?;
    for (k, (_, input)) in direct.iter().enumerate() {
        em.write(&format!(
            "let rl_{id}_{k}: usize = {}.row_len();\nif w_{id} > 0 {{ at({}.row(0).check_rows(m_{id} as i64), {sp})?; }}\n",
            var(*input),
            var(*input)
        ));
    }
    em.write(&format!(
        "let t_{id}: usize = w_{id}.checked_mul(m_{id}).unwrap_or(usize::MAX);\n\
         let parts_{id} = par::par_chunks(t_{id}, |lo_{id}: usize, hi_{id}: usize| -> R<{}> {{\n",
        tuple(&part_types)
    ));
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
         let i_{id}: usize = g_{id} / m_{id};\n\
         let j0_{id}: usize = g_{id} - i_{id} * m_{id};\n\
         let j1_{id}: usize = m_{id}.min(j0_{id} + (hi_{id} - g_{id}));\n"
    ));
    // The outer parameters: this row of each input.
    let oargs = input_args(em, id, &outer.inputs, &outer.map)?;
    for (p, a) in outer.map.params.iter().zip(&oargs) {
        if !direct.iter().any(|(d, _)| *d == p.var) {
            em.write(&format!("let {} = {a};\n", var(p.var)));
        }
    }
    // The prologue: scalar statements before the inner screma.
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
    em.write(&format!("let w_{iid}: usize = m_{id};\n"));
    let bound: Vec<VarId> = inner
        .inputs
        .iter()
        .copied()
        .filter(|v| !direct.iter().any(|(d, _)| d == v))
        .collect();
    check_inputs(em, iid, &bound, sp)?;
    let states: Vec<String> = (0..n_red).map(|k| format!("rs_{iid}_{k}")).collect();
    for ((st, t), ne) in states.iter().zip(&red_types).zip(&neutrals) {
        em.write(&format!("let mut {st}: {} = {ne};\n", rust_type(t)));
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
    let mut f = 0;
    for (j, rd) in inner.reduces.iter().enumerate() {
        let m = rd.neutral.len();
        let xs: Vec<String> = (f..f + m).map(|k| format!("r_{iid}.{k}")).collect();
        em.write(&crate::soac::apply_op(
            &format!("rop_{iid}_{j}"),
            &states[f..f + m],
            &xs,
        ));
        f += m;
    }
    for (k, t) in col_types.iter().enumerate() {
        let x = format!("r_{iid}.{}", n_red + k);
        if t.is_scalar() {
            em.write(&format!("col_{id}_{k}.push({x});\n"));
        } else {
            em.write(&format!(
                "at(push_row(&mut col_{id}_{k}, &mut shp_col_{id}_{k}, &{x}), {sp})?;\n"
            ));
        }
    }
    em.write("}\n");
    for (k, st) in states.iter().enumerate() {
        em.write(&format!("rows_{id}_{k}.push({st});\n"));
    }
    em.write(&format!("g_{id} += j1_{id} - j0_{id};\n}}\n"));
    let mut fields: Vec<String> = (0..col_types.len())
        .map(|k| format!("col_{id}_{k}"))
        .collect();
    fields.extend((0..n_red).map(|k| format!("rows_{id}_{k}")));
    fields.extend((0..col_types.len()).map(|k| format!("shp_col_{id}_{k}")));
    fields.push(format!("lo_{id} / m_{id}.max(1)"));
    em.write(&format!("Ok({})\n}})?;\n", tuple(&fields)));
    // Combine: map results concatenated, row partials folded in order.
    for (k, t) in col_types.iter().enumerate() {
        em.write(&format!(
            "let mut pc_{id}_{k}: Vec<Vec<{}>> = Vec::new();\nlet mut shp_{id}_{k}: Option<Vec<usize>> = None;\n",
            rust_prim(t.elem)
        ));
    }
    for ((k, t), ne) in red_types.iter().enumerate().zip(&neutrals) {
        em.write(&format!(
            "let mut red_{id}_{k}: Vec<{}> = vec![{ne}; w_{id}];\n",
            rust_type(t)
        ));
    }
    em.write(&format!(
        "let mut seen_{id}: Vec<bool> = vec![false; w_{id}];\n"
    ));
    let nc = col_types.len();
    let q: Vec<String> = (0..2 * nc + n_red + 1).map(|k| format!("q{k}_")).collect();
    em.write(&format!(
        "for part_ in parts_{id} {{\nlet {} = part_;\n",
        tuple(&q)
    ));
    for k in 0..nc {
        em.write(&format!(
            "pc_{id}_{k}.push(q{k}_);\nif shp_{id}_{k}.is_none() {{ shp_{id}_{k} = q{}_; }}\n",
            nc + n_red + k
        ));
    }
    if n_red > 0 {
        let first = 2 * nc + n_red;
        em.write(&format!(
            "for e_ in 0..q{}_.len() {{\nlet r_ = q{first}_ + e_;\n",
            nc
        ));
        let mut f = 0;
        for (j, rd) in inner.reduces.iter().enumerate() {
            let m = rd.neutral.len();
            let st: Vec<String> = (f..f + m).map(|k| format!("red_{id}_{k}[r_]")).collect();
            let xs: Vec<String> = (f..f + m).map(|k| format!("q{}_[e_]", nc + k)).collect();
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
    // The results, in the order of the inner screma's.
    let mut results: Vec<String> = (0..n_red)
        .map(|k| format!("Arr::new(vec![w_{id}], red_{id}_{k})"))
        .collect();
    for (k, t) in col_types.iter().enumerate() {
        em.write(&format!(
            "let c_{id}_{k} = par::concat_chunks(pc_{id}_{k});\n"
        ));
        if t.is_scalar() {
            results.push(format!("Arr::new(vec![w_{id}, m_{id}], c_{id}_{k})"));
        } else {
            let row = em.declared_shape(t, &istm.exp);
            results.push(format!(
                "at(Arr::stacked(w_{id}, &{{ let mut s_ = vec![m_{id}]; s_.extend(shp_{id}_{k}.unwrap_or_else(|| {row})); s_ }}, c_{id}_{k}), {sp})?"
            ));
        }
    }
    em.write(&format!("{}\n}}", tuple(&results)));
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
        assert_eq!(m.matches("par::par_chunks(").count(), 1, "{m}");
        assert_eq!(m.matches("par::par_chunks_n(").count(), 1, "{m}");
        assert!(m.contains("if seen_"), "{m}");
        // Both versions are one operation for the profiler.
        assert_eq!(m.matches("profile::op_start()").count(), 1, "{m}");
        assert!(m.contains("op_end(\"segmap\""), "{m}");
        // The rows are read in place, not copied per chunk.
        assert!(m.contains(".row_len()"), "{m}");
        assert!(!m.contains(".row(i_"), "{m}");
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
        assert!(m.contains("par::par_chunks("), "{m}");
        assert!(m.contains(".scatter1(&ix_, v_)"), "{m}");
        assert!(m.contains("op_end(\"segscatter\""), "{m}");
    }
}
