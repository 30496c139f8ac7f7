//! Generated host code of a GPU backend imports its runtime's `mem` in
//! place of the multicore runtime's, and that module re-exports this
//! crate's: every name the multicore module exports must be here too.

/// Every public function, trait and type of the multicore runtime's `mem`
/// module is named by this crate's `mem` (defined or re-exported), which the GPU
/// runtimes' `mem` modules re-export.
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
    // What needs the backend (`reduce_chunks`: the device's thread count)
    // each GPU runtime's `mem` defines, with the `backend_mem!` macro.
    let macro_src = std::fs::read_to_string(dir.join("src/backend_mem.rs")).unwrap();
    let trimmed: String = macro_src
        .lines()
        .map(|l| format!("{}\n", l.trim_start()))
        .collect();
    for runtime in ["runtime-opencl", "runtime-cuda"] {
        let src = std::fs::read_to_string(dir.join("..").join(runtime).join("src/mem.rs"))
            .unwrap_or_default();
        assert!(
            src.contains("fut_runtime_gpu::backend_mem!("),
            "{runtime}'s mem module is not written by backend_mem!"
        );
    }
    have.extend(names(&trimmed));
    let missing: Vec<String> = names(&theirs)
        .into_iter()
        .filter(|n| !have.contains(n))
        .collect();
    assert!(missing.is_empty(), "not exported: {missing:?}");
}
