//! Random values for `fut dataset` and `random input { [100]f32 }` test
//! blocks.
//!
//! - [`parse_type_spec`] reads a type with constant sizes: `i32`,
//!   `[10]bool`, `[100][3]f32` (whitespace between parts is allowed).
//! - [`Bounds`] holds an inclusive range per primitive type. The defaults are
//!   those of `futhark dataset`: the whole range of every integer type, and
//!   `0.0:1.0` for the float types. [`Bounds::set_from_str`] takes the
//!   `MIN:MAX` text of a `--T-bounds=MIN:MAX` option.
//! - [`generate`] fills a value of the given type with uniformly distributed
//!   elements in the bounds, drawn in row-major order from an [`Rng`].
//!   Integers are exactly uniform; floats are `lo + u * (hi - lo)` for a
//!   uniform `u` in `[0, 1)` with 53 random bits, rounded to the element type
//!   and clamped to the bounds; booleans are fair coin flips.
//!
//! [`Rng`] is a small deterministic generator (xoshiro256\*\*, seeded
//! through SplitMix64), defined here so that a seed gives the same data on
//! every platform and with every version of this crate's dependencies. The
//! numbers differ from those of Futhark's own `futhark dataset`, which uses
//! another generator. Like `futhark dataset`, a command line that generates
//! several values should give the i-th value the seed `seed + i` (the
//! default seed is 1); that is the caller's choice, not this module's.

use std::fmt;

use half::f16;

use crate::prim::PrimType;
use crate::value::{Data, Value, ValueType, shape_elements};

/// A deterministic pseudo-random generator (xoshiro256\*\*).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Rng {
    s: [u64; 4],
}

impl Rng {
    /// A generator whose whole output is determined by `seed`.
    pub fn new(seed: u64) -> Rng {
        // SplitMix64 spreads the seed over the state, which is then never
        // all zero.
        let mut x = seed;
        let mut next = || {
            x = x.wrapping_add(0x9e37_79b9_7f4a_7c15);
            let mut z = x;
            z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
            z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
            z ^ (z >> 31)
        };
        Rng {
            s: [next(), next(), next(), next()],
        }
    }

    /// The next 64 random bits.
    pub fn next_u64(&mut self) -> u64 {
        let s = &mut self.s;
        let result = s[1].wrapping_mul(5).rotate_left(7).wrapping_mul(9);
        let t = s[1] << 17;
        s[2] ^= s[0];
        s[3] ^= s[1];
        s[1] ^= s[2];
        s[0] ^= s[3];
        s[2] ^= t;
        s[3] = s[3].rotate_left(45);
        result
    }

    /// A uniform float in `[0, 1)`.
    pub fn next_f64(&mut self) -> f64 {
        (self.next_u64() >> 11) as f64 * (1.0 / (1u64 << 53) as f64)
    }

    /// A uniform integer in the inclusive range `lo..=hi` (the bounds are
    /// swapped if given in the wrong order). The range may span at most
    /// 2^64 values, which covers every Futhark integer type.
    pub fn int_in(&mut self, lo: i128, hi: i128) -> i128 {
        let (lo, hi) = if lo <= hi { (lo, hi) } else { (hi, lo) };
        let span = hi.abs_diff(lo);
        if span >= u128::from(u64::MAX) {
            return lo.saturating_add(i128::from(self.next_u64()));
        }
        // Lemire's multiply-and-reject method: exactly uniform.
        let range = span as u64 + 1;
        let threshold = range.wrapping_neg() % range;
        loop {
            let m = u128::from(self.next_u64()) * u128::from(range);
            if (m as u64) >= threshold {
                return lo.saturating_add((m >> 64) as i128);
            }
        }
    }

    /// A uniform float in the inclusive range `lo..=hi`.
    pub fn float_in(&mut self, lo: f64, hi: f64) -> f64 {
        let (lo, hi) = if lo <= hi { (lo, hi) } else { (hi, lo) };
        let u = self.next_f64();
        // This form cannot overflow even for bounds near ±f64::MAX.
        let x = lo * (1.0 - u) + hi * u;
        x.clamp(lo, hi)
    }
}

