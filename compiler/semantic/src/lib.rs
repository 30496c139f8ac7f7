//! semantic
