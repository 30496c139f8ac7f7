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

/// Every public function, trait and type of the multicore runtime's `mem`
/// module is named by this crate's `mem` (defined or re-exported).
#[test]
fn every_name_of_the_multicore_mem_module_is_exported() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
    let Ok(theirs) = std::fs::read_to_string(dir.join("../runtime-multicore/src/mem.rs")) else {
        println!("skipped: the multicore runtime's source is not beside this crate");
        return;
    };
    let ours = std::fs::read_to_string(dir.join("src/mem.rs")).unwrap();
    let kinds = [
        "pub fn ",
        "pub trait ",
        "pub struct ",
        "pub enum ",
        "pub type ",
    ];
    let names = |src: &str| -> Vec<String> {
        let mut out = Vec::new();
        for line in src.lines() {
            for kw in kinds {
                if let Some(rest) = line.strip_prefix(kw) {
                    out.push(
                        rest.chars()
                            .take_while(|c| c.is_alphanumeric() || *c == '_')
                            .collect(),
                    );
                }
            }
        }
        out
    };
    let mut have = names(&ours);
    let re = ours
        .split_once("pub use fut_runtime_multicore::mem::{")
        .and_then(|(_, r)| r.split_once('}'))
        .map(|(list, _)| list)
        .expect("the re-exports of the multicore mem module");
    have.extend(re.split(',').map(|n| n.trim().to_string()));
    let missing: Vec<String> = names(&theirs)
        .into_iter()
        .filter(|n| !have.contains(n))
        .collect();
    assert!(missing.is_empty(), "not exported: {missing:?}");
}
