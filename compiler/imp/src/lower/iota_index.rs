//! `iota` arrays read only as a screma's input: the loop's own index.
//!
//! `map f (iota n)` and `f64.sum (map g (iota d))` would read each element
//! of the `iota` back from a block that a loop filled before. When every
//! use of the `iota` is as an input of a screma (GMM's `q_times` reads one
//! `iota d` in two nested scremas), no block is made: the variable is
//! bound to a view whose offset is the `iota`'s start and whose stride
//! is its step, over a block that is never allocated nor accessed, and
//! the screma's iteration `i` takes `start + i*step` as its element
//! ([`Lowerer::index_inputs`], [`Lowerer::index_element`]). The element is
//! then an affine function of the loop's counter, so the emitter's range
//! checks can hoist the accesses it indexes.

use std::collections::{HashMap, HashSet};

use ir::{Body, ConvKind, Exp, PrimType, VarId};

use super::{Lowerer, Val};
use crate::syntax::*;

/// Counts, per variable, its uses as a screma input in `b` (nested bodies
/// included), and lists the variables `iota`s bind there.
fn screma_inputs_and_iotas(b: &Body, inputs: &mut HashMap<VarId, usize>, iotas: &mut Vec<VarId>) {
    for s in &b.stms {
        match &s.exp {
            Exp::Screma(sc) => {
                for x in &sc.inputs {
                    *inputs.entry(*x).or_default() += 1;
                }
            }
            Exp::Iota { .. } => iotas.extend(s.pat.iter().copied()),
            _ => {}
        }
        for (_, nb) in ir::uses::nested_bodies(&s.exp) {
            screma_inputs_and_iotas(nb, inputs, iotas);
        }
    }
}

/// The variables of `f` bound by an `iota` whose every use is as a
/// screma's input: the ones lowered as loop indices.
pub(super) fn index_iotas(f: &ir::Function) -> HashSet<VarId> {
    let mut inputs = HashMap::new();
    let mut iotas = Vec::new();
    screma_inputs_and_iotas(&f.body, &mut inputs, &mut iotas);
    let uses = ir::walk::use_counts(f);
    iotas
        .into_iter()
        .filter(|v| {
            let n = uses.get(v).copied().unwrap_or(0);
            n > 0 && inputs.get(v) == Some(&n)
        })
        .collect()
}

impl<'p> Lowerer<'p> {
    /// Whether `v` is bound by an `iota` used only as screma inputs
    /// ([`index_iotas`], computed once per function).
    fn only_screma_inputs(&self, v: VarId) -> bool {
        self.index_iotas
            .get_or_init(|| index_iotas(self.f))
            .contains(&v)
    }

    /// For the `iota` statement `stm` of `n` elements from `start` by
    /// `step`: the view standing for it when it is a loop index (every use
    /// a screma's input, so no destination is asked of it either), with
    /// `start` and `step` in variables of their own.
    pub(crate) fn iota_as_index(
        &mut self,
        stm: &ir::Stm,
        n: &SExp,
        start: SExp,
        step: SExp,
        elem: PrimType,
    ) -> Option<Val<'p>> {
        let [v] = stm.pat.as_slice() else {
            return None;
        };
        if !self.only_screma_inputs(*v) {
            return None;
        }
        let fixed = |l: &mut Self, name: &str, e: SExp| match e {
            SExp::Const(_) => e,
            e => SExp::Var(l.assign_fresh(name, elem, e)),
        };
        let name = self.var_name(*v);
        let start = fixed(self, &format!("{name}_start"), start);
        let step = fixed(self, &format!("{name}_step"), step);
        let mem = self.new_mem(&format!("{name}_index"), elem);
        Some(Val::Array(View {
            mem,
            elem,
            offset: start,
            shape: vec![n.clone()],
            strides: vec![step],
        }))
    }

    /// Per input of a screma, whether it is an `iota` lowered as the loop's
    /// index ([`Lowerer::iota_as_index`]): bound by an `iota`, used only as
    /// screma inputs.
    pub(super) fn index_inputs(&self, inputs: &[VarId], vals: &[Val<'p>]) -> Vec<bool> {
        let mut out = Vec::with_capacity(inputs.len());
        for (v, x) in inputs.iter().zip(vals) {
            // Only one-dimensional integer arrays can be one.
            let candidate =
                matches!(x, Val::Array(view) if view.rank() == 1 && view.elem.is_integer());
            out.push(candidate && self.only_screma_inputs(*v));
        }
        out
    }

    /// Element `i` of the `iota` that `index` stands for: `start + i*step`
    /// in its element type.
    pub(super) fn index_element(index: &View, i: &SExp) -> SExp {
        let step = index.strides.first().cloned().unwrap_or(SExp::i64(1));
        let k = if index.elem == PrimType::I64 {
            i.clone()
        } else {
            SExp::Convert(ConvKind::Convert, index.elem, Box::new(i.clone()))
        };
        let scaled = match step.as_i64() {
            Some(1) => k,
            _ => SExp::BinOp(ir::BinOp::Mul, Box::new(k), Box::new(step)),
        };
        match index.offset.as_i64() {
            Some(0) => scaled,
            _ => SExp::BinOp(
                ir::BinOp::Add,
                Box::new(index.offset.clone()),
                Box::new(scaled),
            ),
        }
    }
}

