//! Bytes → the workbook reader and grid detection.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| xlsudoku_fuzz::read(data));
