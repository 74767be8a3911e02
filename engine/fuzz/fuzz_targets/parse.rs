#![no_main]
libfuzzer_sys::fuzz_target!(|data: &[u8]| jp_fuzz::parse::run(data));
