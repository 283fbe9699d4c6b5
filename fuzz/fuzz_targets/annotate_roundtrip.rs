//! Bytes → read, solve every grid, write the annotated copy, read it back.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| xlsudoku_fuzz::roundtrip(data));
