//! The binary value reader: every input starts as a binary value does (`b`,
//! the format version, the rank, the element type), so that the fuzzer spends
//! its time in headers, shapes and payloads rather than text.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let mut bytes = vec![b'b', values::BINARY_VERSION];
    bytes.extend_from_slice(data);
    let _ = values::read_values(&bytes);
});
