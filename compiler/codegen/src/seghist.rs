//! Rust code for a segmented histogram (`SegHist`): the map body is a
//! closure giving each iteration's buckets and values; each chunk of the
//! iteration space fills its own partial histograms (initialised with the
//! neutral elements), and the partials are combined into the destinations
//! in chunk order. The number of chunks is capped so that the partial
//! histograms cost no more than the iterations (`par::hist_chunks`); with
//! one chunk the iterations update the destinations directly.

use ir::Hist;

use crate::emit::{FnEmitter, rust_type};
use crate::scalar::rust_prim;
use crate::soac::{hist_prologue, input_args, tuple};

type E<T> = Result<T, String>;

/// Emits a `hist` whose destinations are one-dimensional and whose map
/// results are scalars, as a block producing the updated destinations.
pub fn seg_hist(em: &mut FnEmitter, h: &Hist, sp: &str) -> E<()> {
    let (id, dests) = hist_prologue(em, h, sp)?;
    let rets: Vec<String> = h.map.ret.iter().map(rust_type).collect();
    em.write(&format!(
        "let body_{id} = |i_{id}: usize| -> R<{}> {{\n",
        tuple(&rets)
    ));
    let args = input_args(em, id, &h.inputs, &h.map)?;
    em.enter_par();
    let r = em.inline_body(&h.map, &args, false);
    em.leave_par();
    em.write(&format!("Ok({})\n}};\n", r?));
    // One bucket update of histogram k into buffers `buf(k, j)`.
    let update = |off: usize, k: usize, m: usize, buf: &dyn Fn(usize) -> String| -> String {
        let olds: Vec<String> = (0..m).map(|j| format!("{}[iu_]", buf(j))).collect();
        let vals: Vec<String> = (0..m).map(|j| format!("r_.{}", off + 1 + j)).collect();
        let args: Vec<String> = olds.into_iter().chain(vals).collect();
        let news: Vec<String> = (0..m).map(|j| format!("n{j}_")).collect();
        let mut s = format!(
            "{{\nlet ix_ = r_.{off};\nif ix_ >= 0 && (ix_ as usize) < {}.len() {{\nlet iu_ = ix_ as usize;\nlet {} = hop_{id}_{k}({})?;\n",
            buf(0),
            if m == 1 {
                news[0].clone()
            } else {
                tuple(&news)
            },
            args.join(", ")
        );
        for (j, n) in news.iter().enumerate() {
            s.push_str(&format!("{}[iu_] = {n};\n", buf(j)));
        }
        s.push_str("}\n}\n");
        s
    };
    let cost = crate::cost::hist_cost(em.program(), h);
    let bins: Vec<String> = (0..h.hists.len())
        .map(|k| format!("d_{id}_{k}_0.as_slice().len()"))
        .collect();
    em.write(&format!(
        "let nc_{id} = par::hist_chunks_cost(w_{id}, {}, {cost}u64);\n",
        bins.join(" + ")
    ));
    // One chunk: update the destinations directly.
    em.write(&format!("if nc_{id} <= 1 {{\n"));
    for (k, op) in h.hists.iter().enumerate() {
        for j in 0..op.dests.len() {
            em.write(&format!("let b_{k}_{j} = d_{id}_{k}_{j}.make_mut();\n"));
        }
    }
    em.write(&format!(
        "for i_ in 0..w_{id} {{\nlet r_ = body_{id}(i_)?;\n"
    ));
    let mut off = 0;
    for (k, op) in h.hists.iter().enumerate() {
        let m = op.dests.len();
        em.write(&update(off, k, m, &|j| format!("b_{k}_{j}")));
        off += 1 + m;
    }
    em.write("}\n} else {\n");
    // Partial histograms per chunk.
    let mut part_types = Vec::new();
    let mut part_inits = Vec::new();
    let mut part_names = Vec::new();
    for (k, op) in h.hists.iter().enumerate() {
        for (j, (d, ne)) in op.dests.iter().zip(&op.neutral).enumerate() {
            let t = rust_prim(em.var_type(*d)?.elem);
            part_types.push(format!("Vec<{t}>"));
            part_inits.push(format!(
                "let mut h_{k}_{j}: Vec<{t}> = vec![{}; d_{id}_{k}_{j}.as_slice().len()];\n",
                em.operand(ne)
            ));
            part_names.push(format!("h_{k}_{j}"));
        }
    }
    em.write(&format!(
        "let parts_ = par::par_chunks_n(w_{id}, nc_{id}, |lo_: usize, hi_: usize| -> R<{}> {{\n",
        tuple(&part_types)
    ));
    for init in &part_inits {
        em.write(init);
    }
    em.write("for i_ in lo_..hi_ {\nlet r_ = body_");
    em.write(&format!("{id}(i_)?;\n"));
    let mut off = 0;
    for (k, op) in h.hists.iter().enumerate() {
        let m = op.dests.len();
        em.write(&update(off, k, m, &|j| format!("h_{k}_{j}")));
        off += 1 + m;
    }
    em.write(&format!("}}\nOk({})\n}})?;\n", tuple(&part_names)));
    let qs: Vec<String> = (0..part_names.len()).map(|q| format!("q{q}_")).collect();
    em.write(&format!(
        "for part_ in parts_ {{\nlet {} = part_;\n",
        tuple(&qs)
    ));
    let mut q = 0;
    for (k, op) in h.hists.iter().enumerate() {
        let m = op.dests.len();
        for j in 0..m {
            em.write(&format!("let b_{k}_{j} = d_{id}_{k}_{j}.make_mut();\n"));
        }
        let olds: Vec<String> = (0..m).map(|j| format!("b_{k}_{j}[b_]")).collect();
        let vals: Vec<String> = (0..m).map(|j| format!("q{}_[b_]", q + j)).collect();
        let news: Vec<String> = (0..m).map(|j| format!("n{j}_")).collect();
        let args: Vec<String> = olds.into_iter().chain(vals).collect();
        em.write(&format!(
            "for b_ in 0..b_{k}_0.len() {{\nlet {} = hop_{id}_{k}({})?;\n",
            if m == 1 {
                news[0].clone()
            } else {
                tuple(&news)
            },
            args.join(", ")
        ));
        for (j, n) in news.iter().enumerate() {
            em.write(&format!("b_{k}_{j}[b_] = {n};\n"));
        }
        em.write("}\n");
        q += m;
    }
    em.write("}\n}\n");
    em.write(&format!("{}\n}}", tuple(&dests)));
    Ok(())
}
