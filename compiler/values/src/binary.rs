//! Futhark's binary value format.
//!
//! A value is encoded as:
//!
//! | bytes | content |
//! |---|---|
//! | 1 | the letter `b` |
//! | 1 | format version, always 2 |
//! | 1 | rank (0 for a scalar) |
//! | 4 | element type tag, right-aligned ASCII: `"  i8"`, `" i32"`, `" f16"`, `"bool"`, ... |
//! | 8 × rank | the shape, one little-endian `u64` per dimension |
//! | rest | the elements in row-major order, little-endian; `bool` as one byte 0 or 1 |
//!
//! The reader rejects other versions, unknown tags, `bool` bytes other than
//! 0 and 1, shapes whose size overflows, and truncated data, each with the
//! byte offset of the problem. It never allocates more than it has actually
//! read (plus a bounded chunk), so a lying header cannot exhaust memory.

use std::io::{self, Read, Write};

use half::f16;

use crate::error::{ReadError, ReadErrorKind};
use crate::input::Input;
use crate::prim::PrimType;
use crate::value::{Data, RankedType, Value, ValueType, shape_elements};

/// The only binary format version there is.
pub const BINARY_VERSION: u8 = 2;

/// How many bytes of element data are read and decoded at a time.
const CHUNK: usize = 1 << 20;

/// Writes `v` in the binary format.
///
/// Fails with [`io::ErrorKind::InvalidInput`] for a value of rank over 255,
/// which the format cannot express.
pub fn write_binary<W: Write + ?Sized>(v: &Value, w: &mut W) -> io::Result<()> {
    let rank = u8::try_from(v.rank()).map_err(|_| {
        io::Error::new(
            io::ErrorKind::InvalidInput,
            format!("rank {} is too large for the binary format", v.rank()),
        )
    })?;
    let mut header = Vec::with_capacity(7 + 8 * v.rank());
    header.push(b'b');
    header.push(BINARY_VERSION);
    header.push(rank);
    header.extend_from_slice(&v.prim_type().binary_tag());
    for &d in v.shape() {
        header.extend_from_slice(&(d as u64).to_le_bytes());
    }
    w.write_all(&header)?;
    macro_rules! encode {
        ($xs:expr) => {{
            // Encode in bounded pieces to keep the scratch buffer small.
            for piece in $xs.chunks(CHUNK / 8) {
                let mut bytes = Vec::with_capacity(piece.len() * 8);
                for x in piece {
                    bytes.extend_from_slice(&x.to_le_bytes());
                }
                w.write_all(&bytes)?;
            }
            Ok(())
        }};
    }
    match v.data() {
        Data::Bool(xs) => {
            let bytes: Vec<u8> = xs.iter().map(|&b| u8::from(b)).collect();
            w.write_all(&bytes)
        }
        Data::U8(xs) => w.write_all(xs),
        Data::I8(xs) => encode!(xs),
        Data::I16(xs) => encode!(xs),
        Data::I32(xs) => encode!(xs),
        Data::I64(xs) => encode!(xs),
        Data::U16(xs) => encode!(xs),
        Data::U32(xs) => encode!(xs),
        Data::U64(xs) => encode!(xs),
        Data::F16(xs) => encode!(xs),
        Data::F32(xs) => encode!(xs),
        Data::F64(xs) => encode!(xs),
    }
}

/// The binary encoding of `v` as a byte vector.
pub fn to_binary(v: &Value) -> io::Result<Vec<u8>> {
    let mut out = Vec::new();
    write_binary(v, &mut out)?;
    Ok(out)
}

fn eof(input: &Input<impl Read>, what: &str) -> ReadError {
    ReadError::new(
        input.bin_pos(),
        ReadErrorKind::UnexpectedEof,
        format!("unexpected end of input in {what}"),
    )
}

fn header_byte<R: Read>(input: &mut Input<R>, what: &str) -> Result<u8, ReadError> {
    input.next_byte()?.ok_or_else(|| eof(input, what))
}

