//! Structure-aware: the input is the content of one XML part (chosen by its
//! first byte) spliced into a valid fixture package, which then goes through
//! the whole read → solve → annotate → re-read round trip.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| {
    if let Some(package) = xlsudoku_fuzz::splice(data) {
        xlsudoku_fuzz::roundtrip(&package);
    }
});
