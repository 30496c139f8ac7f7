//! Futhark's scalar semantics for generated code, where Rust's operators
//! differ. The operations are those of `values::scalar::native`, which the
//! interpreters use too; this module gives them the names generated code
//! calls, and the failing integer operations the message that [`at`]
//! (`crate::arr::at`) turns into a run-time error.
//!
//! [`at`]: crate::arr::at

pub use values::scalar::native::{Float, Int, float_to_int, fsignum, is_inf, is_nan, map1, map2};

/// The integer operations that can fail, with the message of their failure:
/// division and remainders rounding towards negative infinity (`fdiv`,
/// `fmod`) or zero (`fquot`, `frem`), and powers (`fpow`).
pub trait Checked: Int {
    /// [`Int::floor_div`].
    fn fdiv(self, b: Self) -> Result<Self, String>;
    /// [`Int::floor_mod`].
    fn fmod(self, b: Self) -> Result<Self, String>;
    /// [`Int::trunc_div`].
    fn fquot(self, b: Self) -> Result<Self, String>;
    /// [`Int::trunc_rem`].
    fn frem(self, b: Self) -> Result<Self, String>;
    /// [`Int::int_pow`].
    fn fpow(self, b: Self) -> Result<Self, String>;
}

impl<T: Int> Checked for T {
    #[inline]
    fn fdiv(self, b: Self) -> Result<Self, String> {
        self.floor_div(b).map_err(|e| e.to_string())
    }
    #[inline]
    fn fmod(self, b: Self) -> Result<Self, String> {
        self.floor_mod(b).map_err(|e| e.to_string())
    }
    #[inline]
    fn fquot(self, b: Self) -> Result<Self, String> {
        self.trunc_div(b).map_err(|e| e.to_string())
    }
    #[inline]
    fn frem(self, b: Self) -> Result<Self, String> {
        self.trunc_rem(b).map_err(|e| e.to_string())
    }
    #[inline]
    fn fpow(self, b: Self) -> Result<Self, String> {
        self.int_pow(b).map_err(|e| e.to_string())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn failures_carry_the_interpreters_messages() {
        assert_eq!((-7i32).fdiv(2), Ok(-4));
        assert_eq!(7i32.fmod(-2), Ok(-1));
        assert_eq!((-7i64).fquot(2), Ok(-3));
        assert_eq!((-7i8).frem(2), Ok(-1));
        assert_eq!(3u32.fpow(4), Ok(81));
        assert_eq!(1u64.fdiv(0), Err("Division by zero".to_string()));
        assert_eq!(
            (-1i32).fpow(-1),
            Err("Negative exponent in integer power".to_string())
        );
        assert_eq!((-8i32).fshr(40), -1);
        assert_eq!(map1(2.0f32, f64::sqrt), 2.0f32.sqrt());
    }
}
