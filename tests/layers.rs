//! The layers hold inside each crate too: `scripts/module-cycles` finds no import cycle among
//! the child modules of any module of any crate of the repository (the compiler already refuses
//! cycles between crates); and the check itself can fail: on a small synthetic crate whose
//! `outer::left` and `outer::right` name each other it exits 1 and names both, and without the
//! backward reference it exits 0. Needs `python3` (skipped without it, unless
//! `SIGHTLINE_REQUIRE_BENCH=1`, as in CI).
//!
//! And the layout is written where a reader looks: docs/architecture.md lists every crate,
//! module, script and example of the tree, and nothing that is not there (how it reads the
//! page: [`architecture_list`]); each crate root's `# Layout` names each of its modules.

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

/// What docs/architecture.md lists, as the check reads it (outside fenced blocks):
/// - a level-3 heading whose first backticked span is a folder (`### `crates/core/src/`:
///   sightline-core`) opens a crate: the folder is the crate's source root, and the rest of the
///   heading names its package; any other heading of level 3 or above closes it;
/// - a list item whose line starts with `` - ` `` names the path in its first backticked span:
///   relative to the open crate's source root, or to the repository outside a crate.
#[derive(Debug, Default)]
struct ArchitectureList {
    /// (line, source root relative to the repository, the heading's text).
    crates: Vec<(usize, String, String)>,
    /// (line, path relative to the repository, the crate root it was listed under).
    entries: Vec<(usize, String, Option<String>)>,
}

fn first_backticked(line: &str) -> Option<&str> {
    let start = line.find('`')? + 1;
    let len = line[start..].find('`')?;
    Some(&line[start..start + len])
}

fn architecture_list(text: &str) -> ArchitectureList {
    let mut list = ArchitectureList::default();
    let mut crate_root: Option<String> = None;
    let mut in_fence = false;
    for (i, line) in text.lines().enumerate() {
        let n = i + 1;
        let t = line.trim_start();
        if t.starts_with("```") || t.starts_with("~~~") {
            in_fence = !in_fence;
            continue;
        }
        if in_fence {
            continue;
        }
        let level = t.chars().take_while(|&c| c == '#').count();
        if level > 0 && t[level..].starts_with(' ') {
            if level > 3 {
                continue;
            }
            crate_root = None;
            if level == 3 {
                if let Some(root) = first_backticked(t).filter(|r| r.ends_with('/')) {
                    list.crates.push((n, root.to_string(), t.to_string()));
                    crate_root = Some(root.to_string());
                }
            }
        } else if let Some(rest) = t.strip_prefix("- `") {
            let Some(end) = rest.find('`') else { continue };
            let path = &rest[..end];
            let full = match &crate_root {
                Some(root) => format!("{root}{path}"),
                None => path.to_string(),
            };
            list.entries.push((n, full, crate_root.clone()));
        }
    }
    list
}

/// The `[package]` name of the nearest Cargo.toml at or above `dir` (within `root`).
fn package_name(root: &Path, dir: &Path) -> Option<String> {
    let mut d = dir.to_path_buf();
    loop {
        if let Ok(toml) = std::fs::read_to_string(d.join("Cargo.toml")) {
            let mut in_package = false;
            for line in toml.lines().map(str::trim) {
                if line.starts_with('[') {
                    in_package = line == "[package]";
                } else if in_package && line.starts_with("name") {
                    let value = line.split_once('=')?.1.trim().trim_matches('"');
                    return Some(value.to_string());
                }
            }
        }
        if d == root || !d.pop() {
            return None;
        }
    }
}

/// The crates of the tree, as source roots relative to `root` (ending in `/`): `crates/*/src/`
/// (or `crates/*/` when the crate's root file sits in the folder itself, as `crates/cli/`
/// does) and `python/src/`.
fn crate_roots(root: &Path) -> Vec<String> {
    let mut roots = Vec::new();
    let has_root_file = |d: &Path| d.join("lib.rs").is_file() || d.join("main.rs").is_file();
    if let Ok(dirs) = std::fs::read_dir(root.join("crates")) {
        let mut dirs: Vec<_> = dirs.filter_map(|e| e.ok()).map(|e| e.path()).collect();
        dirs.sort();
        for d in dirs.into_iter().filter(|d| d.is_dir()) {
            let name = d.file_name().unwrap().to_string_lossy().into_owned();
            if has_root_file(&d.join("src")) {
                roots.push(format!("crates/{name}/src/"));
            } else if has_root_file(&d) {
                roots.push(format!("crates/{name}/"));
            }
        }
    }
    if has_root_file(&root.join("python/src")) {
        roots.push("python/src/".to_string());
    }
    roots
}

