//! values
