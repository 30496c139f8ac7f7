//! Cross-module tests: text and binary round trips for every type and rank,
//! mixed text/binary streams, typed reading, malformed input, and a
//! pseudo-random check that no input makes the reader panic.

use half::f16;

use crate::{
    Data, PrimType, PrimValue, RankedType, ReadErrorKind, Reader, Rng, Value, parse_value,
    parse_value_as, read_typed_values, read_values, to_binary,
};

/// A value of type `t` and the given shape with varied elements, including
/// extremes, negative numbers, fractions and non-finite floats.
fn sample(t: PrimType, shape: Vec<usize>) -> Value {
    let n: usize = shape.iter().product();
    let mut data = Data::with_capacity(t, n);
    for i in 0..n {
        let x = match t {
            PrimType::Bool => PrimValue::Bool(i % 2 == 1),
            PrimType::F16 | PrimType::F32 | PrimType::F64 => {
                let specials = [f64::NAN, f64::INFINITY, f64::NEG_INFINITY, -0.0, 1e-7, 0.1];
                let x = match specials.get(i) {
                    Some(&s) => s,
                    None => (i as f64 - 7.0) / 3.0,
                };
                PrimValue::float_of_type(t, x).unwrap()
            }
            _ => {
                let (lo, hi) = t.integer_range().unwrap();
                let x = match i % 4 {
                    0 => lo,
                    1 => hi,
                    2 => (i as i128) % 100,
                    _ => lo.max(-(i as i128)),
                };
                PrimValue::int_of_type(t, x).unwrap()
            }
        };
        assert!(data.push(x));
    }
    Value::new(shape, data).unwrap()
}

/// Equality that treats NaN as equal to NaN, via the binary encoding.
fn same(a: &Value, b: &Value) -> bool {
    to_binary(a).unwrap() == to_binary(b).unwrap()
}

fn shapes() -> Vec<Vec<usize>> {
    vec![
        vec![],
        vec![7],
        vec![1],
        vec![3, 4],
        vec![2, 3, 2],
        vec![0],
        vec![0, 3],
        vec![3, 0],
        vec![2, 0, 4],
    ]
}

#[test]
fn text_round_trip_every_type_and_rank() {
    for t in PrimType::ALL {
        for shape in shapes() {
            let v = sample(t, shape.clone());
            let text = v.to_string();
            let back = parse_value(&text).unwrap_or_else(|e| panic!("{text}: {e}"));
            assert!(same(&back, &v), "{t} {shape:?}: {text} read back as {back}");
            assert_eq!(back.to_string(), text);
            // Reading with the expected type gives the same value.
            let typed = parse_value_as(&text, &v.value_type().ranked()).unwrap();
            assert!(same(&typed, &v));
        }
    }
}

#[test]
fn binary_round_trip_every_type_and_rank() {
    for t in PrimType::ALL {
        for shape in shapes() {
            let v = sample(t, shape.clone());
            let bytes = to_binary(&v).unwrap();
            let back = read_values(&bytes).unwrap();
            assert_eq!(back.len(), 1);
            assert_eq!(to_binary(&back[0]).unwrap(), bytes, "{t} {shape:?}");
        }
    }
}

#[test]
fn floats_round_trip_exactly_through_text() {
    let mut rng = Rng::new(42);
    for _ in 0..2000 {
        let bits = rng.next_u64();
        let x64 = f64::from_bits(bits);
        let x32 = f32::from_bits(bits as u32);
        let x16 = f16::from_bits(bits as u16);
        for v in [Value::scalar(x64), Value::scalar(x32), Value::scalar(x16)] {
            let back = parse_value(&v.to_string()).unwrap();
            let x = v.as_scalar().and_then(|x| x.as_f64()).unwrap();
            if x.is_nan() {
                // NaN payloads are not kept by the text format.
                let y = back.as_scalar().and_then(|y| y.as_f64()).unwrap();
                assert!(y.is_nan() && back.prim_type() == v.prim_type());
            } else {
                assert!(same(&back, &v), "{v} read back as {back}");
            }
        }
    }
}

