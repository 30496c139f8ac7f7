//! The core IR.
