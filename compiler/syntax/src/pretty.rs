//! Pretty-printing the AST back to source.
use crate::ast::*;

/// Prints a whole file.
pub fn pretty(_file: &File) -> String {
    String::new()
}

/// Prints an expression.
pub fn pretty_expr(_e: &Expr) -> String {
    String::new()
}

/// Prints a type expression.
pub fn pretty_type(_t: &TypeExp) -> String {
    String::new()
}