/// Reads one binary value; the next byte of `input` must be the `b` that
/// starts it. With `expected`, a value of another rank or element type is an
/// error.
pub(crate) fn read_binary<R: Read>(
    input: &mut Input<R>,
    expected: Option<&RankedType>,
) -> Result<Value, ReadError> {
    let start = input.bin_pos();
    let syntax = |pos, msg: String| ReadError::new(pos, ReadErrorKind::Syntax, msg);
    let b = header_byte(input, "binary value header")?;
    if b != b'b' {
        return Err(syntax(start, "a binary value must start with `b`".into()));
    }
    let pos = input.bin_pos();
    let version = header_byte(input, "binary value header")?;
    if version != BINARY_VERSION {
        return Err(syntax(
            pos,
            format!("unsupported binary format version {version} (expected {BINARY_VERSION})"),
        ));
    }
    let rank = usize::from(header_byte(input, "binary value header")?);
    let pos = input.bin_pos();
    let mut tag = [0u8; 4];
    for slot in &mut tag {
        *slot = header_byte(input, "binary value header")?;
    }
    let prim = PrimType::from_binary_tag(tag).ok_or_else(|| {
        syntax(
            pos,
            format!("unknown binary type tag \"{}\"", tag.escape_ascii()),
        )
    })?;
    let mut shape = Vec::with_capacity(rank);
    let mut dim = Vec::with_capacity(8);
    for _ in 0..rank {
        dim.clear();
        let pos = input.bin_pos();
        if input.read_into(8, &mut dim)? < 8 {
            return Err(eof(input, "the shape of a binary value"));
        }
        let mut le = [0u8; 8];
        le.copy_from_slice(&dim);
        let d = u64::from_le_bytes(le);
        let d =
            usize::try_from(d).map_err(|_| syntax(pos, format!("dimension {d} is too large")))?;
        shape.push(d);
    }
    let ty = ValueType { shape, prim };
    if let Some(want) = expected
        && (want.rank != rank || want.prim != prim)
    {
        return Err(ReadError::new(
            start,
            ReadErrorKind::TypeMismatch,
            format!("expected a value of type {want}, found a binary value of type {ty}"),
        ));
    }
    let n = shape_elements(&ty.shape)
        .and_then(|n| n.checked_mul(prim.byte_size()).map(|_| n))
        .ok_or_else(|| syntax(start, format!("binary value of type {ty} is too large")))?;
    let data = read_elements(input, prim, n, &ty)?;
    Value::new(ty.shape, data).map_err(|e| syntax(start, format!("inconsistent binary value: {e}")))
}

/// Reads `n` elements of type `prim`, decoding chunk by chunk.
fn read_elements<R: Read>(
    input: &mut Input<R>,
    prim: PrimType,
    n: usize,
    ty: &ValueType,
) -> Result<Data, ReadError> {
    let size = prim.byte_size();
    let per_chunk = CHUNK / size;
    let mut data = Data::with_capacity(prim, n.min(per_chunk));
    let mut scratch = Vec::with_capacity(CHUNK.min(n * size));
    let mut left = n;
    while left > 0 {
        let count = left.min(per_chunk);
        scratch.clear();
        let chunk_start = input.bin_pos();
        let got = input.read_into(count * size, &mut scratch)?;
        if got < count * size {
            let have = (n - left) * size + got;
            return Err(ReadError::new(
                input.bin_pos(),
                ReadErrorKind::UnexpectedEof,
                format!(
                    "unexpected end of input: binary value of type {ty} needs {} data bytes, found {have}",
                    n * size
                ),
            ));
        }
        decode_into(&mut data, &scratch).map_err(|i| {
            ReadError::new(
                crate::error::Position::Binary {
                    offset: chunk_start.offset() + i as u64,
                },
                ReadErrorKind::Syntax,
                "invalid bool byte in binary value (must be 0 or 1)",
            )
        })?;
        left -= count;
    }
    Ok(data)
}

