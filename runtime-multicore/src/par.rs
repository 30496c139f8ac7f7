//! Parallel building blocks for the segmented operations of generated code.
