//! The server protocol's command reader: lines of arbitrary bytes sent to a
//! server of a small program (its entries are the runtime's own test shapes),
//! each answered with output or a failure, never a panic. `store` and
//! `restore` are left out: they write and read files named by the input.
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

fuzz_target!(|data: &[u8]| {
    thread_local! {
        static CTX: Context = Context::new(Some(1), false).expect("a context");
    }
    let lines: Vec<u8> = data
        .split(|&b| b == b'\n')
        .filter(|l| {
            let w = l.trim_ascii_start();
            !(w.starts_with(b"store") || w.starts_with(b"restore"))
        })
        .flat_map(|l| l.iter().copied().chain([b'\n']))
        .collect();
    CTX.with(|ctx| {
        let mut out = Vec::new();
        let _ = Server::new(&PROGRAM, ctx).serve(lines.as_slice(), &mut out);
    });
});
