//! Tuning parameters as the server sees them.
//!
//! The multicore backend has none. A backend that has some (the GPU
//! backends' group sizes and thread counts) installs its [`Tuning`] once,
//! before the server starts; the server's `tuning_params`,
//! `tuning_param_class` and `set_tuning_param` commands then list and set
//! them.

use std::sync::OnceLock;

/// A backend's tuning parameters.
pub trait Tuning: Sync {
    /// The parameters' names and classes, in the order they are listed.
    fn params(&self) -> Vec<(String, String)>;
    /// Sets parameter `name` to `value` (as text); the error says what is
    /// wrong with either.
    fn set(&self, name: &str, value: &str) -> Result<(), String>;
}

static TUNING: OnceLock<&'static dyn Tuning> = OnceLock::new();

/// Installs the program's tuning parameters; later calls have no effect.
pub fn install(t: &'static dyn Tuning) {
    let _ = TUNING.set(t);
}

/// The installed tuning parameters, if any.
pub fn installed() -> Option<&'static dyn Tuning> {
    TUNING.get().copied()
}
