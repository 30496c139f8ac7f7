//! Tests of block lifetimes and small copies: an `if` branch's fresh block
//! allocated in the `if`'s handle (so an allocation in a loop reuses its
//! block), allocations of constant size hoisted out of loops, blocks
//! released after their last use, and copies of a few elements written
//! as reads and writes.

use values::Value;

use crate::interp::run_function;
use crate::print::print_program;
use crate::{Block, Program, Stm};

use crate::lower_text as lower;

fn run(p: &Program, args: Vec<Value>) -> Vec<Value> {
    run_function(p, "main", args)
        .unwrap_or_else(|e| panic!("{e}"))
        .values
}

/// A loop whose body picks one of two fresh arrays of a size known only
/// in the branch.
const IF_IN_LOOP: &str = r"fun main(n: i64, k: i64) -> (f64) {
  let s: f64 = loop (acc: f64 = 0.0f64) for i: i64 < n {
    let r: i64 = mod(i, 2i64)
    let c: bool = eq(r, k)
    let (b_d: i64, b: [b_d]f64) = if c then {
      let x: f64 = to_f64(i)
      let arr: [3]f64 = scratch(f64, [3])
      let arr_1: [3]f64 = arr with [0i64] = x
      let arr_2: [3]f64 = arr_1 with [1i64] = 1.0f64
      let arr_3: [3]f64 = arr_2 with [2i64] = 2.0f64
      in (3i64, arr_3)
    } else {
      let y: f64 = to_f64(i)
      let brr: [3]f64 = scratch(f64, [3])
      let brr_1: [3]f64 = brr with [0i64] = 3.0f64
      let brr_2: [3]f64 = brr_1 with [1i64] = y
      let brr_3: [3]f64 = brr_2 with [2i64] = 4.0f64
      in (3i64, brr_3)
    }
    let e0: f64 = b[0i64]
    let e1: f64 = b[1i64]
    let e2: f64 = b[2i64]
    let p: f64 = mul(e1, e2)
    let t: f64 = add(acc, e0)
    let u: f64 = add(t, p)
    in (u)
  }
  in (s)
}
";

/// The allocations of `b` and of the blocks nested in it, by handle name,
/// leaving out the empty blocks that released handles point at.
pub(super) fn alloc_names(p: &Program, b: &Block, out: &mut Vec<String>) {
    for s in &b.stms {
        match s {
            Stm::Alloc { mem, .. } => {
                let name = &p.functions[0].mems[mem.0 as usize].name;
                if !name.starts_with("empty_") {
                    out.push(name.clone());
                }
            }
            Stm::For { body, .. } | Stm::While { body, .. } | Stm::ParFor { body, .. } => {
                alloc_names(p, body, out)
            }
            Stm::If {
                then_block,
                else_block,
                ..
            } => {
                alloc_names(p, then_block, out);
                alloc_names(p, else_block, out);
            }
            _ => {}
        }
    }
}

#[test]
fn a_branch_allocates_its_array_in_the_if_handle() {
    let p = lower(IF_IN_LOOP);
    // i = 0..4 with k = 0: [0,1,2], [3,1,4], [2,1,2], [3,3,4].
    let out = run(&p, vec![Value::scalar(4i64), Value::scalar(0i64)]);
    assert_eq!(out, vec![Value::scalar(2.0f64 + 7.0 + 4.0 + 15.0)]);
    let text = print_program(&p);
    // Both branches build their array in the `if`'s handle: no alias is
    // left, the handle is never shared, and its block, of a constant
    // size, is allocated once before the loop.
    let mut allocs = Vec::new();
    alloc_names(&p, &p.functions[0].body, &mut allocs);
    assert_eq!(allocs, vec!["b_mem"], "{text}");
    assert!(!text.contains("b_mem = arr"), "{text}");
    assert!(!text.contains("b_mem = brr"), "{text}");
    assert!(text.contains("b_mem[0i64] = x"), "{text}");
    assert!(line_of(&text, "b_mem = alloc f64[3i64]") < line_of(&text, "for ("));
}

/// A loop whose `if` picks a fresh array or one made before the loop:
/// the `if`'s handle then shares the outer block, so the fresh array
/// needs a block of its own at each iteration where it is built.
const SHARED_IN_LOOP: &str = r"fun main(n: i64) -> (f64) {
  let z: [3]f64 = scratch(f64, [3])
  let z_1: [3]f64 = z with [0i64] = 10.0f64
  let z_2: [3]f64 = z_1 with [1i64] = 20.0f64
  let z_3: [3]f64 = z_2 with [2i64] = 30.0f64
  let s: f64 = loop (acc: f64 = 0.0f64) for i: i64 < n {
    let r: i64 = mod(i, 2i64)
    let c: bool = eq(r, 0i64)
    let b: [3]f64 = if c then {
      let x: f64 = to_f64(i)
      let arr: [3]f64 = scratch(f64, [3])
      let arr_1: [3]f64 = arr with [0i64] = x
      let arr_2: [3]f64 = arr_1 with [1i64] = x
      let arr_3: [3]f64 = arr_2 with [2i64] = x
      in (arr_3)
    } else {
      in (z_3)
    }
    let e: f64 = b[0i64]
    let t: f64 = add(acc, e)
    in (t)
  }
  in (s)
}
";