/// Every module of the crate whose source root is `dir`, by its path relative to it: a file
/// module as `a/b.rs`, a folder module (its `mod.rs`) as `a/`; the root file is the crate.
fn crate_modules(dir: &Path) -> Vec<String> {
    fn walk(base: &Path, dir: &Path, out: &mut Vec<String>) {
        let Ok(entries) = std::fs::read_dir(dir) else {
            return;
        };
        for e in entries.filter_map(|e| e.ok()) {
            let p = e.path();
            if p.is_dir() {
                walk(base, &p, out);
                continue;
            }
            let rel = p
                .strip_prefix(base)
                .unwrap()
                .to_string_lossy()
                .replace('\\', "/");
            if !rel.ends_with(".rs") || rel == "lib.rs" || rel == "main.rs" {
                continue;
            }
            out.push(match rel.strip_suffix("mod.rs") {
                Some(folder) if folder.ends_with('/') => folder.to_string(),
                _ => rel,
            });
        }
    }
    let mut out = Vec::new();
    walk(dir, dir, &mut out);
    out.sort();
    out
}

/// Problems with docs/architecture.md against the tree under `root`, as "file:line: …" or
/// "file: …": every path it names exists; every crate has its heading, naming its package;
/// every module of every crate, and every script and example, is listed.
fn architecture_problems(file: &str, text: &str, root: &Path) -> Vec<String> {
    let list = architecture_list(text);
    let mut problems = Vec::new();
    let exists = |path: &str| {
        let p = root.join(path);
        if path.ends_with('/') {
            p.is_dir()
        } else {
            p.is_file()
        }
    };
    for (n, path) in list
        .crates
        .iter()
        .map(|(n, r, _)| (n, r))
        .chain(list.entries.iter().map(|(n, p, _)| (n, p)))
    {
        if !exists(path) {
            problems.push(format!(
                "{file}:{n}: `{path}` does not exist in the repository"
            ));
        }
    }
    for crate_root in crate_roots(root) {
        let package = package_name(root, &root.join(&crate_root));
        match list.crates.iter().find(|(_, r, _)| *r == crate_root) {
            None => problems.push(format!(
                "{file}: the crate `{crate_root}` ({}) has no heading `### `{crate_root}`: …`",
                package.as_deref().unwrap_or("no package name found")
            )),
            Some((n, _, heading)) => {
                let words: Vec<&str> = heading
                    .split(|c: char| !(c.is_ascii_alphanumeric() || c == '-' || c == '_'))
                    .collect();
                if let Some(p) = package.as_deref().filter(|p| !words.contains(p)) {
                    problems.push(format!(
                        "{file}:{n}: the heading of `{crate_root}` does not name its package `{p}`"
                    ));
                }
            }
        }
        for module in crate_modules(&root.join(&crate_root)) {
            let path = format!("{crate_root}{module}");
            if !list.entries.iter().any(|(_, p, _)| *p == path) {
                problems.push(format!(
                    "{file}: the module `{module}` of `{crate_root}` is not listed under its \
                     crate's heading"
                ));
            }
        }
    }
    for folder in ["scripts", "examples"] {
        let Ok(entries) = std::fs::read_dir(root.join(folder)) else {
            continue;
        };
        let mut names: Vec<String> = entries
            .filter_map(|e| e.ok())
            .filter_map(|e| {
                let name = e.file_name().to_string_lossy().into_owned();
                let hidden = name.starts_with('.') || name == "__pycache__";
                let slash = if e.path().is_dir() { "/" } else { "" };
                (!hidden).then(|| format!("{folder}/{name}{slash}"))
            })
            .collect();
        names.sort();
        for path in names {
            if !list
                .entries
                .iter()
                .any(|(_, p, c)| *p == path && c.is_none())
            {
                problems.push(format!(
                    "{file}: `{path}` is not listed (a `- `{path}`: …` line outside the crates)"
                ));
            }
        }
    }
    problems
}

