//! The documentation stays true to the program: README.md stays a short front page; every
//! `sightline <subcommand>` shown in a shell block of README.md or docs/*.md names a subcommand
//! the binary has, with only long flags its `--help` lists; and every repository path
//! (`scripts/…`, `examples/…`, `crates/…`, …) and relative Markdown link they mention exists.
//! A failure names the file and line that is wrong. (docs/architecture.md's list of the tree
//! is checked by `tests/layers.rs`.)

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::process::Command;

/// README.md is a front page; the reference lives in docs/.
const README_MAX_LINES: usize = 200;

/// Folders of the repository whose paths, when a document names them, must exist.
/// (Files under docs/ are reached by links, checked on their own.)
const PATH_ROOTS: &[&str] = &[
    "scripts/",
    "examples/",
    "fixtures/",
    "tests/",
    "models/",
    "quality/",
    "js/",
    "crates/",
    "src/",
];

/// Info strings of the fenced blocks whose lines are shell commands.
const SHELL_BLOCKS: &[&str] = &["sh", "bash", "shell", "console", "zsh"];

fn repo() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// README.md and every docs/*.md, as (path relative to the repository, text).
fn documents() -> Vec<(String, String)> {
    let root = repo();
    let mut names = vec!["README.md".to_string()];
    let mut pages: Vec<String> = std::fs::read_dir(root.join("docs"))
        .expect("docs/ exists")
        .filter_map(|e| e.ok())
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .filter(|n| n.ends_with(".md"))
        .map(|n| format!("docs/{n}"))
        .collect();
    pages.sort();
    names.extend(pages);
    names
        .into_iter()
        .map(|n| {
            let text = std::fs::read_to_string(root.join(&n))
                .unwrap_or_else(|e| panic!("cannot read {n}: {e}"));
            (n, text)
        })
        .collect()
}

/// The `--help` text of the binary and of each subcommand, asked once each.
#[derive(Default)]
struct Help {
    cache: HashMap<String, Result<String, String>>,
}

impl Help {
    /// `sightline [SUB] --help`, or why the subcommand does not exist.
    fn of(&mut self, sub: Option<&str>) -> &Result<String, String> {
        let key = sub.unwrap_or("").to_string();
        self.cache.entry(key).or_insert_with(|| {
            let mut cmd = Command::new(env!("CARGO_BIN_EXE_sightline"));
            if let Some(s) = sub {
                cmd.arg(s);
            }
            let out = cmd.arg("--help").output().expect("run sightline --help");
            if out.status.success() {
                Ok(String::from_utf8_lossy(&out.stdout).into_owned())
            } else {
                let err = String::from_utf8_lossy(&out.stderr);
                Err(err.lines().next().unwrap_or("").trim().to_string())
            }
        })
    }
}

/// Whether `help` lists `flag` as a whole word (`--max-scroll` does not match `--max-scroll-px`).
fn lists_flag(help: &str, flag: &str) -> bool {
    let word = |c: char| c.is_ascii_alphanumeric() || c == '-' || c == '_';
    help.match_indices(flag).any(|(i, _)| {
        let before = help[..i].chars().next_back();
        let after = help[i + flag.len()..].chars().next();
        !before.is_some_and(word) && !after.is_some_and(word)
    })
}

/// What a fenced block holds.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Block {
    /// Shell commands (```sh, ```bash, …).
    Shell,
    /// A terminal session (```console): commands after a `$ ` prompt, the rest output.
    Console,
    /// Anything else, not checked.
    Other,
}

/// The opening fence of a line (its marker and what the block holds), if it is one.
fn opening_fence(line: &str) -> Option<(&'static str, Block)> {
    let t = line.trim_start();
    let marker = ["```", "~~~"].into_iter().find(|m| t.starts_with(m))?;
    let lang = t
        .trim_start_matches(['`', '~'])
        .split(|c: char| c.is_whitespace() || c == ',' || c == '{')
        .find(|s| !s.is_empty())
        .unwrap_or("")
        .to_ascii_lowercase();
    let block = match lang.as_str() {
        "console" => Block::Console,
        l if SHELL_BLOCKS.contains(&l) => Block::Shell,
        _ => Block::Other,
    };
    Some((marker, block))
}

