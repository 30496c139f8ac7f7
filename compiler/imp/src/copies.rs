//! Copies between arrays as parallel loops, for a device.
//!
//! Host code copies a view into another with [`Stm::Copy`]. On a GPU
//! backend the blocks live on the device, and a copy made by the host
//! reads the source back and writes the destination up again. There,
//! [`parallel_copies`] turns the copies of host code (outside parallel
//! loops) into parallel loops over the destination's elements, each
//! reading one element of the source and writing it: loops that become
//! kernels, so the elements stay on the device. The destination's
//! innermost index varies fastest between neighbouring iterations, so
//! neighbouring threads write neighbouring elements of a row-major
//! destination. Transpositions go through tiles in local memory instead
//! ([`crate::tiled_transpose`]), so that reads are neighbours too. A
//! parallel loop whose body is one copy of a slice per iteration (`map
//! transpose xsss`) becomes one copy with an outer dimension more first,
//! so its elements are spread over threads, not its iterations.

use ir::PrimType;

use crate::syntax::*;

/// Replaces the copies in the host code of `f` (outside parallel loops)
/// by parallel loops over their elements (the module doc). Copies within
/// one block, whose source and destination may overlap, copies of scalars
/// (rank 0) and copies between views whose shapes are not the same
/// expressions (the host checks that they agree) stay.
pub fn parallel_copies(f: &mut Function) {
    let mut body = std::mem::take(&mut f.body);
    rewrite(&mut body, f);
    f.body = body;
}

fn rewrite(b: &mut Block, f: &mut Function) {
    for s in &mut b.stms {
        if let Some(whole) = batched_copy(s) {
            *s = whole;
        }
        match s {
            Stm::ParFor { .. } => {}
            Stm::Copy { dst, src, span }
                if dst.mem != src.mem && dst.rank() > 0 && dst.shape == src.shape =>
            {
                let plain = copy_loop(f, dst, src, *span);
                *s = if crate::tiled_transpose::is_transposition(dst, src) {
                    crate::tiled_transpose::tiled_copy(f, dst, src, *span, plain)
                } else {
                    plain
                };
            }
            _ => {
                for inner in s.blocks_mut() {
                    rewrite(inner, f);
                }
            }
        }
    }
}

/// The parallel loop `s` over `i < n` whose body is one copy between
/// views whose offsets are linear in `i` (`a + i * k`, shapes and strides
/// the same on every iteration: `map transpose xss`) as one copy with an
/// outer dimension of `n` more, which [`rewrite`] then spreads over every
/// element rather than over the `n` iterations.
fn batched_copy(s: &Stm) -> Option<Stm> {
    let Stm::ParFor {
        kind: ParKind::Map,
        ids,
        sizes,
        body,
        span,
        ..
    } = s
    else {
        return None;
    };
    let ([i], [n], [Stm::Copy { dst, src, .. }]) =
        (ids.as_slice(), sizes.as_slice(), body.stms.as_slice())
    else {
        return None;
    };
    let outer = |v: &View| -> Option<View> {
        let fixed = |e: &SExp| !e.mentions(*i);
        if !v.shape.iter().chain(&v.strides).all(fixed) {
            return None;
        }
        let (base, step) = linear(&v.offset, *i)?;
        let mut shape = vec![n.clone()];
        shape.extend(v.shape.iter().cloned());
        let mut strides = vec![step];
        strides.extend(v.strides.iter().cloned());
        Some(View {
            mem: v.mem,
            elem: v.elem,
            offset: base,
            shape,
            strides,
        })
    };
    Some(Stm::Copy {
        dst: outer(dst)?,
        src: outer(src)?,
        span: *span,
    })
}