/// An error in a type specification or a bounds option.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SpecError(pub String);

impl fmt::Display for SpecError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for SpecError {}

/// Inclusive bounds on generated values, per primitive type.
#[derive(Clone, Debug, PartialEq)]
pub struct Bounds {
    /// Bounds for `i8`.
    pub i8: (i8, i8),
    /// Bounds for `i16`.
    pub i16: (i16, i16),
    /// Bounds for `i32`.
    pub i32: (i32, i32),
    /// Bounds for `i64`.
    pub i64: (i64, i64),
    /// Bounds for `u8`.
    pub u8: (u8, u8),
    /// Bounds for `u16`.
    pub u16: (u16, u16),
    /// Bounds for `u32`.
    pub u32: (u32, u32),
    /// Bounds for `u64`.
    pub u64: (u64, u64),
    /// Bounds for `f16`.
    pub f16: (f16, f16),
    /// Bounds for `f32`.
    pub f32: (f32, f32),
    /// Bounds for `f64`.
    pub f64: (f64, f64),
}

impl Default for Bounds {
    /// `futhark dataset`'s defaults: integers over their whole range,
    /// floats in `0.0..=1.0`.
    fn default() -> Self {
        Bounds {
            i8: (i8::MIN, i8::MAX),
            i16: (i16::MIN, i16::MAX),
            i32: (i32::MIN, i32::MAX),
            i64: (i64::MIN, i64::MAX),
            u8: (u8::MIN, u8::MAX),
            u16: (u16::MIN, u16::MAX),
            u32: (u32::MIN, u32::MAX),
            u64: (u64::MIN, u64::MAX),
            f16: (f16::ZERO, f16::ONE),
            f32: (0.0, 1.0),
            f64: (0.0, 1.0),
        }
    }
}

fn parse_bound<T: std::str::FromStr>(s: &str, t: PrimType, whole: &str) -> Result<T, SpecError> {
    s.trim().parse().map_err(|_| {
        SpecError(format!(
            "invalid bounds for {t}: `{whole}` (expected MIN:MAX)"
        ))
    })
}

impl Bounds {
    /// Sets the bounds of `t` from `MIN:MAX` text, as given to a
    /// `--T-bounds=MIN:MAX` option. `MIN` must not exceed `MAX`, and float
    /// bounds must be finite. `bool` has no bounds.
    pub fn set_from_str(&mut self, t: PrimType, spec: &str) -> Result<(), SpecError> {
        let (lo, hi) = spec.split_once(':').ok_or_else(|| {
            SpecError(format!(
                "invalid bounds for {t}: `{spec}` (expected MIN:MAX)"
            ))
        })?;
        let order = || {
            SpecError(format!(
                "invalid bounds for {t}: `{spec}` (MIN exceeds MAX)"
            ))
        };
        macro_rules! set_int {
            ($field:ident, $ty:ty) => {{
                let l: $ty = parse_bound(lo, t, spec)?;
                let h: $ty = parse_bound(hi, t, spec)?;
                if l > h {
                    return Err(order());
                }
                self.$field = (l, h);
            }};
        }
        macro_rules! check_float {
            ($l:expr, $h:expr) => {{
                if !($l.is_finite() && $h.is_finite()) {
                    return Err(SpecError(format!(
                        "invalid bounds for {t}: `{spec}` (bounds must be finite)"
                    )));
                }
                if $l > $h {
                    return Err(order());
                }
            }};
        }
        match t {
            PrimType::I8 => set_int!(i8, i8),
            PrimType::I16 => set_int!(i16, i16),
            PrimType::I32 => set_int!(i32, i32),
            PrimType::I64 => set_int!(i64, i64),
            PrimType::U8 => set_int!(u8, u8),
            PrimType::U16 => set_int!(u16, u16),
            PrimType::U32 => set_int!(u32, u32),
            PrimType::U64 => set_int!(u64, u64),
            PrimType::F16 => {
                let l: f32 = parse_bound(lo, t, spec)?;
                let h: f32 = parse_bound(hi, t, spec)?;
                let (l, h) = (f16::from_f32(l), f16::from_f32(h));
                check_float!(l, h);
                self.f16 = (l, h);
            }
            PrimType::F32 => {
                let l: f32 = parse_bound(lo, t, spec)?;
                let h: f32 = parse_bound(hi, t, spec)?;
                check_float!(l, h);
                self.f32 = (l, h);
            }
            PrimType::F64 => {
                let l: f64 = parse_bound(lo, t, spec)?;
                let h: f64 = parse_bound(hi, t, spec)?;
                check_float!(l, h);
                self.f64 = (l, h);
            }
            PrimType::Bool => {
                return Err(SpecError("bool values have no bounds".to_string()));
            }
        }
        Ok(())
    }
}

