//! `scripts/structure-score --self-test`: the structure score's parser and matcher on hand-made
//! expected/actual pairs (a faithful rendering finds every element; flat text finds none; a
//! wrong heading level, a fence without its language, a footnote reference moved, display math
//! written inline, a wrong table row each lose exactly their element; TeX and URLs normalised),
//! so that the score cannot silently rate everything 1.0. No browser and no tool runs.
//!
//! The script needs markdown-it-py and mdit-py-plugins. The test uses the first Python that has
//! them: `target/structure-venv/bin/python` (made by the script's first run), `target/pyenv/bin/python`
//! (scripts/test-python's), then `python3`. With none, it is skipped with one line on stderr
//! (run `scripts/structure-score --self-test` once to make the venv), or fails with
//! `SIGHTLINE_REQUIRE_STRUCTURE_SCORE=1`.

use std::path::PathBuf;
use std::process::Command;

fn repo() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// The first Python that imports the script's parser.
fn python() -> Option<PathBuf> {
    let candidates = [
        repo().join("target/structure-venv/bin/python"),
        repo().join("target/pyenv/bin/python"),
        PathBuf::from("python3"),
    ];
    candidates.into_iter().find(|py| {
        Command::new(py)
            .args(["-c", "import markdown_it, mdit_py_plugins"])
            .output()
            .map(|o| o.status.success())
            .unwrap_or(false)
    })
}

#[test]
fn structure_score_self_test_passes() {
    let Some(py) = python() else {
        if std::env::var("SIGHTLINE_REQUIRE_STRUCTURE_SCORE").as_deref() == Ok("1") {
            panic!("no Python with markdown-it-py and mdit-py-plugins: run scripts/structure-score --self-test once");
        }
        use std::io::Write as _;
        let _ = writeln!(
            std::io::stderr(),
            "skipped: no Python with markdown-it-py and mdit-py-plugins (run scripts/structure-score --self-test once)"
        );
        return;
    };
    let out = Command::new(&py)
        .arg(repo().join("scripts/structure-score"))
        .arg("--self-test")
        .output()
        .expect("the self-test runs");
    let stdout = String::from_utf8_lossy(&out.stdout);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        out.status.success() && stdout.contains("self-test passed") && !stdout.contains("FAIL"),
        "scripts/structure-score --self-test failed with {}:\n{stdout}\n{stderr}",
        py.display()
    );
    // Every check ran: the pairs are not skipped by accident.
    assert!(
        stdout.lines().filter(|l| l.starts_with("ok ")).count() >= 12,
        "{stdout}"
    );
}