#[test]
fn a_handle_that_shares_a_block_allocates_in_the_loop() {
    let p = lower(SHARED_IN_LOOP);
    // 0, then z[0] = 10, then 2, then z[0] again: z was not overwritten.
    let out = run(&p, vec![Value::scalar(4i64)]);
    assert_eq!(out, vec![Value::scalar(22.0f64)]);
    let text = print_program(&p);
    assert!(text.contains("b_mem = z_mem"), "{text}");
    let lines: Vec<&str> = text.lines().collect();
    let in_loop = lines[line_of(&text, "for (")..]
        .iter()
        .any(|l| l.contains("b_mem = alloc f64[3i64]"));
    assert!(in_loop, "{text}");
}

/// A copy of a small array of constant shape.
const SMALL_COPY: &str = r"fun main(xs: [2][3]f64) -> ([2][3]f64) {
  let ys: [2][3]f64 = copy(xs)
  in (ys)
}
";

#[test]
fn a_small_copy_is_written_element_by_element() {
    let p = lower(SMALL_COPY);
    let xs = Value::array(vec![2, 3], vec![1.0f64, 2.0, 3.0, 4.0, 5.0, 6.0]).unwrap();
    let out = run_function(&p, "main", vec![xs.clone()]).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(out.values, vec![xs]);
    // Six reads and six writes, no copy statement.
    assert_eq!(
        (out.counters.copied, out.counters.reads, out.counters.writes),
        (0, 6, 6)
    );
    let text = print_program(&p);
    assert!(!text.contains("copy "), "{text}");
    assert!(text.contains("ys_mem[5i64] = elem"), "{text}");
}

/// A temporary (`ys`) whose last use is the map building the result.
const TEMPORARY: &str = r"fun main(n: i64, xs: [n]f64) -> (i64, [?]f64) {
  let ys: [n]f64 = screma(n, xs)
    map(\(x: f64) -> (f64) {
      let y: f64 = mul(x, 2.0f64)
      in (y)
    })
  let zs: [n]f64 = screma(n, ys)
    map(\(v: f64) -> (f64) {
      let z: f64 = add(v, 1.0f64)
      in (z)
    })
  in (n, zs)
}
";

/// The position of the first line of `text` containing `pat`.
fn line_of(text: &str, pat: &str) -> usize {
    text.lines()
        .position(|l| l.contains(pat))
        .unwrap_or_else(|| panic!("no `{pat}` in\n{text}"))
}

#[test]
fn a_block_is_released_after_its_last_use() {
    let p = lower(TEMPORARY);
    let xs = Value::vector(vec![1.0f64, 2.0, 3.0]);
    let out = run(&p, vec![Value::scalar(3i64), xs]);
    assert_eq!(
        out,
        vec![Value::scalar(3i64), Value::vector(vec![3.0f64, 5.0, 7.0])]
    );
    let text = print_program(&p);
    let released = line_of(&text, "ys_mem = empty_f64");
    let lines: Vec<&str> = text.lines().collect();
    let last_read = lines
        .iter()
        .rposition(|l| l.contains("ys_mem["))
        .expect("ys is read");
    assert!(released > last_read, "{text}");
    // The empty block is allocated once, first; the result's block is
    // kept.
    assert!(line_of(&text, "empty_f64 = alloc f64[0i64]") < line_of(&text, "ys_mem = alloc"));
    assert!(!text.contains("zs_mem = empty"), "{text}");
}

/// A loop building a temporary in each iteration, used after it.
const TEMPORARY_IN_LOOP: &str = r"fun main(n: i64, xs: [n]f64) -> (f64) {
  let s: f64 = loop (acc: f64 = 0.0f64) for i: i64 < n {
    let ys: [n]f64 = screma(n, xs)
      map(\(x: f64) -> (f64) {
        let y: f64 = mul(x, acc)
        in (y)
      })
    let e: f64 = ys[i]
    let t: f64 = add(e, 1.0f64)
    in (t)
  }
  let r: f64 = add(s, 1.0f64)
  in (r)
}
";

#[test]
fn a_block_of_a_loop_is_released_after_the_loop() {
    let p = lower(TEMPORARY_IN_LOOP);
    let xs = Value::vector(vec![1.0f64, 2.0, 3.0]);
    // acc: 0 -> 0*1+1 = 1 -> 1*2+1 = 3 -> 3*3+1 = 10; r = 11.
    let out = run(&p, vec![Value::scalar(3i64), xs]);
    assert_eq!(out, vec![Value::scalar(11.0f64)]);
    let text = print_program(&p);
    // Released once, after the loop: inside it, the block is what the
    // next iteration's allocation reuses.
    let loop_end = text
        .lines()
        .position(|l| l == "  }")
        .expect("the loop closes at depth one");
    assert!(line_of(&text, "ys_mem = empty_f64") > loop_end, "{text}");
    // Its size is not a constant: it is allocated in the loop.
    assert!(
        line_of(&text, "ys_mem = alloc") > line_of(&text, "for ("),
        "{text}"
    );
    assert_eq!(text.matches("ys_mem = empty_f64").count(), 1, "{text}");
}

