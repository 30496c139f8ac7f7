//! The sources of the crates generated programs depend on, embedded in the
//! compiler at build time (see `build.rs`): the multicore runtime
//! (`fut-runtime-multicore/...`), the GPU runtimes (`fut-runtime-gpu/...`,
//! shared by `fut-runtime-opencl/...` and `fut-runtime-cuda/...`), the
//! values crate (`values/...`), and the
//! workspace's `Cargo.toml` (for the versions of shared dependencies) and
//! `Cargo.lock` (so generated crates build with the same, already
//! downloaded, dependency versions, offline).

include!(concat!(env!("OUT_DIR"), "/runtime_sources.rs"));

/// The embedded file at `path`, if any.
pub fn file(path: &str) -> Option<&'static str> {
    FILES.iter().find(|(p, _)| *p == path).map(|(_, c)| *c)
}

#[cfg(test)]
mod tests {
    #[test]
    fn runtime_and_values_sources_are_embedded() {
        assert!(super::file("fut-runtime-multicore/src/lib.rs").is_some());
        assert!(super::file("values/src/lib.rs").is_some());
        for rt in ["gpu", "opencl", "cuda"] {
            assert!(super::file(&format!("fut-runtime-{rt}/src/lib.rs")).is_some());
            assert!(super::file(&format!("fut-runtime-{rt}/Cargo.toml")).is_some());
        }
        assert!(super::file("Cargo.lock").is_some_and(|l| l.contains("rayon")));
    }
}