#[test]
fn unsuffixed_defaults() {
    assert_eq!(parse_value("1").unwrap(), Value::scalar(1i32));
    assert_eq!(parse_value("-2.5").unwrap(), Value::scalar(-2.5f64));
    assert_eq!(parse_value("1e3").unwrap(), Value::scalar(1000.0f64));
    assert_eq!(parse_value("[1, 2]").unwrap(), Value::vector(vec![1i32, 2]));
    assert_eq!(
        parse_value("[1, 2.5]").unwrap(),
        Value::vector(vec![1.0f64, 2.5])
    );
    // The first stated type decides; unsuffixed numbers follow it.
    assert_eq!(
        parse_value("[1, 2u8]").unwrap(),
        Value::vector(vec![1u8, 2])
    );
    assert_eq!(
        parse_value("[1.5f32, 2]").unwrap(),
        Value::vector(vec![1.5f32, 2.0])
    );
    assert_eq!(parse_value("0xff").unwrap(), Value::scalar(255i32));
    assert_eq!(parse_value("-0b101i8").unwrap(), Value::scalar(-5i8));
    assert_eq!(parse_value("1_000u16").unwrap(), Value::scalar(1000u16));
    assert_eq!(parse_value("true").unwrap(), Value::scalar(true));
    assert_eq!(
        parse_value("[true, false,]").unwrap(),
        Value::vector(vec![true, false])
    );
}

#[test]
fn special_floats() {
    let v = parse_value("[f32.nan, f32.inf, -f32.inf]").unwrap();
    let xs = v.as_slice::<f32>().unwrap();
    assert!(xs[0].is_nan());
    assert_eq!(xs[1], f32::INFINITY);
    assert_eq!(xs[2], f32::NEG_INFINITY);
    assert_eq!(
        parse_value("-f64.inf").unwrap(),
        Value::scalar(f64::NEG_INFINITY)
    );
    assert!(parse_value("-f64.nan").is_err());
    assert!(parse_value("f64.foo").is_err());
    assert!(parse_value("i32.inf").is_err());
}

#[test]
fn expected_types_accept_unsuffixed_literals() {
    let f32s = RankedType::new(1, PrimType::F32);
    assert_eq!(
        parse_value_as("[1, 2.5, -3]", &f32s).unwrap(),
        Value::vector(vec![1.0f32, 2.5, -3.0])
    );
    let u8s = RankedType::new(2, PrimType::U8);
    assert_eq!(
        parse_value_as("[[1, 2], [3, 255]]", &u8s).unwrap(),
        Value::array(vec![2, 2], vec![1u8, 2, 3, 255]).unwrap()
    );
    let b = RankedType::new(0, PrimType::Bool);
    assert_eq!(parse_value_as("false", &b).unwrap(), Value::scalar(false));
    let h = RankedType::new(0, PrimType::F16);
    assert_eq!(
        parse_value_as("0.5", &h).unwrap(),
        Value::scalar(f16::from_f32(0.5))
    );
    // With a type, arrays without elements are fine.
    let i64s = RankedType::new(2, PrimType::I64);
    assert_eq!(
        parse_value_as("[[], []]", &i64s).unwrap(),
        Value::empty(PrimType::I64, vec![2, 0]).unwrap()
    );
    assert_eq!(
        parse_value_as("[]", &i64s).unwrap(),
        Value::empty(PrimType::I64, vec![0, 0]).unwrap()
    );
}

#[test]
fn expected_type_errors() {
    let f32s = RankedType::new(1, PrimType::F32);
    let e = parse_value_as("[1i32, 2]", &f32s).unwrap_err();
    assert_eq!(e.kind, ReadErrorKind::TypeMismatch);
    assert_eq!(e.message, "expected a value of type []f32, found 1i32");
    assert_eq!(
        e.to_string(),
        "1:2: expected a value of type []f32, found 1i32"
    );
    let e = parse_value_as("[[1.0]]", &f32s).unwrap_err();
    assert_eq!(
        e.message,
        "expected a value of type []f32, found a value of type [1][1]f32"
    );
    let e = parse_value_as("2.5", &RankedType::new(0, PrimType::I32)).unwrap_err();
    assert_eq!(e.message, "expected a value of type i32, found 2.5");
    let v = parse_value_as("300", &RankedType::new(0, PrimType::U8)).unwrap();
    assert_eq!(v.to_string(), "44u8");
    let v = parse_value_as("[255, 32767i8, -128]", &RankedType::new(1, PrimType::I8)).unwrap();
    assert_eq!(v.to_string(), "[-1i8, -1i8, -128i8]");
    let v = parse_value_as("-1", &RankedType::new(0, PrimType::U32)).unwrap();
    assert_eq!(v.to_string(), "4294967295u32");
    let v = parse_value_as(
        "[-271733879u32, 0xffffffffu32]",
        &RankedType::new(1, PrimType::U32),
    );
    assert_eq!(v.unwrap().to_string(), "[4023233417u32, 4294967295u32]");
    let v = parse_value_as(
        "[0x1.8p1f64, -0xf.fp-2f64]",
        &RankedType::new(1, PrimType::F64),
    );
    assert_eq!(v.unwrap().to_string(), "[3.0f64, -3.984375f64]");
    let e = parse_value_as("empty([0]i32)", &f32s).unwrap_err();
    assert_eq!(e.kind, ReadErrorKind::TypeMismatch);
    let e = parse_value_as("true", &RankedType::new(0, PrimType::I32)).unwrap_err();
    assert_eq!(e.message, "expected a value of type i32, found true");
    let e = parse_value_as("", &f32s).unwrap_err();
    assert_eq!(e.kind, ReadErrorKind::UnexpectedEof);
    assert_eq!(
        e.message,
        "unexpected end of input, expected a value of type []f32"
    );
}

