//! The JSON schemas of the output record (`extract -f json`) and of the snapshot
//! (`js/snapshot.js`, `sightline snapshot`), derived from the serde types with schemars and
//! pinned in `schemas/`: a change to either format shows up here as a diff to review, not
//! as drift in a doc comment. `SIGHTLINE_BLESS=1 cargo test --test schemas` rewrites them.

use std::path::Path;

fn check(name: &str, schema: serde_json::Value) {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("schemas")
        .join(format!("{name}.schema.json"));
    let got = serde_json::to_string_pretty(&schema).unwrap() + "\n";
    if std::env::var_os("SIGHTLINE_BLESS").is_some() {
        std::fs::write(&path, &got).unwrap();
        return;
    }
    let want = std::fs::read_to_string(&path).unwrap_or_default();
    if want != got {
        let diff = similar::TextDiff::from_lines(&want, &got);
        panic!(
            "{} differs from the types' schema (review, then SIGHTLINE_BLESS=1 cargo test --test schemas):\n{}",
            path.display(),
            diff.unified_diff().header("pinned", "derived")
        );
    }
}

#[test]
fn the_record_schema_is_pinned() {
    check(
        "record",
        serde_json::to_value(schemars::schema_for!(sightline::batch::Record)).unwrap(),
    );
}

#[test]
fn the_snapshot_schema_is_pinned() {
    check(
        "snapshot",
        serde_json::to_value(schemars::schema_for!(sightline::Snapshot)).unwrap(),
    );
}

/// A record the CLI's writer produces has only the properties the schema names, with the
/// types it gives (checked on the fields a page's record always has).
#[test]
fn a_written_record_follows_the_schema() {
    use sightline::snapshot::{rect, SnapshotBuilder};
    let mut b = SnapshotBuilder::new(1000.0);
    b.title("A page");
    let p = b.el(0, "p", rect(0.0, 0.0, 800.0, 40.0));
    b.text(
        p,
        "Body text of a page, a sentence long enough to keep, with commas, and more.",
    );
    let page = sightline::Page::from_snapshot("a.json", b.build(), &sightline::Options::default());
    let record = page.json();
    let schema = serde_json::to_value(schemars::schema_for!(sightline::batch::Record)).unwrap();
    let props = schema["properties"].as_object().unwrap();
    for (k, v) in record.as_object().unwrap() {
        let s = props
            .get(k)
            .unwrap_or_else(|| panic!("record field `{k}` is not in the schema"));
        if let (Some(t), Some(want)) = (v.as_str(), s.get("type").and_then(|t| t.as_str())) {
            assert_eq!(
                want, "string",
                "`{k}` is a string ({t}) but the schema says {want}"
            );
        }
    }
}
