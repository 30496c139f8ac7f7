//! Lexer, parser and type checker on arbitrary bytes: loading a program must
//! give a tree and diagnostics, never panic, whatever the file holds.
//!
//! One database serves every input: each input replaces the text of the
//! same file (`Database::set_text`), so the prelude is checked once per
//! process rather than once per input. The checker runs, as `fut check`
//! runs it, on a thread with the compiler's stack size: one long-lived
//! worker thread, fed through a channel; a panic there ends it, and the
//! input that caused it fails here.
#![no_main]

use std::path::Path;
use std::sync::mpsc::{Receiver, SyncSender, sync_channel};
use std::sync::{Arc, Mutex, OnceLock};

use driver::{Database, MemorySystem, load_program};
use libfuzzer_sys::fuzz_target;

/// The worker's input and its answers.
type Worker = (SyncSender<Vec<u8>>, Receiver<()>);

fn worker() -> &'static Mutex<Worker> {
    static WORKER: OnceLock<Mutex<Worker>> = OnceLock::new();
    WORKER.get_or_init(|| {
        let (send_input, inputs) = sync_channel::<Vec<u8>>(0);
        let (send_done, done) = sync_channel::<()>(0);
        std::thread::Builder::new()
            .stack_size(driver::STACK_SIZE)
            .spawn(move || {
                let path = Path::new("/fuzz/main.fut");
                let mut db = Database::new(Arc::new(MemorySystem::new()));
                for data in inputs {
                    match String::from_utf8(data) {
                        Ok(text) => {
                            db.set_text(path, &text);
                            if let Ok(p) = load_program(&db, path) {
                                let _ = driver::render::diagnostics(
                                    &p.diagnostics,
                                    &db.sources(),
                                    false,
                                );
                            }
                        }
                        // Not UTF-8: read through a file system, as `fut check`
                        // reads it, which refuses it before any checking.
                        Err(e) => {
                            let fs = MemorySystem::with_files([(path, e.into_bytes())]);
                            let _ = load_program(&Database::new(Arc::new(fs)), path);
                        }
                    }
                    if send_done.send(()).is_err() {
                        return;
                    }
                }
            })
            .expect("a thread");
        Mutex::new((send_input, done))
    })
}

fuzz_target!(|data: &[u8]| {
    let w = worker().lock().unwrap_or_else(|e| e.into_inner());
    w.0.send(data.to_vec()).expect("the checker thread is alive");
    w.1.recv().expect("no panic in the checker");
});
