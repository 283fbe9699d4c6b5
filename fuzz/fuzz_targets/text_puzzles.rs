//! Bytes → the text puzzle parser (`bench`), the one-line grid parser and
//! the address and box shape parsers.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| xlsudoku_fuzz::text(data));
