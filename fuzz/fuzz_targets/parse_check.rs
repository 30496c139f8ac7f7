//! Lexer, parser and type checker on arbitrary bytes: loading a program must
//! give a tree and diagnostics, never panic, whatever the file holds.
#![no_main]

use std::sync::Arc;

use driver::{Database, MemorySystem, load_program};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let data = data.to_vec();
    // As `fut check` does: on a thread with the compiler's stack size.
    std::thread::Builder::new()
        .stack_size(driver::STACK_SIZE)
        .spawn(move || {
            let fs = MemorySystem::with_files([("/fuzz/main.fut", data)]);
            let db = Database::new(Arc::new(fs));
            if let Ok(p) = load_program(&db, std::path::Path::new("/fuzz/main.fut")) {
                let _ = driver::render::diagnostics(&p.diagnostics, &db.sources(), false);
            }
        })
        .expect("a thread")
        .join()
        .expect("no panic");
});