/// Parses a type with constant sizes, such as `[100][3]f32`, `i32` or
/// `[10]bool`.
pub fn parse_type_spec(text: &str) -> Result<ValueType, SpecError> {
    let err = |m: &str| SpecError(format!("invalid type `{}`: {m}", text.trim()));
    let mut rest = text.trim();
    let mut shape = Vec::new();
    while let Some(after) = rest.strip_prefix('[') {
        let (dim, tail) = after.split_once(']').ok_or_else(|| err("missing `]`"))?;
        let dim = dim.trim();
        if dim.is_empty() {
            return Err(err("array sizes must be given, e.g. [10]f32"));
        }
        if !dim.bytes().all(|b| b.is_ascii_digit() || b == b'_')
            || !dim.bytes().any(|b| b.is_ascii_digit())
        {
            return Err(err(&format!("`{dim}` is not a size")));
        }
        let digits: String = dim.chars().filter(|&c| c != '_').collect();
        let n: usize = digits
            .parse()
            .map_err(|_| err(&format!("size {dim} is too large")))?;
        shape.push(n);
        if shape.len() > crate::text_parse::MAX_RANK {
            return Err(err("too many dimensions"));
        }
        rest = tail.trim_start();
    }
    let prim = PrimType::from_name(rest.trim())
        .ok_or_else(|| err(&format!("unknown element type `{}`", rest.trim())))?;
    if shape_elements(&shape)
        .and_then(|n| n.checked_mul(prim.byte_size()))
        .is_none()
    {
        return Err(err("too many elements"));
    }
    Ok(ValueType { shape, prim })
}

/// A random value of type `spec`, with elements within `bounds`; an error
/// naming the size when the memory for its elements cannot be allocated.
pub fn generate(spec: &ValueType, bounds: &Bounds, rng: &mut Rng) -> Result<Value, String> {
    let n = shape_elements(&spec.shape).unwrap_or(0);
    let shape = if shape_elements(&spec.shape).is_some() {
        spec.shape.clone()
    } else {
        // Unreachable through `parse_type_spec`; an impossible shape gets no
        // elements rather than a panic.
        vec![0]
    };
    macro_rules! ints {
        ($v:ident, $ty:ty, $b:expr) => {{
            let (lo, hi) = (i128::from($b.0), i128::from($b.1));
            Data::$v(fill(n, spec, || {
                <$ty>::try_from(rng.int_in(lo, hi)).unwrap_or($b.0)
            })?)
        }};
    }
    let data = match spec.prim {
        PrimType::I8 => ints!(I8, i8, bounds.i8),
        PrimType::I16 => ints!(I16, i16, bounds.i16),
        PrimType::I32 => ints!(I32, i32, bounds.i32),
        PrimType::I64 => ints!(I64, i64, bounds.i64),
        PrimType::U8 => ints!(U8, u8, bounds.u8),
        PrimType::U16 => ints!(U16, u16, bounds.u16),
        PrimType::U32 => ints!(U32, u32, bounds.u32),
        PrimType::U64 => ints!(U64, u64, bounds.u64),
        PrimType::F16 => {
            let (lo, hi) = bounds.f16;
            Data::F16(fill(n, spec, || {
                let x = f16::from_f64(rng.float_in(lo.to_f64(), hi.to_f64()));
                x.clamp(lo.min(hi), hi.max(lo))
            })?)
        }
        PrimType::F32 => {
            let (lo, hi) = bounds.f32;
            Data::F32(fill(n, spec, || {
                let x = rng.float_in(f64::from(lo), f64::from(hi)) as f32;
                x.clamp(lo.min(hi), hi.max(lo))
            })?)
        }
        PrimType::F64 => {
            let (lo, hi) = bounds.f64;
            Data::F64(fill(n, spec, || rng.float_in(lo, hi))?)
        }
        PrimType::Bool => Data::Bool(fill(n, spec, || rng.next_u64() >> 63 == 1)?),
    };
    Ok(Value::new(shape, data).unwrap_or_else(|_| Value::scalar(false)))
}

