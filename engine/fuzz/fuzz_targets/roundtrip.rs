#![no_main]
libfuzzer_sys::fuzz_target!(|data: &[u8]| jp_fuzz::roundtrip::run(data));
