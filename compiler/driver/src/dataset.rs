//! `fut dataset`: random values of given types, and conversion of values between the
//! text and binary formats.

use std::io::{Read, Write};

use values::{Bounds, PrimType, Reader, Rng, Value};

/// How to generate: the items given with `-g`, the seed, and the bounds.
#[derive(Clone, Debug)]
pub struct GenOptions {
    /// Types with sizes (`[100][3]f32`) or literal values (`[1,2,3]`, `3i64`).
    pub items: Vec<String>,
    /// The seed of the first item; item `i` uses `seed + i`.
    pub seed: u64,
    /// Bounds per element type.
    pub bounds: Bounds,
}

impl Default for GenOptions {
    fn default() -> Self {
        GenOptions {
            items: Vec::new(),
            seed: 1,
            bounds: Bounds::default(),
        }
    }
}

/// Sets the bounds of one element type from a `MIN:MAX` option value.
pub fn set_bounds(bounds: &mut Bounds, prim: PrimType, spec: &str) -> Result<(), String> {
    bounds.set_from_str(prim, spec).map_err(|e| e.to_string())
}

/// The values described by the `-g` items, in order.
pub fn generate(opts: &GenOptions) -> Result<Vec<Value>, String> {
    opts.items
        .iter()
        .enumerate()
        .map(|(i, item)| match values::parse_type_spec(item) {
            Ok(t) => {
                let mut rng = Rng::new(opts.seed.wrapping_add(i as u64));
                values::generate(&t, &opts.bounds, &mut rng).map_err(|e| format!("-g {item}: {e}"))
            }
            Err(type_err) => values::parse_value(item).map_err(|value_err| {
                format!(
                    "-g {item}: neither a type ({type_err}) nor a value ({})",
                    value_err.message
                )
            }),
        })
        .collect()
}

/// Writes values in the text format (one per line) or the binary format.
pub fn write_values(vals: &[Value], binary: bool, out: &mut dyn Write) -> Result<(), String> {
    crate::run::write_results(vals, binary, out).map_err(|e| format!("cannot write output: {e}"))
}

/// Reads every value on `input` (text and binary mixed) and writes it in the
/// requested format, one value at a time.
pub fn convert<R: Read>(input: R, binary: bool, out: &mut dyn Write) -> Result<usize, String> {
    let mut reader = Reader::new(input);
    let mut n = 0;
    loop {
        match reader.next_value() {
            Ok(Some(v)) => {
                write_values(std::slice::from_ref(&v), binary, out)?;
                n += 1;
            }
            Ok(None) => return Ok(n),
            Err(e) => return Err(format!("invalid input at {}: {}", e.position, e.message)),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn generates_types_and_values_deterministically() {
        let opts = GenOptions {
            items: vec!["[3][2]f32".into(), "[1,2]".into(), "7i64".into()],
            ..GenOptions::default()
        };
        let vs = generate(&opts).unwrap();
        assert_eq!(vs[0].shape(), &[3, 2]);
        assert_eq!(vs[0].prim_type(), PrimType::F32);
        assert_eq!(vs[1], Value::vector(vec![1i32, 2]));
        assert_eq!(vs[2], Value::scalar(7i64));
        assert_eq!(generate(&opts).unwrap(), vs);
        let other = GenOptions {
            seed: 2,
            ..opts.clone()
        };
        assert_ne!(generate(&other).unwrap()[0], vs[0]);
    }

    #[test]
    fn bounds_apply() {
        let mut opts = GenOptions {
            items: vec!["[100]i32".into()],
            ..GenOptions::default()
        };
        set_bounds(&mut opts.bounds, PrimType::I32, "-3:3").unwrap();
        let v = &generate(&opts).unwrap()[0];
        assert!(
            v.as_slice::<i32>()
                .unwrap()
                .iter()
                .all(|x| (-3..=3).contains(x))
        );
        assert!(set_bounds(&mut opts.bounds, PrimType::I32, "3").is_err());
    }

    #[test]
    fn bad_items_are_errors() {
        let opts = GenOptions {
            items: vec!["[x]f32".into()],
            ..GenOptions::default()
        };
        assert!(generate(&opts).unwrap_err().contains("[x]f32"));
    }

    #[test]
    fn converts_text_to_binary_and_back() {
        let mut bin = Vec::new();
        assert_eq!(
            convert("1 [2.5f32] true".as_bytes(), true, &mut bin).unwrap(),
            3
        );
        let mut text = Vec::new();
        convert(bin.as_slice(), false, &mut text).unwrap();
        assert_eq!(String::from_utf8(text).unwrap(), "1i32\n[2.5f32]\ntrue\n");
        let mut sink = Vec::new();
        assert!(convert("[1, ".as_bytes(), false, &mut sink).is_err());
    }
}