/// The shell commands of a document's fenced shell blocks, as (line number, command), with
/// `\` continuations joined, `# comments` removed and a `$ ` prompt stripped.
fn shell_commands(text: &str) -> Vec<(usize, String)> {
    let mut out = Vec::new();
    let mut fence: Option<(&str, Block)> = None;
    let mut pending: Option<(usize, String)> = None;
    for (i, line) in text.lines().enumerate() {
        let n = i + 1;
        let Some((marker, block)) = fence else {
            fence = opening_fence(line);
            continue;
        };
        if line.trim_start().starts_with(marker) {
            fence = None;
            out.extend(pending.take());
            continue;
        }
        if block == Block::Other {
            continue;
        }
        let code = strip_comment(line).trim();
        let (start, mut command) = match pending.take() {
            Some((start, so_far)) => (start, format!("{so_far} {code}")),
            None => match (code.strip_prefix("$ "), block) {
                (Some(rest), _) => (n, rest.to_string()),
                (None, Block::Console) => continue,
                (None, _) => (n, code.to_string()),
            },
        };
        if command.ends_with('\\') {
            command.pop();
            pending = Some((start, command));
        } else if !command.trim().is_empty() {
            out.push((start, command));
        }
    }
    out
}

/// The line without its trailing `# comment` (a `#` that starts a word, outside quotes).
fn strip_comment(line: &str) -> &str {
    let (mut single, mut double) = (false, false);
    let mut prev = ' ';
    for (i, c) in line.char_indices() {
        match c {
            '\'' if !double => single = !single,
            '"' if !single => double = !double,
            '#' if !single && !double && prev.is_whitespace() => return &line[..i],
            _ => {}
        }
        prev = c;
    }
    line
}

/// Shell words, with quotes removed, `$(…)` kept inside its word, and the operators `|`, `||`,
/// `&&`, `&`, `;` as words of their own.
fn shell_words(command: &str) -> Vec<String> {
    let mut words = Vec::new();
    let mut word = String::new();
    let mut chars = command.chars().peekable();
    let (mut single, mut double) = (false, false);
    while let Some(c) = chars.next() {
        match c {
            '\'' if !double => single = !single,
            '"' if !single => double = !double,
            '$' if !single && chars.peek() == Some(&'(') => {
                word.push(c);
                let mut depth = 0;
                for d in chars.by_ref() {
                    word.push(d);
                    match d {
                        '(' => depth += 1,
                        ')' => {
                            depth -= 1;
                            if depth == 0 {
                                break;
                            }
                        }
                        _ => {}
                    }
                }
            }
            c if !single && !double && c.is_whitespace() => {
                if !word.is_empty() {
                    words.push(std::mem::take(&mut word));
                }
            }
            '|' | '&' | ';' if !single && !double => {
                if !word.is_empty() {
                    words.push(std::mem::take(&mut word));
                }
                let mut op = c.to_string();
                if chars.peek() == Some(&c) {
                    op.push(chars.next().unwrap_or(c));
                }
                words.push(op);
            }
            _ => word.push(c),
        }
    }
    if !word.is_empty() {
        words.push(word);
    }
    words
}

/// One `sightline` invocation in a command: the long flags given before the subcommand, the
/// subcommand, and the long flags after it (up to the next `|`, `&&`, `;`…).
struct Invocation {
    global_flags: Vec<String>,
    subcommand: String,
    flags: Vec<String>,
}

fn invocations(command: &str) -> Vec<Invocation> {
    let words = shell_words(command);
    let operator = |w: &str| matches!(w, "|" | "||" | "&" | "&&" | ";");
    let long_flag = |w: &str| {
        w.strip_prefix("--")
            .filter(|rest| rest.chars().next().is_some_and(|c| c.is_ascii_alphabetic()))
            .map(|_| w.split('=').next().unwrap_or(w).to_string())
    };
    let mut found = Vec::new();
    for segment in words.split(|w| operator(w)) {
        let Some(at) = segment
            .iter()
            .position(|w| w == "sightline" || w.ends_with("/sightline"))
        else {
            continue;
        };
        let rest = &segment[at + 1..];
        let Some(sub_at) = rest.iter().position(|w| !w.starts_with('-')) else {
            continue;
        };
        let sub = &rest[sub_at];
        let looks_like_subcommand = sub.chars().next().is_some_and(|c| c.is_ascii_lowercase())
            && sub
                .chars()
                .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '-');
        if !looks_like_subcommand {
            continue; // `docker build -t sightline .`: the image, not the program
        }
        found.push(Invocation {
            global_flags: rest[..sub_at].iter().filter_map(|w| long_flag(w)).collect(),
            subcommand: sub.clone(),
            flags: rest[sub_at + 1..]
                .iter()
                .filter_map(|w| long_flag(w))
                .collect(),
        });
    }
    found
}

