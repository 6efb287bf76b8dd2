//! Fuzzes the stroke-log reader and the rules engine behind it: any bytes must
//! give a log or a typed error, never a panic.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    if let Ok(text) = std::str::from_utf8(data) {
        if let Ok(log) = text.parse::<carrom::contract::StrokeLog>() {
            let _ = carrom::rules::score(&log);
        }
    }
});