/// `e` as `a + i * k` with `a` and `k` not mentioning `i`, if it is one.
fn linear(e: &SExp, i: SVar) -> Option<(SExp, SExp)> {
    if !e.mentions(i) {
        return Some((e.clone(), SExp::i64(0)));
    }
    match e {
        SExp::Var(v) if *v == i => Some((SExp::i64(0), SExp::i64(1))),
        SExp::BinOp(ir::BinOp::Add, a, b) => {
            let (a0, a1) = linear(a, i)?;
            let (b0, b1) = linear(b, i)?;
            Some((SExp::plus(a0, b0), SExp::plus(a1, b1)))
        }
        SExp::BinOp(ir::BinOp::Mul, a, b) => {
            let (x, k) = if a.mentions(i) { (a, b) } else { (b, a) };
            if k.mentions(i) {
                return None;
            }
            let (x0, x1) = linear(x, i)?;
            Some((
                SExp::times(x0, (**k).clone()),
                SExp::times(x1, (**k).clone()),
            ))
        }
        _ => None,
    }
}

/// A fresh scalar of `f` named `name`.
pub(crate) fn fresh(f: &mut Function, name: &str, ty: PrimType) -> SVar {
    f.vars.push(VarInfo {
        name: name.into(),
        ty,
    });
    SVar((f.vars.len() - 1) as u32)
}

/// `dst <- src` as a parallel loop over the elements of `dst`.
fn copy_loop(f: &mut Function, dst: &View, src: &View, span: ir::Span) -> Stm {
    let ids: Vec<SVar> = (0..dst.rank())
        .map(|k| fresh(f, &format!("c{k}"), PrimType::I64))
        .collect();
    let idx: Vec<SExp> = ids.iter().map(|v| SExp::Var(*v)).collect();
    let x = fresh(f, "elem", src.elem);
    let body = Block {
        stms: vec![
            Stm::Read {
                var: x,
                view: src.clone(),
                idx: idx.clone(),
            },
            Stm::Write {
                view: dst.clone(),
                idx,
                value: SExp::Var(x),
            },
        ],
    };
    Stm::ParFor {
        kind: ParKind::Map,
        ids,
        sizes: dst.shape.clone(),
        body,
        chunk_prologue: 0,
        span,
        label: "copy",
    }
}

#[cfg(test)]
mod tests {
    use values::Value;

    use crate::interp::run_function;
    use crate::print::print_program;

    /// A transposed copy and a concatenation: copies between views.
    const COPIES: &str = r"fun main(n: i64, m: i64, xss: [n][m]f64, ys: [m]f64) -> ([m][n]f64, [?]f64) {
  let tr: [m][n]f64 = rearrange((1, 0), xss)
  let t: [m][n]f64 = copy(tr)
  let k: i64 = add(m, m)
  let c: [k]f64 = concat(0, [k], ys, ys)
  in (t, c)
}
";

    #[test]
    fn host_copies_become_parallel_loops_with_the_same_results() {
        let mut p = crate::lower_text(COPIES);
        let before = print_program(&p);
        assert!(before.contains("copy "), "{before}");
        for f in &mut p.functions {
            super::parallel_copies(f);
        }
        let after = print_program(&p);
        assert!(!after.contains("copy "), "{after}");
        // The transposed copy's loop of one thread per element (for narrow
        // matrices; wider ones take tiles) writes its destination row by
        // row: the innermost index is the destination's.
        assert!(after.contains(", c1 < n) {\n      elem"), "{after}");
        assert!(after.contains("groups of 256"), "{after}");
        let xs: Vec<f64> = (0..6).map(f64::from).collect();
        let args = || {
            vec![
                Value::scalar(2i64),
                Value::scalar(3i64),
                Value::array(vec![2, 3], xs.clone()).expect("a shape"),
                Value::vector(vec![7.0f64, 8.0, 9.0]),
            ]
        };
        let want = vec![
            Value::array(vec![3, 2], vec![0.0f64, 3.0, 1.0, 4.0, 2.0, 5.0]).expect("a shape"),
            Value::vector(vec![7.0f64, 8.0, 9.0, 7.0, 8.0, 9.0]),
        ];
        let original = crate::lower_text(COPIES);
        for prog in [&original, &p] {
            let out = run_function(prog, "main", args()).unwrap_or_else(|e| panic!("{e}"));
            assert_eq!(out.values, want);
        }
    }
}
