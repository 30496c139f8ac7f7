//! The Rust names and types of the imperative IR's variables, blocks and
//! functions in emitted code.

use ir::{PrimType, Span};

use crate::imp::{MemId, SVar};
use crate::scalar;

/// The Rust name of scalar variable `v`.
pub fn var(v: SVar) -> String {
    format!("v{}", v.0)
}

/// The Rust name of memory block handle `m`.
pub fn mem(m: MemId) -> String {
    format!("m{}", m.0)
}

/// The Rust name of the function of index `k` (`crate::signature::fun_name`'s `f{k}`
/// names the entry points' adapters).
pub fn fun(k: usize) -> String {
    format!("g{k}")
}

/// The Rust type of a block of `t`.
pub fn mem_type(t: PrimType) -> String {
    format!("Mem<{}>", scalar::rust_prim(t))
}

/// A span as a Rust tuple expression.
pub fn span_lit(s: Span) -> String {
    format!("({}u32, {}u32, {}u32)", s.file, s.start, s.end)
}

/// A Rust tuple of `items` (`()` when there are none).
pub fn tuple(items: &[String]) -> String {
    if items.is_empty() {
        "()".into()
    } else {
        format!("({},)", items.join(", "))
    }
}