/// A map copying rows whose size is known only at run time, computed in
/// the function (a size that is a parameter, usually an input's, is left
/// to one copy).
const ROW_COPIES: &str = r"fun main(n: i64, m: i64, xss: [n][m]f64) -> ([n][m]f64) {
  let k: i64 = add(m, 0i64)
  let xss_k: [n][k]f64 = reshape([n][k], xss)
  let yss: [n][k]f64 = screma(n, xss_k)
    map(\(xs: [k]f64) -> ([k]f64) {
      let ys: [k]f64 = copy(xs)
      in (ys)
    })
  let zss: [n][m]f64 = reshape([n][m], yss)
  in (zss)
}
";

#[test]
fn a_small_copy_in_a_parallel_loop_is_a_loop_at_run_time() {
    let p = lower(ROW_COPIES);
    let text = print_program(&p);
    assert!(text.contains("par ("), "{text}");
    assert!(text.contains("if (le(k"), "{text}");
    // The reshape of the argument copies it once; the rows of 20
    // elements are copied again.
    for (n, m, copied) in [(2usize, 3usize, 6u64), (2, 20, 80)] {
        let xs: Vec<f64> = (0..n * m).map(|k| k as f64 * 0.5).collect();
        let xss = Value::array(vec![n, m], xs).unwrap();
        let args = vec![
            Value::scalar(n as i64),
            Value::scalar(m as i64),
            xss.clone(),
        ];
        let out = run_function(&p, "main", args).unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(out.values, vec![xss]);
        // Up to 16 elements, reads and writes; more, one copy per row.
        assert_eq!(out.counters.copied, copied, "m = {m}: {}", out.counters);
    }
}

/// Two temporaries of one size, the second made after the first's last
/// use.
const TWO_TEMPORARIES: &str = r"fun main(n: i64, xs: [n]f64) -> (f64) {
  let ys: [n]f64 = screma(n, xs)
    map(\(x: f64) -> (f64) {
      let y: f64 = mul(x, 2.0f64)
      in (y)
    })
  let s: f64 = screma(n, ys)
    reduce(\(a: f64, b: f64) -> (f64) {
      let c: f64 = add(a, b)
      in (c)
    }, 0.0f64)
    map(\(w: f64) -> (f64) {
      in (w)
    })
  let zs: [n]f64 = screma(n, xs)
    map(\(x1: f64) -> (f64) {
      let z: f64 = add(x1, s)
      in (z)
    })
  let t: f64 = screma(n, zs)
    reduce(\(a1: f64, b1: f64) -> (f64) {
      let c1: f64 = mul(a1, b1)
      in (c1)
    }, 1.0f64)
    map(\(w1: f64) -> (f64) {
      in (w1)
    })
  in (t)
}
";

#[test]
fn a_dead_block_is_handed_to_a_later_allocation_of_its_size() {
    let p = lower(TWO_TEMPORARIES);
    let text = print_program(&p);
    // `zs` takes the block of `ys` (dead after the first reduction) just
    // before its allocation, which then reuses it; `ys` is not released
    // on its own.
    let handed = line_of(&text, "zs_mem = ys_mem");
    assert_eq!(line_of(&text, "ys_mem = empty_f64"), handed + 1, "{text}");
    assert_eq!(
        line_of(&text, "zs_mem = alloc f64[n]"),
        handed + 2,
        "{text}"
    );
    assert_eq!(text.matches("ys_mem = empty_f64").count(), 1, "{text}");
    // xs = [1, 2, 3]: s = 12, t = 13 * 14 * 15.
    let out = run(
        &p,
        vec![Value::scalar(3i64), Value::vector(vec![1.0f64, 2.0, 3.0])],
    );
    assert_eq!(out, vec![Value::scalar(13.0f64 * 14.0 * 15.0)]);
}

#[test]
fn no_block_is_handed_over_across_another_allocation() {
    // A block allocated between the two: keeping the dead block for `zs`
    // would hold it while that one is made, so it is released as before.
    let src = TWO_TEMPORARIES
        .replace(
            "  let zs: [n]f64",
            "  let us: [3]f64 = replicate([3], s)\n  let u0: f64 = us[0i64]\n  let zs: [n]f64",
        )
        .replace("add(x1, s)", "add(x1, u0)");
    let p = lower(&src);
    let text = print_program(&p);
    assert!(!text.contains("zs_mem = ys_mem"), "{text}");
    assert!(
        line_of(&text, "ys_mem = empty_f64") < line_of(&text, "us_mem = alloc"),
        "{text}"
    );
    let out = run(
        &p,
        vec![Value::scalar(3i64), Value::vector(vec![1.0f64, 2.0, 3.0])],
    );
    assert_eq!(out, vec![Value::scalar(13.0f64 * 14.0 * 15.0)]);
}