#[test]
fn empty_syntax() {
    let v = parse_value("empty([0]i32)").unwrap();
    assert_eq!(v, Value::empty(PrimType::I32, vec![0]).unwrap());
    let v = parse_value("empty( [2] [0] f64 )").unwrap();
    assert_eq!(v.value_type().to_string(), "[2][0]f64");
    let v = parse_value("[empty([0]bool), empty([0]bool)]").unwrap();
    assert_eq!(v.value_type().to_string(), "[2][0]bool");
    assert!(parse_value("empty([1]i32)").is_err());
    assert!(parse_value("empty(i32)").is_err());
    assert!(parse_value("empty([0]i33)").is_err());
    assert!(parse_value("empty([0]i32").is_err());
    assert!(parse_value("[empty([0]i32), empty([0]f32)]").is_err());
    assert!(parse_value("[]").is_err());
    assert!(parse_value("[[], []]").is_err());
}

#[test]
fn strings_are_byte_arrays() {
    assert_eq!(
        parse_value("\"hi\"").unwrap(),
        Value::vector(vec![b'h', b'i'])
    );
    assert_eq!(
        parse_value("[\"ab\", \"c\\n\"]").unwrap(),
        Value::array(vec![2, 2], vec![b'a', b'b', b'c', b'\n']).unwrap()
    );
    assert_eq!(
        parse_value("\"\"").unwrap(),
        Value::empty(PrimType::U8, vec![0]).unwrap()
    );
    assert!(parse_value("\"abc").is_err());
    assert!(parse_value("[\"ab\", \"c\"]").is_err());
}

#[test]
fn comments_and_whitespace() {
    let vs = read_values(b"-- header\n 1 -- one\n\t[ 2 ,\n 3 ] --end").unwrap();
    assert_eq!(vs, vec![Value::scalar(1i32), Value::vector(vec![2i32, 3])]);
    let vs = read_values(b"[1,--c\n-2]").unwrap();
    assert_eq!(vs, vec![Value::vector(vec![1i32, -2])]);
    assert_eq!(read_values(b"  -- nothing\n").unwrap(), vec![]);
}

#[test]
fn mixed_text_and_binary_stream() {
    let a = Value::vector(vec![1.5f32, 2.5]);
    let b = Value::scalar(7i64);
    let c = Value::array(vec![2, 1], vec![true, false]).unwrap();
    let mut stream = b"-- args\n".to_vec();
    stream.extend(to_binary(&a).unwrap());
    stream.extend(b"\n 42u8 [1, 2]\n");
    stream.extend(to_binary(&b).unwrap());
    stream.extend(to_binary(&c).unwrap());
    stream.extend(b" -- done\n empty([0]f16)");
    let vs = read_values(&stream).unwrap();
    assert_eq!(
        vs,
        vec![
            a.clone(),
            Value::scalar(42u8),
            Value::vector(vec![1i32, 2]),
            b,
            c,
            Value::empty(PrimType::F16, vec![0]).unwrap()
        ]
    );
    // Typed reading of the same kind of stream.
    let mut stream = to_binary(&a).unwrap();
    stream.extend(b" 3 ");
    let types = [
        RankedType::new(1, PrimType::F32),
        RankedType::new(0, PrimType::I64),
    ];
    let vs = read_typed_values(&stream, &types).unwrap();
    assert_eq!(vs, vec![a, Value::scalar(3i64)]);
    assert!(read_typed_values(b"1 2", &types[1..]).is_err());
}

#[test]
fn reader_streams_one_value_at_a_time() {
    let mut r = Reader::new(&b"1 2i64 [3]"[..]);
    assert_eq!(r.next_value().unwrap(), Some(Value::scalar(1i32)));
    assert!(!r.at_end().unwrap());
    assert_eq!(
        r.read_value(&RankedType::new(0, PrimType::I64)).unwrap(),
        Value::scalar(2i64)
    );
    assert_eq!(r.next_value().unwrap(), Some(Value::vector(vec![3i32])));
    assert!(r.at_end().unwrap());
    assert_eq!(r.next_value().unwrap(), None);
    // The iterator stops after the first error.
    let items: Vec<_> = Reader::new(&b"1 ] 2"[..]).collect();
    assert_eq!(items.len(), 2);
    assert!(items[1].is_err());
}