#[test]
fn architecture_lists_every_crate_module_script_and_example() {
    let root = repo();
    let text = std::fs::read_to_string(root.join("docs/architecture.md")).expect("architecture.md");
    let list = architecture_list(&text);
    assert!(
        list.crates.len() >= 5 && list.entries.len() >= 100,
        "docs/architecture.md: only {} crate headings and {} entries read: is the scan broken?",
        list.crates.len(),
        list.entries.len()
    );
    let problems = architecture_problems("docs/architecture.md", &text, &root);
    assert!(
        problems.is_empty(),
        "docs/architecture.md against the tree: {} problem(s):\n{}",
        problems.len(),
        problems.join("\n")
    );
}

#[test]
fn architecture_list_reports_unlisted_modules_and_paths_that_are_gone() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    let write = |path: &str, text: &str| {
        let p = root.join(path);
        std::fs::create_dir_all(p.parent().unwrap()).unwrap();
        std::fs::write(p, text).unwrap();
    };
    write("Cargo.toml", "[workspace]\nmembers = [\"crates/*\"]\n");
    write(
        "crates/core/Cargo.toml",
        "[package]\nname = \"made-core\"\n",
    );
    write("crates/core/src/lib.rs", "");
    write("crates/core/src/a/mod.rs", "");
    write("crates/core/src/a/b.rs", "");
    write("crates/core/src/c.rs", "");
    write(
        "crates/other/Cargo.toml",
        "[package]\nname = \"made-other\"\n",
    );
    write("crates/other/src/lib.rs", "");
    write("scripts/run", "");
    write("examples/one.rs", "");
    let doc = "# Made up\n\n```\n- `not/read/in/a/fence`\n```\n\n\
               ### `crates/core/src/`: made-core\n\n- `a/`: a folder\n- `a/b.rs`: a file\n\
               - `gone.rs`: removed\n\n## Scripts\n\n- `scripts/run`: runs\n- `scripts/gone`: removed\n";
    let problems = architecture_problems("made-up.md", doc, root);
    let expected = [
        "made-up.md:11: `crates/core/src/gone.rs` does not exist",
        "made-up.md:16: `scripts/gone` does not exist",
        "the crate `crates/other/src/` (made-other) has no heading",
        "the module `c.rs` of `crates/core/src/` is not listed",
        "`examples/one.rs` is not listed",
    ];
    for e in expected {
        assert!(
            problems.iter().any(|p| p.contains(e)),
            "missing {e:?} in {problems:#?}"
        );
    }
    assert_eq!(problems.len(), expected.len(), "{problems:#?}");
    let renamed = doc.replace(": made-core", ": made-kernel");
    assert!(architecture_problems("made-up.md", &renamed, root)
        .iter()
        .any(|p| p.contains("does not name its package `made-core`")));
}

/// Each crate root (`lib.rs`, or the binary's `main.rs`) opens with a `# Layout` section that
/// names every module the root declares (`mod x;`), in backticks: a reader sees the crate's
/// parts from its first page, and a new module without a line fails here.
#[test]
fn each_crate_roots_layout_names_its_modules() {
    let roots = [
        "crates/core/src/lib.rs",
        "crates/egress/src/lib.rs",
        "crates/render/src/lib.rs",
        "crates/crawl/src/lib.rs",
        "crates/runtime/src/lib.rs",
        "crates/serve/src/lib.rs",
        "crates/cli/main.rs",
        "python/src/lib.rs",
    ];
    for root in roots {
        let text = std::fs::read_to_string(root).unwrap_or_else(|e| panic!("{root}: {e}"));
        let header: Vec<&str> = text
            .lines()
            .take_while(|l| l.starts_with("//!") || l.trim().is_empty())
            .collect();
        let layout: String = header
            .iter()
            .skip_while(|l| !l.contains("# Layout"))
            .take_while(|l| l.starts_with("//!"))
            .map(|l| format!("{l}\n"))
            .collect();
        assert!(
            !layout.is_empty(),
            "{root}: no `# Layout` section in its header"
        );
        let modules: Vec<String> = text
            .lines()
            .filter_map(|l| {
                let l = l.trim();
                let rest = l
                    .strip_prefix("pub mod ")
                    .or_else(|| l.strip_prefix("mod "))
                    .or_else(|| l.strip_prefix("pub(crate) mod "))?;
                rest.strip_suffix(';').map(str::to_string)
            })
            .collect();
        assert!(!modules.is_empty(), "{root}: no module declared");
        for m in &modules {
            assert!(
                layout.contains(&format!("`{m}`")),
                "{root}: its `# Layout` does not name the module `{m}`"
            );
        }
    }
}
