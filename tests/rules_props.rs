//! The stroke-log reader and the engine behind it never panic, whatever the
//! bytes: arbitrary input and mutations of a valid log (the CI stand-in for
//! the cargo-fuzz target in `fuzz/`).

use carrom::contract::StrokeLog;
use proptest::prelude::*;

const VALID: &str = include_str!("../fixtures/strokes/doubles-game.strokes.json");

fn read_and_score(text: &str) {
    if let Ok(log) = text.parse::<StrokeLog>() {
        let _ = carrom::rules::score(&log);
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 300, ..ProptestConfig::default() })]

    #[test]
    fn arbitrary_bytes_never_panic(bytes in prop::collection::vec(any::<u8>(), 0..512)) {
        read_and_score(&String::from_utf8_lossy(&bytes));
    }

    #[test]
    fn mutated_valid_logs_never_panic(
        cuts in prop::collection::vec((0usize..VALID.len(), 0usize..8, "[a-z0-9\\[\\]{}\":, .-]{0,6}"), 1..4),
    ) {
        let mut text = VALID.to_owned();
        for (at, len, insert) in cuts {
            let start = at.min(text.len());
            let end = (start + len).min(text.len());
            if text.is_char_boundary(start) && text.is_char_boundary(end) {
                text.replace_range(start..end, &insert);
            }
        }
        read_and_score(&text);
    }

    #[test]
    fn valid_values_swapped_in_never_panic(
        index in 0usize..54,
        field in prop::sample::select(vec!["seat", "touched", "pocketed", "overboard", "improper", "foul", "t"]),
        value in prop::sample::select(vec!["null", "1", "-3.5", "\"north\"", "\"red\"", "[]", "[{\"piece\":\"queen\"}]", "{}", "true", "\"foul\""]),
    ) {
        let mut log: serde_json::Value = serde_json::from_str(VALID).unwrap();
        log["strokes"][index][field] = serde_json::from_str(value).unwrap();
        read_and_score(&log.to_string());
    }
}