/// Appends the little-endian elements in `bytes` to `data`; `Err(i)` names
/// the index of an invalid `bool` byte.
fn decode_into(data: &mut Data, bytes: &[u8]) -> Result<(), usize> {
    macro_rules! decode {
        ($v:expr, $t:ty) => {{
            const N: usize = std::mem::size_of::<$t>();
            $v.extend(bytes.chunks_exact(N).map(|c| {
                let mut a = [0u8; N];
                a.copy_from_slice(c);
                <$t>::from_le_bytes(a)
            }))
        }};
    }
    match data {
        Data::I8(v) => decode!(v, i8),
        Data::I16(v) => decode!(v, i16),
        Data::I32(v) => decode!(v, i32),
        Data::I64(v) => decode!(v, i64),
        Data::U8(v) => v.extend_from_slice(bytes),
        Data::U16(v) => decode!(v, u16),
        Data::U32(v) => decode!(v, u32),
        Data::U64(v) => decode!(v, u64),
        Data::F16(v) => decode!(v, f16),
        Data::F32(v) => decode!(v, f32),
        Data::F64(v) => decode!(v, f64),
        Data::Bool(v) => {
            for (i, &b) in bytes.iter().enumerate() {
                match b {
                    0 => v.push(false),
                    1 => v.push(true),
                    _ => return Err(i),
                }
            }
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::prim::PrimValue;

    fn read(bytes: &[u8]) -> Result<Value, ReadError> {
        read_binary(&mut Input::new(bytes), None)
    }

    #[test]
    fn scalar_layout() {
        let bytes = to_binary(&Value::scalar(7i32)).unwrap();
        assert_eq!(bytes, b"b\x02\x00 i32\x07\x00\x00\x00");
        let bytes = to_binary(&Value::scalar(true)).unwrap();
        assert_eq!(bytes, b"b\x02\x00bool\x01");
    }

    #[test]
    fn array_layout() {
        let v = Value::array(vec![2, 1], vec![1u16, 258]).unwrap();
        let bytes = to_binary(&v).unwrap();
        let mut want = b"b\x02\x02 u16".to_vec();
        want.extend_from_slice(&2u64.to_le_bytes());
        want.extend_from_slice(&1u64.to_le_bytes());
        want.extend_from_slice(&[1, 0, 2, 1]);
        assert_eq!(bytes, want);
        assert_eq!(read(&bytes).unwrap(), v);
    }

    #[test]
    fn round_trips_every_type_and_rank() {
        for t in PrimType::ALL {
            for rank in 0..4usize {
                let shape: Vec<usize> = (0..rank).map(|i| i + 2).collect();
                let n = shape_elements(&shape).unwrap();
                let mut data = Data::with_capacity(t, n);
                for i in 0..n {
                    let x = match t {
                        PrimType::Bool => PrimValue::Bool(i % 3 == 0),
                        t if t.is_float() => {
                            PrimValue::float_of_type(t, i as f64 * 0.75 - 3.0).unwrap()
                        }
                        t => PrimValue::int_of_type(t, i as i128 * 7 % 100).unwrap(),
                    };
                    assert!(data.push(x));
                }
                let v = Value::new(shape, data).unwrap();
                let bytes = to_binary(&v).unwrap();
                let back = read(&bytes).unwrap();
                assert_eq!(back, v, "{t} rank {rank}");
                assert_eq!(to_binary(&back).unwrap(), bytes);
            }
        }
    }

    #[test]
    fn empty_arrays_round_trip() {
        for shape in [vec![0], vec![0, 3], vec![3, 0], vec![2, 0, 4]] {
            let v = Value::empty(PrimType::F64, shape).unwrap();
            assert_eq!(read(&to_binary(&v).unwrap()).unwrap(), v);
        }
    }

    #[test]
    fn rejects_bad_headers() {
        let e = read(b"b\x03\x00 i32\x01\x00\x00\x00").unwrap_err();
        assert!(e.message.contains("version 3"), "{e}");
        assert_eq!(e.position.offset(), 1);
        let e = read(b"b\x02\x00 i33\x01\x00\x00\x00").unwrap_err();
        assert!(
            e.message.contains("unknown binary type tag \" i33\""),
            "{e}"
        );
        let e = read(b"b\x02").unwrap_err();
        assert_eq!(e.kind, ReadErrorKind::UnexpectedEof);
        let e = read(b"b\x02\x01 i32\x01\x00").unwrap_err();
        assert_eq!(e.kind, ReadErrorKind::UnexpectedEof);
        assert!(e.message.contains("shape"), "{e}");
    }

    #[test]
    fn rejects_truncated_data() {
        let mut bytes = to_binary(&Value::vector(vec![1.0f32, 2.0, 3.0])).unwrap();
        bytes.truncate(bytes.len() - 2);
        let e = read(&bytes).unwrap_err();
        assert_eq!(e.kind, ReadErrorKind::UnexpectedEof);
        assert!(e.message.contains("needs 12 data bytes, found 10"), "{e}");
    }

    #[test]
    fn rejects_huge_claims_without_allocating_them() {
        let mut bytes = b"b\x02\x02 f64".to_vec();
        bytes.extend_from_slice(&(1u64 << 40).to_le_bytes());
        bytes.extend_from_slice(&(1u64 << 40).to_le_bytes());
        let e = read(&bytes).unwrap_err();
        assert!(e.message.contains("too large"), "{e}");
        let mut bytes = b"b\x02\x01 f64".to_vec();
        bytes.extend_from_slice(&(1u64 << 40).to_le_bytes());
        bytes.extend_from_slice(&[0; 16]);
        let e = read(&bytes).unwrap_err();
        assert_eq!(e.kind, ReadErrorKind::UnexpectedEof);
    }

    #[test]
    fn rejects_bad_bools() {
        let e = read(b"b\x02\x01bool\x02\x00\x00\x00\x00\x00\x00\x00\x01\x07").unwrap_err();
        assert!(e.message.contains("bool"), "{e}");
        assert_eq!(e.position.offset(), 16);
    }

    #[test]
    fn checks_expected_type() {
        let bytes = to_binary(&Value::vector(vec![1i32, 2, 3])).unwrap();
        let want = RankedType::new(1, PrimType::F32);
        let e = read_binary(&mut Input::new(&bytes[..]), Some(&want)).unwrap_err();
        assert_eq!(e.kind, ReadErrorKind::TypeMismatch);
        assert_eq!(
            e.message,
            "expected a value of type []f32, found a binary value of type [3]i32"
        );
        let want = RankedType::new(1, PrimType::I32);
        assert!(read_binary(&mut Input::new(&bytes[..]), Some(&want)).is_ok());
    }
}
