//! Automatic differentiation as passes on the core IR.