#[cfg(test)]
mod tests {
    use values::Value;

    use crate::interp::run_function;
    use crate::print::print_program;

    use crate::lower_text as lower;

    fn run(p: &crate::Program, args: Vec<Value>) -> Vec<Value> {
        run_function(p, "main", args)
            .unwrap_or_else(|e| panic!("{e}"))
            .values
    }

    /// `n` elements from 3 by 3 (an `i32` range), each plus one, and their
    /// sum; with `result`, the range is also returned.
    fn range(result: bool) -> String {
        let (ret, extra) = if result {
            (", [n]i32", ", xs")
        } else {
            ("", "")
        };
        format!(
            r"fun main(n: i64) -> ([n]i32, i32{ret}) {{
  let xs: [n]i32 = iota(n, 3i32, 3i32)
  let ys: [n]i32 = screma(n, xs)
    map(\(x: i32) -> (i32) {{
      let y: i32 = add(x, 1i32)
      in (y)
    }})
  let s: i32 = screma(n, ys)
    reduce(\(a: i32, b: i32) -> (i32) {{
      let c: i32 = add(a, b)
      in (c)
    }}, 0i32)
    map(\(z: i32) -> (i32) {{
      in (z)
    }})
  in (ys, s{extra})
}}
"
        )
    }

    #[test]
    fn an_iota_only_read_by_scremas_is_the_loop_index() {
        let p = lower(&range(false));
        let text = print_program(&p);
        // No block of the iota, and no loop filling one: the element is
        // computed from the map's index.
        assert!(!text.contains("xs_mem"), "{text}");
        assert!(text.contains("(3i32 + (to_i32(i0"), "{text}");
        assert!(text.contains("iota of negative length"), "{text}");
        for n in [0i64, 1, 5] {
            let ys: Vec<i32> = (0..n as i32).map(|i| 3 + 3 * i + 1).collect();
            let s = ys.iter().sum::<i32>();
            assert_eq!(
                run(&p, vec![Value::scalar(n)]),
                vec![Value::vector(ys), Value::scalar(s)],
                "n = {n}"
            );
        }
        let err = run_function(&p, "main", vec![Value::scalar(-1i64)]).unwrap_err();
        assert!(err.to_string().contains("negative length"), "{err}");
    }

    #[test]
    fn an_iota_used_otherwise_is_made() {
        let p = lower(&range(true));
        let text = print_program(&p);
        assert!(text.contains("xs_mem = alloc i32[n]"), "{text}");
        let out = run(&p, vec![Value::scalar(3i64)]);
        assert_eq!(out[2], Value::vector(vec![3i32, 6, 9]));
        assert_eq!(out[0], Value::vector(vec![4i32, 7, 10]));
    }

    #[test]
    fn an_iota_read_by_two_nested_scremas_is_both_indices() {
        // GMM's `q_times`: the rows `r` and the columns `c < r` of one `iota`.
        let src = r"fun main(m: i64) -> ([m]i64) {
  let is: [m]i64 = iota(m, 0i64, 1i64)
  let rows: [m]i64 = screma(m, is)
    map(\(r: i64) -> (i64) {
      let s: i64 = screma(m, is)
        reduce(\(a: i64, b: i64) -> (i64) {
          let t: i64 = add(a, b)
          in (t)
        }, 0i64)
        map(\(c: i64) -> (i64) {
          let k: bool = lt(c, r)
          let y: i64 = if k then {
            in (c)
          } else {
            in (0i64)
          }
          in (y)
        })
      in (s)
    })
  in (rows)
}
";
        let p = lower(src);
        let text = print_program(&p);
        assert!(!text.contains("is_mem"), "{text}");
        let out = run(&p, vec![Value::scalar(5i64)]);
        assert_eq!(out, vec![Value::vector(vec![0i64, 0, 1, 3, 6])]);
        assert_eq!(
            run(&p, vec![Value::scalar(0i64)]),
            vec![Value::vector(Vec::<i64>::new())]
        );
    }

    #[test]
    fn an_iota_read_in_a_nested_map_is_the_inner_index() {
        let src = r"fun main(n: i64, m: i64, xss: [n][m]i64) -> ([n]i64) {
  let is: [m]i64 = iota(m, 10i64, -1i64)
  let sums: [n]i64 = screma(n, xss)
    map(\(xs: [m]i64) -> (i64) {
      let s: i64 = screma(m, xs, is)
        reduce(\(a: i64, b: i64) -> (i64) {
          let c: i64 = add(a, b)
          in (c)
        }, 0i64)
        map(\(x: i64, i: i64) -> (i64) {
          let y: i64 = mul(x, i)
          in (y)
        })
      in (s)
    })
  in (sums)
}
";
        let p = lower(src);
        let text = print_program(&p);
        assert!(!text.contains("is_mem"), "{text}");
        assert!(text.contains("(10i64 + "), "{text}");
        let xss = Value::array(vec![2, 3], vec![1i64, 2, 3, 0, 0, 1]).unwrap();
        let args = vec![Value::scalar(2i64), Value::scalar(3i64), xss];
        // Row 0: 1*10 + 2*9 + 3*8; row 1: 1*8.
        assert_eq!(run(&p, args), vec![Value::vector(vec![52i64, 8])]);
    }
}
