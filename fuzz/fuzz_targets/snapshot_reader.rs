//! Fuzz target: the snapshot reader. Any bytes given to `Snapshot::from_json` are a snapshot
//! or a typed error, never a panic; a snapshot that reads is scored by every algorithm and
//! written by every writer.
#![no_main]

use libfuzzer_sys::fuzz_target;
use sightline_core::extract::{extract_tree, Algorithm, Params};
use sightline_core::output;
use sightline_core::snapshot::{Snapshot, Tree};

fuzz_target!(|data: &[u8]| {
    let Ok(json) = std::str::from_utf8(data) else {
        return;
    };
    let Ok(snap) = Snapshot::from_json(json, "fuzz") else {
        return;
    };
    let tree = Tree::new(&snap);
    let params = Params::default();
    for a in Algorithm::ALL {
        let ex = extract_tree(&tree, a, &params);
        output::text::render(&tree, &ex);
        output::markdown::render(&tree, &ex);
        output::html::render(&tree, &ex);
    }
});
