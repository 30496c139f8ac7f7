//! A tree-walking interpreter over the elaborated AST.
//!
//! It is the reference semantics of the language: `fut run` and `fut test -i` use it,
//! and later stages (IR interpreter, compiled backends, AD passes) are checked against it.

use std::collections::HashMap;
use syntax::{FileId, Span, ast};

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

/// The interpreter: holds the evaluated top-level environments of loaded files.
#[derive(Default)]
pub struct Interpreter {}

impl Interpreter {
    /// An interpreter with nothing loaded.
    pub fn new() -> Interpreter {
        Interpreter::default()
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
        let _ = (id, file, imports, prelude);
        Ok(())
    }

    /// Calls an entry point of a loaded file with argument values; a tuple result is
    /// returned as several values.
    pub fn call_entry(
        &mut self,
        file: FileId,
        entry: &str,
        args: Vec<values::Value>,
    ) -> Result<Vec<values::Value>, RuntimeError> {
        let _ = (file, args);
        Err(RuntimeError {
            message: format!("entry point {entry} not found"),
            span: None,
            backtrace: Vec::new(),
        })
    }
}
