//! `carrom batch` over clips with one corrupt file finishes, reports the bad
//! clip, scores the others with their accuracy (a clip without a camera
//! beside it with `--calibration`), and shards the list.

mod live_common;

use live_common::{run, run_ok, sim_clip};

#[test]
fn a_corrupt_clip_is_reported_and_skipped() {
    let dir = tempfile::tempdir().unwrap();
    let clips = dir.path().join("clips");
    sim_clip(&clips, "a", 3, 6.0);
    sim_clip(&clips, "b", 20, 6.0);
    // A clip that is not a video, with a good camera beside it.
    std::fs::create_dir_all(clips.join("bad")).unwrap();
    std::fs::write(clips.join("bad/clip.mp4"), b"this is not a video").unwrap();
    std::fs::copy(clips.join("a/camera.json"), clips.join("bad/camera.json")).unwrap();
    // Clip a again without its camera: --calibration stands in (one table
    // recorded many times).
    std::fs::create_dir_all(clips.join("shared")).unwrap();
    std::fs::copy(clips.join("a/clip.mp4"), clips.join("shared/clip.mp4")).unwrap();

    let out = dir.path().join("out");
    let output = run_ok(&[
        "batch",
        &clips.to_string_lossy(),
        "-j",
        "2",
        "--calibration",
        &clips.join("a/camera.json").to_string_lossy(),
        "--out",
        &out.to_string_lossy(),
    ]);
    let table = String::from_utf8_lossy(&output.stdout);
    assert!(table.contains("4 clips, 3 scored, 1 failed"), "{table}");

    let summary: Vec<serde_json::Value> =
        serde_json::from_str(&std::fs::read_to_string(out.join("summary.json")).unwrap()).unwrap();
    let names: Vec<&str> = summary
        .iter()
        .map(|r| r["name"].as_str().unwrap())
        .collect();
    assert_eq!(names, ["a__clip", "b__clip", "bad__clip", "shared__clip"]);
    for row in &summary[..2] {
        assert!(row["error"].is_null(), "{row}");
        // Truth sits beside the simulated clips, so accuracy is measured.
        assert!(
            row["accuracy"]["truth_strokes"].as_u64().unwrap() > 0,
            "{row}"
        );
        let name = row["name"].as_str().unwrap();
        assert!(out.join(name).join("boardlog.json").is_file());
    }
    let error = summary[2]["error"].as_str().unwrap();
    assert!(error.contains("bad/clip.mp4"), "{error}");
    let shared = &summary[3];
    assert!(shared["error"].is_null(), "{shared}");
    assert!(shared["accuracy"].is_null(), "no truth beside it: {shared}");
    assert_eq!(shared["strokes"], summary[0]["strokes"], "{shared}");
    assert_eq!(shared["result"], summary[0]["result"], "{shared}");

    let csv = std::fs::read_to_string(out.join("summary.csv")).unwrap();
    assert_eq!(csv.lines().count(), 5, "{csv}");
    assert!(csv
        .lines()
        .next()
        .unwrap()
        .starts_with("clip,boards,result,strokes,alerts,seconds"));

    let strict_batch = |clip: &str, out: &str| {
        run(&[
            "batch",
            &clips.join(clip).to_string_lossy(),
            "--strict",
            "--out",
            &dir.path().join(out).to_string_lossy(),
        ])
    };
    // Without a camera beside it or --calibration, a clip fails and says why.
    let bare = strict_batch("shared", "bare");
    assert!(!bare.status.success());
    let why = String::from_utf8_lossy(&bare.stdout);
    assert!(why.contains("shared/camera.json"), "{why}");

    // --strict turns the failure into the exit status.
    let strict = strict_batch("bad", "strict");
    assert!(!strict.status.success());
}

#[test]
fn shards_split_the_sorted_list() {
    let dir = tempfile::tempdir().unwrap();
    let clips = dir.path().join("clips");
    for name in ["a", "b", "c"] {
        std::fs::create_dir_all(clips.join(name)).unwrap();
        // Not videos: each fails fast, and still gets its row.
        std::fs::write(clips.join(name).join("clip.mp4"), b"x").unwrap();
    }
    let out = dir.path().join("out");
    run_ok(&[
        "batch",
        &format!("{}/*/clip.mp4", clips.display()),
        "--shard",
        "2/2",
        "--out",
        &out.to_string_lossy(),
    ]);
    let csv = std::fs::read_to_string(out.join("summary.csv")).unwrap();
    let rows: Vec<&str> = csv.lines().skip(1).collect();
    assert_eq!(rows.len(), 1, "{csv}");
    assert!(rows[0].contains("/b/clip.mp4"), "{csv}");
    assert!(!run(&["batch", &clips.to_string_lossy(), "--shard", "3/2"])
        .status
        .success());
}
