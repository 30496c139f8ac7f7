//! The core IR's text parser on arbitrary text; what parses is printed and
//! parsed again, which must give the same text.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let text = text.to_string();
    std::thread::Builder::new()
        .stack_size(256 << 20)
        .spawn(move || {
            if let Ok(p) = ir::parse::parse_program(&text) {
                let printed = p.to_string();
                let again = ir::parse::parse_program(&printed).expect("printed IR parses");
                assert_eq!(again.to_string(), printed);
            }
        })
        .expect("a thread")
        .join()
        .expect("no panic");
});
