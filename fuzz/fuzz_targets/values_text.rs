//! The value reader on arbitrary text (text and binary values may be mixed in
//! one stream): values or an error, never a panic. A value read is written
//! back in both formats and read again.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    if let Ok(vs) = values::read_values(data) {
        for v in vs {
            let text = v.to_string();
            let again = values::parse_value(&text).expect("written text reads back");
            assert_eq!(again.value_type(), v.value_type(), "{text}");
            let bin = values::to_binary(&v).expect("a value in memory converts to binary");
            let back = values::read_values(&bin).expect("written binary reads back");
            assert_eq!(back.len(), 1);
        }
    }
});