/// `n` values of `next`, in a vector allocated fallibly: a size the memory
/// cannot hold is an error naming it, not an abort.
fn fill<T>(n: usize, spec: &ValueType, mut next: impl FnMut() -> T) -> Result<Vec<T>, String> {
    let mut v = Vec::new();
    v.try_reserve_exact(n).map_err(|_| {
        format!(
            "cannot allocate the {} bytes of a random {spec}",
            n as u128 * std::mem::size_of::<T>() as u128
        )
    })?;
    v.extend((0..n).map(|_| next()));
    Ok(v)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn type_specs() {
        let t = parse_type_spec("[100][3]f32").unwrap();
        assert_eq!(t.shape, vec![100, 3]);
        assert_eq!(t.prim, PrimType::F32);
        assert_eq!(
            parse_type_spec("i32").unwrap(),
            ValueType::scalar(PrimType::I32)
        );
        assert_eq!(
            parse_type_spec(" [10] bool ").unwrap().to_string(),
            "[10]bool"
        );
        assert_eq!(parse_type_spec("[1_000]u8").unwrap().shape, vec![1000]);
        assert_eq!(parse_type_spec("[0][5]f64").unwrap().shape, vec![0, 5]);
        for bad in [
            "[]f32", "[10]f33", "[10", "[-1]i32", "[x]i32", "", "[10][20]", "f32 x",
        ] {
            assert!(parse_type_spec(bad).is_err(), "{bad} should be rejected");
        }
        let big = format!("[{}][{}]f64", usize::MAX, 2);
        assert!(parse_type_spec(&big).is_err());
    }

    #[test]
    fn too_large_for_memory_is_an_error() {
        // 8 TiB: more than any test machine's memory and swap.
        let t = parse_type_spec("[1099511627776]f64").unwrap();
        let e = generate(&t, &Bounds::default(), &mut Rng::new(1)).unwrap_err();
        assert!(e.contains("8796093022208 bytes"), "{e}");
    }

    #[test]
    fn deterministic_per_seed() {
        let t = parse_type_spec("[50][2]f64").unwrap();
        let b = Bounds::default();
        let x = generate(&t, &b, &mut Rng::new(1)).unwrap();
        let y = generate(&t, &b, &mut Rng::new(1)).unwrap();
        let z = generate(&t, &b, &mut Rng::new(2)).unwrap();
        assert_eq!(x, y);
        assert_ne!(x, z);
        assert_eq!(x.shape(), &[50, 2]);
        // The generator's output is fixed forever for a given seed.
        let mut r = Rng::new(0);
        let first: Vec<u64> = (0..2).map(|_| r.next_u64()).collect();
        let mut r2 = Rng::new(0);
        assert_eq!(first, vec![r2.next_u64(), r2.next_u64()]);
        assert_ne!(first[0], first[1]);
    }

    #[test]
    fn default_bounds() {
        let b = Bounds::default();
        let v = generate(&parse_type_spec("[1000]f32").unwrap(), &b, &mut Rng::new(7)).unwrap();
        let xs = v.as_slice::<f32>().unwrap();
        assert!(xs.iter().all(|&x| (0.0..=1.0).contains(&x)));
        let mean: f32 = xs.iter().sum::<f32>() / 1000.0;
        assert!((0.4..0.6).contains(&mean), "mean {mean}");
        let v = generate(&parse_type_spec("[1000]i8").unwrap(), &b, &mut Rng::new(7)).unwrap();
        let xs = v.as_slice::<i8>().unwrap();
        assert!(xs.iter().any(|&x| x < -64) && xs.iter().any(|&x| x > 64));
        let v = generate(
            &parse_type_spec("[1000]bool").unwrap(),
            &b,
            &mut Rng::new(7),
        )
        .unwrap();
        let trues = v.as_slice::<bool>().unwrap().iter().filter(|&&x| x).count();
        assert!((400..600).contains(&trues), "{trues}");
    }

    #[test]
    fn custom_bounds() {
        let mut b = Bounds::default();
        b.set_from_str(PrimType::I32, "-3:3").unwrap();
        b.set_from_str(PrimType::F64, "10:10.5").unwrap();
        b.set_from_str(PrimType::U64, "18446744073709551610:18446744073709551615")
            .unwrap();
        b.set_from_str(PrimType::F16, "-2:-1").unwrap();
        let mut rng = Rng::new(3);
        let v = generate(&parse_type_spec("[500]i32").unwrap(), &b, &mut rng).unwrap();
        let xs = v.as_slice::<i32>().unwrap();
        assert!(xs.iter().all(|x| (-3..=3).contains(x)));
        for k in -3..=3 {
            assert!(xs.contains(&k), "{k} never generated");
        }
        let v = generate(&parse_type_spec("[500]f64").unwrap(), &b, &mut rng).unwrap();
        assert!(
            v.as_slice::<f64>()
                .unwrap()
                .iter()
                .all(|x| (10.0..=10.5).contains(x))
        );
        let v = generate(&parse_type_spec("[100]u64").unwrap(), &b, &mut rng).unwrap();
        assert!(
            v.as_slice::<u64>()
                .unwrap()
                .iter()
                .all(|&x| x >= u64::MAX - 5)
        );
        let v = generate(&parse_type_spec("[100]f16").unwrap(), &b, &mut rng).unwrap();
        assert!(
            v.as_slice::<f16>()
                .unwrap()
                .iter()
                .all(|x| (-2.0..=-1.0).contains(&x.to_f32()))
        );
        let v = generate(&parse_type_spec("i64").unwrap(), &b, &mut rng).unwrap();
        assert!(v.is_scalar());
    }

    #[test]
    fn bad_bounds() {
        let mut b = Bounds::default();
        assert!(b.set_from_str(PrimType::I32, "3:-3").is_err());
        assert!(b.set_from_str(PrimType::U8, "0:256").is_err());
        assert!(b.set_from_str(PrimType::F32, "0").is_err());
        assert!(b.set_from_str(PrimType::F32, "0:inf").is_err());
        assert!(b.set_from_str(PrimType::F64, "nan:1").is_err());
        assert!(b.set_from_str(PrimType::Bool, "0:1").is_err());
        assert_eq!(b, Bounds::default());
    }

    #[test]
    fn extreme_float_bounds_stay_finite() {
        let mut b = Bounds::default();
        b.set_from_str(PrimType::F64, &format!("{}:{}", -f64::MAX, f64::MAX))
            .unwrap();
        let v = generate(&parse_type_spec("[100]f64").unwrap(), &b, &mut Rng::new(1)).unwrap();
        assert!(v.as_slice::<f64>().unwrap().iter().all(|x| x.is_finite()));
    }
}
