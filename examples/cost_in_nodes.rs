//! One extraction of a generated page of N nodes with one algorithm, for counting its cost in
//! instructions (`scripts/bench-linearity` runs this under valgrind's callgrind, whose counts
//! do not move with the machine's load, for N and 8N nodes and checks the ratio).
//!
//! The page: sections of a paragraph and a link list, seven nodes a section, all siblings
//! (`flat`), or each section inside the one before, 300 levels at a time (`deep`). Building
//! the snapshot and the tree is counted too (both linear).
//!
//! Usage: cargo run --release --example cost_in_nodes -- ALGORITHM N [flat|deep]
//!        cargo run --release --example cost_in_nodes -- --list   (every algorithm's name)

#![forbid(unsafe_code)]

use sightline::extract::extract_tree;
use sightline::snapshot::{rect, SnapshotBuilder};
use sightline::{Algorithm, Params, Snapshot, Tree};

fn page_of(n: usize, deep: bool) -> Snapshot {
    let mut b = SnapshotBuilder::new(1200.0);
    let mut y = 0.0;
    let mut parent = 0;
    for i in 0..n / 7 {
        if !deep || i % 300 == 0 {
            parent = 0;
        }
        let sec = b.el(parent, "section", rect(100.0, y, 800.0, 400.0));
        if deep {
            parent = sec;
        }
        let p = b.el(sec, "p", rect(100.0, y, 800.0, 100.0));
        b.text(
            p,
            "The ferry leaves the harbour at noon on market days only, and returns at six.",
        );
        let ul = b.el(sec, "ul", rect(100.0, y + 120.0, 200.0, 40.0));
        let li = b.el(ul, "li", rect(100.0, y + 120.0, 200.0, 20.0));
        let a = b.el(li, "a", rect(100.0, y + 120.0, 200.0, 20.0));
        b.text(a, "Home");
        y += 400.0;
    }
    b.build()
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    if args.first().map(String::as_str) == Some("--list") {
        for a in Algorithm::ALL {
            println!("{}", a.name());
        }
        return;
    }
    let (Some(a), Some(n)) = (args.first(), args.get(1)) else {
        eprintln!("usage: cost_in_nodes ALGORITHM N");
        std::process::exit(2);
    };
    let algorithm: Algorithm = a.parse().unwrap_or_else(|e| {
        eprintln!("{e}");
        std::process::exit(2)
    });
    let n: usize = n.parse().unwrap_or_else(|e| {
        eprintln!("N: {e}");
        std::process::exit(2)
    });
    let deep = match args.get(2).map(String::as_str) {
        None | Some("flat") => false,
        Some("deep") => true,
        Some(other) => {
            eprintln!("shape {other}: flat or deep");
            std::process::exit(2)
        }
    };
    let snap = page_of(n, deep);
    let tree = Tree::new(&snap);
    let ex = extract_tree(&tree, algorithm, &Params::default());
    let kept = ex.kept.iter().filter(|k| **k).count();
    println!("{} nodes, {kept} kept", snap.nodes.len());
}