/// Problems with the `sightline` commands of one document, as "file:line: …".
fn command_problems(file: &str, text: &str, help: &mut Help) -> Vec<String> {
    let mut problems = Vec::new();
    for (line, command) in shell_commands(text) {
        for inv in invocations(&command) {
            let sub = inv.subcommand.as_str();
            match help.of(Some(sub)) {
                Err(why) => problems.push(format!(
                    "{file}:{line}: `sightline {sub}` is not a subcommand of the binary \
                     (`sightline {sub} --help`: {why})\n    {command}"
                )),
                Ok(text) => {
                    for flag in inv.flags.iter().filter(|f| !lists_flag(text, f)) {
                        problems.push(format!(
                            "{file}:{line}: `sightline {sub} --help` does not list {flag}\n    {command}"
                        ));
                    }
                }
            }
            if let Ok(text) = help.of(None) {
                for flag in inv.global_flags.iter().filter(|f| !lists_flag(text, f)) {
                    problems.push(format!(
                        "{file}:{line}: `sightline --help` does not list {flag}\n    {command}"
                    ));
                }
            }
        }
    }
    problems
}

/// Problems with the repository paths and relative links of one document, as "file:line: …".
/// `dir` is the document's folder, to which its links are relative.
fn path_problems(file: &str, dir: &Path, text: &str, root: &Path) -> Vec<String> {
    let mut problems = Vec::new();
    let mut in_fence = false;
    for (i, line) in text.lines().enumerate() {
        let n = i + 1;
        let t = line.trim_start();
        if t.starts_with("```") || t.starts_with("~~~") {
            in_fence = !in_fence;
        }
        for path in repo_paths(line) {
            if !root.join(&path).exists() {
                problems.push(format!(
                    "{file}:{n}: `{path}` does not exist in the repository"
                ));
            }
        }
        if in_fence {
            continue;
        }
        for target in relative_links(line) {
            if !dir.join(&target).exists() {
                problems.push(format!(
                    "{file}:{n}: the link target `{target}` does not exist (relative to {})",
                    if file.contains('/') {
                        "docs/"
                    } else {
                        "the repository root"
                    }
                ));
            }
        }
    }
    problems
}

/// Paths under [`PATH_ROOTS`] named in a line. A placeholder (`fixtures/<slug>/`,
/// `fixtures/*/`) keeps the part before it.
fn repo_paths(line: &str) -> Vec<String> {
    let path_char = |c: char| c.is_ascii_alphanumeric() || matches!(c, '_' | '.' | '-' | '/');
    let mut found = Vec::new();
    for root in PATH_ROOTS {
        for (i, _) in line.match_indices(root) {
            if line[..i].chars().next_back().is_some_and(path_char) {
                continue; // part of a longer path or a URL: `../shared/…`, `https://…/src/`
            }
            let rest = &line[i..];
            let end = rest.find(|c: char| !path_char(c)).unwrap_or(rest.len());
            let mut path = &rest[..end];
            let placeholder = rest[end..].starts_with(['<', '*', '$', '{', '[']);
            if placeholder {
                path = &path[..path.rfind('/').map_or(0, |k| k + 1)];
            }
            let path = path.trim_end_matches(['.', ',', ':']);
            if path.len() > root.len() || path == *root {
                found.push(path.to_string());
            }
        }
    }
    found
}

/// The targets of the line's relative Markdown links (`[text](target)`), without `#fragment`.
fn relative_links(line: &str) -> Vec<String> {
    let mut found = Vec::new();
    for (i, _) in line.match_indices("](") {
        let rest = &line[i + 2..];
        let Some(end) = rest.find(')') else {
            continue;
        };
        let target = rest[..end].split_whitespace().next().unwrap_or("");
        let external = target.is_empty()
            || target.starts_with('#')
            || target.contains("://")
            || target.starts_with("mailto:");
        if !external {
            found.push(target.split('#').next().unwrap_or(target).to_string());
        }
    }
    found
}

fn report(what: &str, problems: &[String]) {
    assert!(
        problems.is_empty(),
        "{what}: {} problem(s):\n{}",
        problems.len(),
        problems.join("\n")
    );
}

/// Why a README text is too long for a front page, if it is.
fn readme_problem(text: &str) -> Option<String> {
    let lines = text.lines().count();
    (lines > README_MAX_LINES).then(|| {
        format!(
            "README.md has {lines} lines, more than {README_MAX_LINES}: move reference material \
             to docs/ and history to CHANGELOG.md"
        )
    })
}

#[test]
fn readme_is_a_short_front_page() {
    let text = std::fs::read_to_string(repo().join("README.md")).expect("README.md");
    if let Some(problem) = readme_problem(&text) {
        panic!("{problem}");
    }
}

