//! The layers hold inside each crate too: `scripts/module-cycles` finds no import cycle among
//! the child modules of any module of any crate of the repository (the compiler already refuses
//! cycles between crates); and the check itself can fail: on a small synthetic crate whose
//! `outer::left` and `outer::right` name each other it exits 1 and names both, and without the
//! backward reference it exits 0. Needs `python3` (skipped without it, unless
//! `SIGHTLINE_REQUIRE_BENCH=1`, as in CI).

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

fn repo() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// Whether `python3` runs; when it does not, the test is skipped with a line on stderr, or
/// fails under `SIGHTLINE_REQUIRE_BENCH=1` (CI never skips silently).
fn have_python() -> bool {
    let ok = Command::new("python3")
        .arg("--version")
        .output()
        .map(|o| o.status.success())
        .unwrap_or(false);
    if ok {
        return true;
    }
    if std::env::var("SIGHTLINE_REQUIRE_BENCH").as_deref() == Ok("1") {
        panic!("python3 not found and SIGHTLINE_REQUIRE_BENCH=1: install python3");
    }
    // Written to stderr directly: libtest captures `eprintln!` of a passing test.
    use std::io::Write as _;
    let _ = writeln!(
        std::io::stderr(),
        "skipped: python3 not found (scripts/module-cycles needs it)"
    );
    false
}

fn module_cycles(root: &Path) -> Output {
    Command::new("python3")
        .arg(repo().join("scripts/module-cycles"))
        .arg(root)
        .output()
        .expect("python3 runs scripts/module-cycles")
}

fn report(out: &Output) -> String {
    format!(
        "exit {:?}\n--- stdout\n{}--- stderr\n{}",
        out.status.code(),
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    )
}

#[test]
fn no_module_cycles_in_any_crate() {
    if !have_python() {
        return;
    }
    let out = module_cycles(&repo());
    assert_eq!(
        out.status.code(),
        Some(0),
        "scripts/module-cycles found import cycles between sibling modules (break each by \
         moving the shared item to the parent or to the lower module):\n{}",
        report(&out)
    );
}

#[test]
fn module_cycles_finds_a_cycle_two_levels_deep() {
    if !have_python() {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let write = |path: &str, text: &str| {
        let p = dir.path().join(path);
        std::fs::create_dir_all(p.parent().unwrap()).unwrap();
        std::fs::write(p, text).unwrap();
    };
    write("src/lib.rs", "pub mod outer;\npub mod other;\n");
    write("src/other.rs", "pub use crate::outer::left::Left;\n");
    write(
        "src/outer/mod.rs",
        "pub mod left;\npub mod right;\npub struct Shared;\n",
    );
    // left names right (and the parent, which is no edge between its children).
    write(
        "src/outer/left.rs",
        "use super::right::Right;\nuse super::Shared;\npub struct Left(Right, Shared);\n",
    );
    // Only a comment and a string name left: no edge yet.
    write(
        "src/outer/right.rs",
        "// crate::outer::left::Left\npub struct Right;\npub const S: &str = \"super::left\";\n",
    );
    let out = module_cycles(dir.path());
    assert_eq!(
        out.status.code(),
        Some(0),
        "no cycle yet:\n{}",
        report(&out)
    );

    // Now right names left back, from a test block inside a use group.
    write(
        "src/outer/right.rs",
        "pub struct Right;\n#[cfg(test)]\nmod tests {\n    use crate::outer::{left::Left, Shared};\n}\n",
    );
    let out = module_cycles(dir.path());
    let text = report(&out);
    assert_eq!(out.status.code(), Some(1), "a cycle:\n{text}");
    let stdout = String::from_utf8_lossy(&out.stdout);
    for name in ["outer::left", "outer::right", "src/outer/right.rs:4"] {
        assert!(stdout.contains(name), "the report names {name}:\n{text}");
    }
}
