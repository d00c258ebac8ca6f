//! Tests of the snapshot reader and the tree's derived counts and paths.

use serde_json::Value;

use super::*;

/// `body > article > (h1 "Storm", p ("Rain " a "more") ), body > nav > (a "Home", a "News")`.
fn page() -> (Snapshot, [NodeId; 6]) {
    let mut b = SnapshotBuilder::new(1000.0);
    let art = b.el(0, "article", rect(0.0, 0.0, 800.0, 400.0));
    let h1 = b.el(art, "h1", rect(0.0, 0.0, 800.0, 40.0));
    b.text(h1, "Storm");
    let p = b.el(art, "p", rect(0.0, 50.0, 800.0, 100.0));
    b.text(p, " Rain ");
    let a = b.el(p, "a", rect(0.0, 50.0, 100.0, 20.0));
    b.text(a, "more");
    let nav = b.el(0, "nav", rect(0.0, 500.0, 800.0, 40.0));
    for t in ["Home", "News"] {
        let l = b.el(nav, "a", rect(0.0, 500.0, 100.0, 20.0));
        b.text(l, t);
    }
    (b.build(), [art, h1, p, a, nav, 0])
}

/// The page's JSON with `change` applied to its JSON value.
fn json_with(change: impl FnOnce(&mut Value)) -> String {
    let (snap, _) = page();
    let mut v: Value = serde_json::from_str(&snap.to_json()).unwrap();
    change(&mut v);
    v.to_string()
}

fn reader_error(json: &str) -> String {
    match Snapshot::from_json(json, "page.json") {
        Ok(_) => panic!("accepted an invalid snapshot"),
        Err(e) => {
            assert_eq!(e.kind(), "snapshot");
            let s = e.to_string();
            assert!(s.contains("page.json"), "names the input: {s}");
            s
        }
    }
}

#[test]
fn a_written_snapshot_reads_back_the_same() {
    let (snap, _) = page();
    let back = Snapshot::from_json(&snap.to_json(), "page.json").unwrap();
    assert_eq!(back.to_json(), snap.to_json());
    assert_eq!(back.nodes.len(), snap.nodes.len());
}

#[test]
fn an_unknown_schema_version_is_refused() {
    let e = reader_error(&json_with(|v| {
        v["schema_version"] = (SCHEMA_VERSION + 1).into()
    }));
    assert!(e.contains("schema_version 2 is not supported"), "{e}");
    assert!(
        e.contains("sightline snapshot"),
        "says how to make a new one: {e}"
    );
}

#[test]
fn a_snapshot_without_nodes_or_root_is_refused() {
    let e = reader_error(&json_with(|v| v["nodes"] = Value::Array(Vec::new())));
    assert!(e.contains("no nodes"), "{e}");
    let e = reader_error(&json_with(|v| v["nodes"][0]["parent"] = 3.into()));
    assert!(e.contains("nodes[0] must be the root"), "{e}");
}

#[test]
fn a_parent_after_its_child_is_refused() {
    let e = reader_error(&json_with(|v| v["nodes"][1]["parent"] = 5.into()));
    assert!(
        e.contains("nodes[1].parent 5 must point to an earlier node"),
        "{e}"
    );
    let e = reader_error(&json_with(|v| v["nodes"][2]["parent"] = (-1).into()));
    assert!(e.contains("nodes[2].parent -1"), "{e}");
}

#[test]
fn a_text_node_cannot_be_a_parent() {
    // nodes[3] is the h1's text "Storm".
    let e = reader_error(&json_with(|v| v["nodes"][4]["parent"] = 3.into()));
    assert!(e.contains("nodes[4] has a text node as parent"), "{e}");
}

#[test]
fn invalid_json_is_a_snapshot_error_with_its_cause() {
    let e = Snapshot::from_json("{\"schema_version\": 1, ", "page.json").unwrap_err();
    assert_eq!(e.kind(), "snapshot");
    assert!(
        std::error::Error::source(&e).is_some(),
        "keeps the JSON error"
    );
    reader_error("[]");
}