#[test]
fn sightline_commands_in_the_docs_exist_with_their_flags() {
    let mut help = Help::default();
    let mut problems = Vec::new();
    let mut checked = 0;
    for (file, text) in documents() {
        checked += shell_commands(&text)
            .iter()
            .map(|(_, c)| invocations(c).len())
            .sum::<usize>();
        problems.extend(command_problems(&file, &text, &mut help));
    }
    assert!(
        checked >= 20,
        "only {checked} sightline commands found in README.md and docs/*.md: is the scan broken?"
    );
    report("sightline commands in README.md and docs/*.md", &problems);
}

#[test]
fn paths_and_links_in_the_docs_exist() {
    let root = repo();
    let mut problems = Vec::new();
    for (file, text) in documents() {
        let dir = root.join(&file).parent().expect("a folder").to_path_buf();
        problems.extend(path_problems(&file, &dir, &text, &root));
    }
    report("paths and links in README.md and docs/*.md", &problems);
}

// The checks themselves, on made-up documents: each must be able to fail.

#[test]
fn an_unlisted_flag_and_an_unknown_subcommand_are_reported_with_their_line() {
    let doc = "intro\n\n```sh\nsightline extract page.html --no-such-flag\nsightline frobnicate --x\n```\n";
    let problems = command_problems("made-up.md", doc, &mut Help::default());
    assert_eq!(problems.len(), 2, "{problems:#?}");
    assert!(problems[0].starts_with("made-up.md:4:") && problems[0].contains("--no-such-flag"));
    assert!(problems[1].starts_with("made-up.md:5:") && problems[1].contains("frobnicate"));
}

#[test]
fn comments_continuations_pipes_and_other_programs_are_read_as_a_shell_would() {
    let doc = "```console\n$ curl -s --compressed https://example.com | sightline extract - \\\n    --charset utf-8 --offline   # --not-a-flag\nsightline extract --output-only-text\n```\n\
               ```bash\ndocker build -f examples/Dockerfile -t sightline .\nSIGHTLINE_TOKEN=x sightline serve --listen=0.0.0.0:8080\n```\n\
               ```text\nsightline extract --not-checked-in-text-blocks\n```\n";
    let commands = shell_commands(doc);
    assert_eq!(commands.len(), 3, "{commands:#?}");
    assert_eq!(commands[0].0, 2, "a continued command keeps its first line");
    let inv = invocations(&commands[0].1);
    assert_eq!(inv.len(), 1);
    assert_eq!(inv[0].subcommand, "extract");
    assert_eq!(
        inv[0].flags,
        ["--charset", "--offline"],
        "curl's flags and the comment are not sightline's"
    );
    assert!(
        invocations(&commands[1].1).is_empty(),
        "`-t sightline .` is not an invocation"
    );
    assert_eq!(invocations(&commands[2].1)[0].flags, ["--listen"]);
    assert!(command_problems("made-up.md", doc, &mut Help::default()).is_empty());
    let continued = "```sh\nsightline extract page.html \\\n  --no-such-flag\n```\n";
    let problems = command_problems("made-up.md", continued, &mut Help::default());
    assert!(
        problems.len() == 1 && problems[0].starts_with("made-up.md:2:"),
        "{problems:#?}"
    );
}

#[test]
fn missing_paths_and_link_targets_are_reported_with_their_line() {
    let root = repo();
    let doc = "Run `scripts/demo` and scripts/no-such-script.\n\
               See [cli](docs/cli.md), [gone](docs/no-such-page.md#x), [web](https://example.com/),\n\
               `fixtures/<slug>/page.html`, `examples/no-such-example.rs` and `../shared/bench/x`.\n";
    let problems = path_problems("README.md", &root, doc, &root);
    assert_eq!(problems.len(), 3, "{problems:#?}");
    assert!(
        problems[0].starts_with("README.md:1:") && problems[0].contains("scripts/no-such-script")
    );
    assert!(problems
        .iter()
        .any(|p| p.starts_with("README.md:2:") && p.contains("docs/no-such-page.md")));
    assert!(problems
        .iter()
        .any(|p| p.starts_with("README.md:3:") && p.contains("examples/no-such-example.rs")));
}

#[test]
fn a_readme_past_the_limit_is_reported() {
    assert!(readme_problem(&"line\n".repeat(README_MAX_LINES)).is_none());
    let problem = readme_problem(&"line\n".repeat(README_MAX_LINES + 1));
    assert!(problem.is_some_and(|p| p.contains("201 lines, more than 200")));
}
