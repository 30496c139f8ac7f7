//! A tree-walking interpreter over the elaborated AST.
//!
//! It is the reference semantics of the language: `fut run` and `fut test -i` use it,
//! and later stages (IR interpreter, compiled backends, AD passes) are checked against it.
//!
//! Structure:
//! - [`scalar`]: primitive values and their arithmetic; [`ops`]: the same lifted over
//!   derivative tags with derivative rules; [`ad`]: the tags, tapes and levels;
//!   [`special`]: polygamma functions for the derivatives of `gamma`/`lgamma`.
//! - [`value`]: run-time values (regular arrays share storage and copy on write);
//!   [`slicing`]: indexing, slices, updates and ranges.
//! - [`env`]: environments and module values; [`eval`]: expressions and
//!   application; [`pattern`]: patterns; [`sizes`]: run-time size checks;
//!   [`modules`]: declarations, modules and functors.
//! - [`intrinsics`]: the natively implemented prelude functions; [`advalue`]:
//!   `jvp2`/`vjp2` and friends over whole values.
//! - [`convert`]: conversion to and from the values crate; [`hash`]: the hasher of
//!   the internal maps.

pub mod ad;
pub mod advalue;
pub mod convert;
pub mod env;
pub mod error;
pub mod eval;
pub mod hash;
pub mod intrinsics;
pub mod modules;
pub mod ops;
pub mod pattern;
pub mod scalar;
pub mod show;
pub mod sizes;
pub mod slicing;
pub mod special;
pub mod value;

use std::collections::HashMap;
use std::sync::Arc;

use syntax::{FileId, Span, ast};

use crate::value::{Closure, Value};

/// A run-time error: a message, where it happened, and the calls that led there.
#[derive(Clone, Debug, PartialEq)]
pub struct RuntimeError {
    /// What went wrong, e.g. `Index [3] out of bounds for array of shape [3].`
    pub message: String,
    /// The source location of the failing expression, if known.
    pub span: Option<Span>,
    /// Call sites from the innermost outwards.
    pub backtrace: Vec<Span>,
}

impl std::fmt::Display for RuntimeError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for RuntimeError {}

/// The interpreter: holds the evaluated top-level environments of loaded files.
#[derive(Default)]
pub struct Interpreter {
    inner: eval::Interp,
}

fn plain_error(message: String) -> RuntimeError {
    RuntimeError {
        message,
        span: None,
        backtrace: Vec::new(),
    }
}

impl Interpreter {
    /// An interpreter with nothing loaded.
    pub fn new() -> Interpreter {
        Interpreter::default()
    }

    /// Registers the source text of a file, so that failed assertions can quote the
    /// condition as written. Optional.
    pub fn set_source(&mut self, file: FileId, text: Arc<str>) {
        self.inner.sources.insert(file, text);
    }

    /// Evaluates the top-level declarations of an (elaborated) file. `imports` maps each
    /// import path as written in the file to the already loaded file it names;
    /// `prelude`, if given, is opened implicitly first.
    pub fn load_file(
        &mut self,
        id: FileId,
        file: &ast::File,
        imports: &HashMap<String, FileId>,
        prelude: Option<FileId>,
    ) -> Result<(), RuntimeError> {
        self.inner.imports = imports.clone();
        self.inner.load(id, file, prelude).map_err(|e| *e)
    }

    /// Calls an entry point of a loaded file with argument values; a tuple result is
    /// returned as several values.
    pub fn call_entry(
        &mut self,
        file: FileId,
        entry: &str,
        args: Vec<values::Value>,
    ) -> Result<Vec<values::Value>, RuntimeError> {
        let args: Vec<Value> = args
            .iter()
            .map(convert::to_internal)
            .collect::<Result<_, _>>()
            .map_err(plain_error)?;
        self.call_entry_internal(file, entry, args)?
            .into_iter()
            .map(|r| {
                r.data
                    .map_err(|m| plain_error(format!("cannot return the result of {entry}: {m}")))
            })
            .collect()
    }

    /// Calls an entry point on arguments in the interpreter's own representation
    /// (records, tuples and sums included, as opaque values are); a tuple result is
    /// returned as several [`EntryResult`]s.
    pub fn call_entry_internal(
        &mut self,
        file: FileId,
        entry: &str,
        args: Vec<Value>,
    ) -> Result<Vec<EntryResult>, RuntimeError> {
        let f = self
            .inner
            .files
            .get(&file)
            .and_then(|f| f.scope.latest_val(entry))
            .ok_or_else(|| plain_error(format!("entry point {entry} not found")))?;
        let ret = match &f {
            Value::Fun(c) => match &**c {
                Closure::User { def, .. } => def.ret.clone(),
                _ => None,
            },
            _ => None,
        };
        let span = Span::default();
        let result = if args.is_empty() {
            f
        } else {
            self.inner.apply(f, args, span).map_err(|e| {
                let mut e = *e;
                // The entry call itself has no source location.
                e.backtrace.retain(|s| *s != span);
                e
            })?
        };
        let ret_parts: Vec<Option<&ast::TypeExp>> = match ret.as_ref().map(|t| &t.kind) {
            Some(ast::TypeExpKind::Tuple(ts)) => ts.iter().map(Some).collect(),
            _ => vec![ret.as_ref()],
        };
        let parts = match result {
            Value::Tuple(vs) if ret_parts.len() == vs.len() || ret.is_none() => vs.to_vec(),
            v => vec![v],
        };
        Ok(parts
            .into_iter()
            .enumerate()
            .map(|(i, value)| {
                let hint = ret_parts.get(i).copied().flatten();
                let data = convert::from_internal(&value, hint);
                EntryResult { value, data }
            })
            .collect())
    }
}

/// One result of [`Interpreter::call_entry_internal`].
#[derive(Clone, Debug)]
pub struct EntryResult {
    /// The value in the interpreter's representation.
    pub value: Value,
    /// The value in the values crate's format, or why it has none (it is a record,
    /// tuple or sum, or an array of them).
    pub data: Result<values::Value, String>,
}