#[test]
fn tree_counts_characters_tags_and_links() {
    let (snap, [art, h1, p, a, nav, root]) = page();
    let t = Tree::new(&snap);
    assert_eq!(t.len(), snap.nodes.len());
    assert_eq!(t.children[art], vec![h1, p]);
    // Text is trimmed: " Rain " counts 4.
    assert_eq!(t.own_chars[p + 1], 4);
    assert_eq!(t.chars[h1], 5);
    assert_eq!(t.chars[p], 4 + 4);
    assert_eq!(t.chars[art], 5 + 8);
    assert_eq!(t.chars[nav], 8);
    assert_eq!(t.chars[root], 13 + 8);
    // TagNumber: element descendants, not the node itself.
    assert_eq!(t.tags[p], 1);
    assert_eq!(t.tags[art], 3);
    assert_eq!(t.tags[root], 7);
    // Link characters and link tags.
    assert_eq!(t.link_chars[a], 4);
    assert_eq!(t.link_chars[p], 4);
    assert_eq!(t.link_chars[nav], 8);
    assert_eq!(t.link_chars[root], 12);
    assert_eq!(t.link_tags[p], 1);
    assert_eq!(t.link_tags[nav], 2);
    assert_eq!(t.link_tags[root], 3);
    assert_eq!(t.parent(h1), Some(art));
    assert_eq!(t.parent(root), None);
}

#[test]
fn css_paths_number_only_repeated_tags() {
    let (snap, [art, _, p, a, nav, root]) = page();
    let t = Tree::new(&snap);
    assert_eq!(t.css_path(root), "body");
    assert_eq!(t.css_path(art), "body > article");
    assert_eq!(t.css_path(a), "body > article > p > a");
    // A text node gets its parent's path.
    assert_eq!(t.css_path(p + 1), "body > article > p");
    let second = t.children[nav][1];
    assert_eq!(t.css_path(second), "body > nav > a:nth-of-type(2)");
    assert_eq!(t.css_path(second + 1), "body > nav > a:nth-of-type(2)");
}

/// The rule `css_path` had before its sibling indices were computed once per page: walk up,
/// scanning the siblings at every step.
fn css_path_by_scanning(t: &Tree, id: NodeId) -> String {
    let id = if t.node(id).is_text() {
        t.parent(id).unwrap_or(0)
    } else {
        id
    };
    let mut parts: Vec<(&str, usize)> = Vec::new();
    let mut cur = id;
    while let Some(p) = t.parent(cur) {
        let tag = t.node(cur).tag.as_str();
        let (mut same, mut k) = (0, 0);
        for &c in &t.children[p] {
            if t.node(c).tag == tag {
                same += 1;
                if c == cur {
                    k = same;
                }
            }
        }
        parts.push((tag, if same > 1 { k.max(1) } else { 0 }));
        cur = p;
    }
    let mut out = t.node(cur).tag.clone();
    for (tag, k) in parts.into_iter().rev() {
        out.push_str(" > ");
        out.push_str(tag);
        if k > 0 {
            out.push_str(&format!(":nth-of-type({k})"));
        }
    }
    out
}

#[test]
fn css_paths_equal_the_sibling_scan_on_a_real_page() {
    let json = include_str!("../../../../fixtures/blocks-cards/snapshot.json");
    let s = Snapshot::from_json(json, "blocks-cards").expect("valid snapshot");
    let t = Tree::new(&s);
    assert!(t.len() > 100, "the whole fixture page");
    for id in 0..t.len() {
        assert_eq!(t.css_path(id), css_path_by_scanning(&t, id), "node {id}");
    }
}

/// The snapshot script copies exactly the attributes [`WRITER_ATTRS`] names.
#[test]
fn writer_attrs_match_the_snapshot_script() {
    let js = include_str!("../../../../js/snapshot.js");
    let start = js
        .find("const WRITER_ATTRS = [")
        .expect("WRITER_ATTRS in js/snapshot.js");
    let list = &js[start..start + js[start..].find("];").unwrap()];
    let names: Vec<&str> = list.split('"').skip(1).step_by(2).collect();
    assert_eq!(names, WRITER_ATTRS.to_vec());
}

/// The snapshot script writes each computed attribute under the name [`computed`] gives it.
#[test]
fn computed_attrs_match_the_snapshot_script() {
    let js = include_str!("../../../../js/snapshot.js");
    for name in super::computed::ALL {
        assert!(
            js.contains(&format!("(o.attrs || (o.attrs = {{}}))[\"{name}\"] =")),
            "{name} is not written into attrs by js/snapshot.js"
        );
    }
}
