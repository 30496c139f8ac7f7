"""Read and write Futhark's binary value format (the format `fut run`, `fut test`
and `fut dataset -b` read and write).

A value is: the byte `b`, the format version 2, the rank as one byte, the element
type as four ASCII characters (` f64`, ` i32`, `bool`, ...), the rank's dimensions as
little-endian i64, then the elements in row-major order, little-endian.
"""

import struct

import numpy as np

_TYPES = {
    np.dtype(np.int8): b"  i8",
    np.dtype(np.int16): b" i16",
    np.dtype(np.int32): b" i32",
    np.dtype(np.int64): b" i64",
    np.dtype(np.uint8): b"  u8",
    np.dtype(np.uint16): b" u16",
    np.dtype(np.uint32): b" u32",
    np.dtype(np.uint64): b" u64",
    np.dtype(np.float16): b" f16",
    np.dtype(np.float32): b" f32",
    np.dtype(np.float64): b" f64",
    np.dtype(np.bool_): b"bool",
}
_DTYPES = {name: dtype for dtype, name in _TYPES.items()}


def encode(value) -> bytes:
    """One value (a NumPy array or scalar) in the binary format."""
    arr = np.asarray(value)
    if arr.dtype not in _TYPES:
        raise TypeError(f"no Futhark type for NumPy dtype {arr.dtype}")
    header = b"b" + bytes([2, arr.ndim]) + _TYPES[arr.dtype]
    dims = struct.pack(f"<{arr.ndim}q", *arr.shape)
    data = np.ascontiguousarray(arr, dtype=arr.dtype.newbyteorder("<")).tobytes()
    return header + dims + data


def write(path, values) -> None:
    """Write a sequence of values, one after the other, to `path`."""
    with open(path, "wb") as f:
        for v in values:
            f.write(encode(v))


def decode_all(data: bytes) -> list:
    """Every value in `data`, which must hold only binary values and whitespace."""
    out = []
    pos = 0
    while pos < len(data):
        if data[pos : pos + 1].isspace():
            pos += 1
            continue
        if data[pos : pos + 2] != b"b\x02":
            raise ValueError(f"not a binary value at byte {pos}")
        rank = data[pos + 2]
        kind = data[pos + 3 : pos + 7]
        if kind not in _DTYPES:
            raise ValueError(f"unknown element type {kind!r} at byte {pos + 3}")
        dtype = _DTYPES[kind].newbyteorder("<")
        pos += 7
        shape = struct.unpack_from(f"<{rank}q", data, pos)
        pos += 8 * rank
        count = int(np.prod(shape)) if rank else 1
        nbytes = count * dtype.itemsize
        arr = np.frombuffer(data[pos : pos + nbytes], dtype=dtype).reshape(shape)
        pos += nbytes
        out.append(arr if rank else arr[()])
    return out


def read(path) -> list:
    """Every value in the file at `path`."""
    with open(path, "rb") as f:
        return decode_all(f.read())
