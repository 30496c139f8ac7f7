//! The server protocol's command reader: lines of arbitrary bytes sent to a
//! server of a small program (its entries are the runtime's own test shapes),
//! each answered with output or a failure, never a panic. `store` and
//! `restore` are left out: they write and read files named by the input.
//! The server splits words at Unicode whitespace (`\x1c`–`\x1f` among it),
//! so lines are filtered by their first word as it reads them, and the
//! target runs in a scratch folder of its own in case a command does write.
#![no_main]

use fut_runtime_multicore::context::Context;
use fut_runtime_multicore::entry::{EntryPoint, ExtType, Program, TypeDesc};
use fut_runtime_multicore::server::Server;
use libfuzzer_sys::fuzz_target;
use values::{PrimType, Value};

const F64: TypeDesc = TypeDesc {
    rank: 0,
    elem: PrimType::F64,
    unique: false,
};
const VEC: TypeDesc = TypeDesc {
    rank: 1,
    elem: PrimType::I64,
    unique: false,
};

fn sum(_: &Context, args: Vec<Value>) -> Result<Vec<Value>, fut_runtime_multicore::entry::Error> {
    let x: f64 = args[0].data().get(0).and_then(|p| p.as_f64()).unwrap_or(0.0);
    Ok(vec![Value::scalar(x + 1.0), args[1].clone()])
}

static PROGRAM: Program = Program {
    name: "fuzz",
    entries: &[EntryPoint {
        name: "main",
        params: &[ExtType::Value(F64), ExtType::Value(VEC)],
        results: &[ExtType::Value(F64), ExtType::Value(VEC)],
        run: sum,
    }],
};

/// Whether `line`'s first word (as the server splits words) is `store` or
/// `restore`.
fn writes_files(line: &[u8]) -> bool {
    let text = String::from_utf8_lossy(line);
    let first = text.split(char::is_whitespace).find(|w| !w.is_empty());
    matches!(first, Some(w) if w.starts_with("store") || w.starts_with("restore"))
}

fuzz_target!(|data: &[u8]| {
    static SCRATCH: std::sync::OnceLock<std::path::PathBuf> = std::sync::OnceLock::new();
    SCRATCH.get_or_init(|| {
        let dir = std::env::temp_dir().join(format!("fut-fuzz-server-{}", std::process::id()));
        std::fs::create_dir_all(&dir).expect("a scratch folder");
        std::env::set_current_dir(&dir).expect("into the scratch folder");
        dir
    });
    thread_local! {
        static CTX: Context = Context::new(Some(1), false).expect("a context");
    }
    let lines: Vec<u8> = data
        .split(|&b| b == b'\n')
        .filter(|l| !writes_files(l))
        .flat_map(|l| l.iter().copied().chain([b'\n']))
        .collect();
    CTX.with(|ctx| {
        let mut out = Vec::new();
        let _ = Server::new(&PROGRAM, ctx).serve(lines.as_slice(), &mut out);
    });
});
