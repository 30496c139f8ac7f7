//! Generated host code imports this crate's `mem` in place of the
//! multicore runtime's: every name that module exports must be here too,
//! and the imports of generated code must not clash.

#![allow(unused_imports)]

use fut_runtime_multicore::arr::*;
use fut_runtime_multicore::par;
use fut_runtime_multicore::scalar::*;
use fut_runtime_opencl::mem::*;

/// Uses each name as generated code does, so that an ambiguous or missing
/// name fails to compile.
#[test]
fn the_imports_of_generated_code_resolve() {
    let m: Mem<i64> = Mem::alloc(6, (0, 0, 0)).unwrap();
    let h = m.handle();
    par_for("t", 6, 1, move |lo, hi| {
        for i in lo..hi {
            h.atomic_add(i as i64, true, i as i64);
        }
        Ok(())
    })
    .unwrap();
    let mut idx = [0i64; 2];
    unflatten(5, &[2, 3], &mut idx);
    step(&mut idx, &[2, 3]);
    assert_eq!(idx, [0, 0]);
    assert_eq!(space(&[2, 3]), 6);
    assert_eq!(stride(&[2, 3], 0), 3);
    assert!(within(0, 1, 0, 3, 0, 3));
    assert!(reduce_chunks(10, 1, 4) >= 1);
    let f: Fail = assert_failed("{}", &[values::PrimValue::I64(1)], (0, 0, 0));
    assert_eq!(f.message, "1");
    fn atomic<T: AtomicElem>(_: &Mem<T>) {}
    fn atomic_int<T: AtomicInt>(_: &Mem<T>) {}
    atomic(&m);
    atomic_int(&m);
    let c = Mem::<i64>::alloc(6, (0, 0, 0)).unwrap();
    copy_view(&c, 0, &[6], &[1], &m, 0, &[6], &[1], (0, 0, 0)).unwrap();
    let a: Arr<i64> = mem_arr(c, &[6]).unwrap();
    assert_eq!(a.as_slice(), &[0, 1, 2, 3, 4, 5]);
    let (b, shape) = arr_mem(a, true);
    assert_eq!((b.get(5), shape), (5, vec![6]));
}