#[test]
fn malformed_text() {
    let cases: &[(&str, &str)] = &[
        ("[[1, 2], [3]]", "ragged array"),
        ("[[1, 2], 3]", "ragged array"),
        ("[1, [2]]", "ragged array"),
        ("[[1], []]", "ragged array"),
        ("1i33", "invalid suffix `i33`"),
        ("2.5i32", "cannot have suffix i32"),
        ("0x1.8", "malformed numeric literal `0x1.8`"),
        ("[1i32, 2i64]", "array elements have different types"),
        ("[true, 1]", "integer literal 1 cannot be a bool"),
        ("[1, true]", "cannot be a"),
        ("[1 2]", "expected `,` or `]`, found `2`"),
        ("[1,", "unexpected end of input"),
        ("]", "expected a value, found `]`"),
        ("foo", "unexpected `foo`"),
        ("-", "unexpected end of input"),
        ("- 1", "expected a number after the sign"),
        ("1 2", "unexpected input after the last value"),
        ("", "unexpected end of input"),
        ("99999999999999999999999999999999999999999", "too large"),
    ];
    for (input, want) in cases {
        match parse_value(input) {
            Ok(v) => panic!("{input:?} was accepted as {v}"),
            Err(e) => assert!(
                e.message.contains(want),
                "{input:?}: got {e}, wanted {want}"
            ),
        }
    }
}

#[test]
fn error_positions() {
    let e = parse_value("[1,\n  2,\n  x]").unwrap_err();
    assert_eq!(e.position.to_string(), "3:3");
    let e = parse_value("[[1, 2],\n [3]]").unwrap_err();
    assert_eq!(e.position.to_string(), "2:2");
    let mut bytes = b"  ".to_vec();
    bytes.extend(b"b\x02\x00 i3x");
    let e = read_values(&bytes).unwrap_err();
    assert_eq!(e.position.to_string(), "byte 5");
    assert!(e.message.contains("unknown binary type tag"));
}

#[test]
fn deep_nesting_is_an_error_not_a_crash() {
    let deep = "[".repeat(100_000);
    let e = parse_value(&deep).unwrap_err();
    assert!(e.message.contains("nesting"), "{e}");
    let ok = format!("{}1{}", "[".repeat(255), "]".repeat(255));
    assert_eq!(parse_value(&ok).unwrap().rank(), 255);
    let over = format!("{}1{}", "[".repeat(256), "]".repeat(256));
    assert!(parse_value(&over).is_err());
}

#[test]
fn reader_never_panics_on_random_bytes() {
    // Fragments that make random inputs more likely to get deep into the
    // parsers than uniformly random bytes would.
    let fragments: &[&[u8]] = &[
        b"[",
        b"]",
        b",",
        b" ",
        b"\n",
        b"-- c\n",
        b"-",
        b"1",
        b"0x",
        b"0b",
        b"2.5",
        b"e",
        b"e-",
        b"i8",
        b"u64",
        b"f16",
        b"f32",
        b"f64",
        b".",
        b"true",
        b"false",
        b"empty(",
        b")",
        b"[0]",
        b"f32.nan",
        b"-f64.inf",
        b"\"",
        b"\\",
        b"b",
        b"\x02",
        b"\x00",
        b"\x01",
        b" i32",
        b"bool",
        b"\xff",
        b"_",
    ];
    let types = [
        RankedType::new(0, PrimType::I32),
        RankedType::new(1, PrimType::F32),
        RankedType::new(2, PrimType::U8),
        RankedType::new(1, PrimType::Bool),
    ];
    let mut rng = Rng::new(2024);
    let (mut ok, mut arrays, mut typed_ok) = (0, 0, 0);
    for round in 0..20_000 {
        let len = rng.int_in(0, 40) as usize;
        let mut input = Vec::new();
        for _ in 0..len {
            if rng.int_in(0, 3) == 0 {
                input.push(rng.int_in(0, 255) as u8);
            } else {
                let k = rng.int_in(0, fragments.len() as i128 - 1) as usize;
                input.extend_from_slice(fragments[k]);
            }
        }
        // Untyped: every value read must survive a round trip.
        for v in Reader::new(&input[..]).flatten() {
            ok += 1;
            arrays += usize::from(v.rank() > 0);
            let text = v.to_string();
            let back = parse_value(&text).unwrap_or_else(|e| panic!("{text}: {e}"));
            assert!(same(&back, &v));
        }
        // Typed.
        let t = types[round % types.len()];
        let mut r = Reader::new(&input[..]);
        while let Ok(v) = r.read_value(&t) {
            assert!(t.matches(&v));
            typed_ok += 1;
        }
    }
    // The inputs must exercise the successful paths too, not only errors.
    assert!(
        ok > 1000 && arrays > 100 && typed_ok > 100,
        "{ok} {arrays} {typed_ok}"
    );
}
