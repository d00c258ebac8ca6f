//! One `grabArticle` attempt: removal, scoring of paragraph-like nodes, the top candidate,
//! the joined siblings, and the cleaning of the article ([`super::clean`]).

use super::clean::clean;
use super::*;

/// One `grabArticle` attempt: 0 with every flag, 1 without stripping unlikely candidates,
/// 2 also without class weights, 3 also without conditional cleaning.
pub(super) fn attempt_article(
    tree: &Tree,
    base: &Base,
    class_weights: &[f64],
    attempt: usize,
) -> Readability {
    let n = tree.len();
    let strip = attempt == 0;
    let weigh = attempt <= 1;
    let clean_conditionally = attempt <= 2;
    let cw = |i: usize| if weigh { class_weights[i] } else { 0.0 };

    // 1. Removal of hidden nodes and unlikely candidates.
    let mut removed = vec![false; n];
    for i in 1..n {
        let p = tree.parent(i).unwrap_or(0);
        if removed[p] || base.hidden[i] {
            removed[i] = true;
            continue;
        }
        let nd = tree.node(i);
        if nd.is_text() || !strip {
            continue;
        }
        if base.unlikely[i] && !base.in_table_or_code[i] && nd.tag != "a" {
            removed[i] = true;
            continue;
        }
        if nd
            .role
            .as_deref()
            .is_some_and(|r| UNLIKELY_ROLES.contains(&r.trim()))
        {
            removed[i] = true;
        }
    }

    // Bottom-up counts over the kept nodes.
    let mut chars = vec![0usize; n];
    let mut link = vec![0usize; n];
    let mut commas = vec![0usize; n];
    let mut block_desc = vec![false; n]; // a DIV_TO_P element below
    let mut elem_children = vec![0usize; n];
    for i in (0..n).rev() {
        if removed[i] {
            continue;
        }
        let nd = tree.node(i);
        if nd.is_text() {
            chars[i] = tree.own_chars[i];
            if nd.link {
                link[i] = chars[i];
            }
            commas[i] = nd
                .text
                .as_deref()
                .map_or(0, |t| t.chars().filter(|&c| is_comma(c)).count());
        }
        if let Some(p) = tree.parent(i) {
            chars[p] += chars[i];
            link[p] += link[i];
            commas[p] += commas[i];
            if nd.is_element() {
                elem_children[p] += 1;
                if block_desc[i] || DIV_TO_P_ELEMS.contains(&nd.tag.as_str()) {
                    block_desc[p] = true;
                }
            }
        }
    }
    let density = |i: usize| link[i] as f64 / chars[i].max(1) as f64;

    // 2. Paragraph-like nodes. A div without block descendants is a paragraph (`as_p`); a
    // div with one `p` child, no text of its own and little link text is replaced by that
    // `p` (`collapsed`); runs of phrasing content in other divs become paragraphs.
    let mut as_p = vec![false; n];
    let mut collapsed = vec![false; n];
    // (first ancestor, text length, commas) of each paragraph to score, in document order.
    let mut paragraphs: Vec<(NodeId, usize, usize)> = Vec::new();
    let mut virtual_p = vec![0usize; n]; // paragraphs made from phrasing runs, per div
    for i in 0..n {
        let nd = tree.node(i);
        if removed[i] || nd.is_text() {
            continue;
        }
        let tag = nd.tag.as_str();
        if tag == "div" {
            let kids: Vec<NodeId> = tree.children[i]
                .iter()
                .copied()
                .filter(|&c| !removed[c])
                .collect();
            let own_text: usize = kids
                .iter()
                .filter(|&&c| tree.node(c).is_text())
                .map(|&c| chars[c])
                .sum();
            let elems: Vec<NodeId> = kids
                .iter()
                .copied()
                .filter(|&c| tree.node(c).is_element())
                .collect();
            if elems.len() == 1
                && tree.node(elems[0]).tag == "p"
                && own_text == 0
                && density(i) < 0.25
            {
                collapsed[i] = true;
                continue;
            }
            if !block_desc[i] {
                as_p[i] = true;
                if let Some(p) = tree.parent(i) {
                    paragraphs.push((p, chars[i], commas[i]));
                }
                continue;
            }
            // Runs of phrasing content (text, inline elements without block descendants).
            let (mut len, mut cm, mut open) = (0usize, 0usize, false);
            for &c in &kids {
                let cn = tree.node(c);
                let phrasing = cn.is_text() || (!tree.is_block(c) && !block_desc[c]);
                if phrasing {
                    if open || chars[c] > 0 {
                        open = true;
                        len += chars[c];
                        cm += commas[c];
                    }
                } else if open {
                    paragraphs.push((i, len, cm));
                    virtual_p[i] += 1;
                    (len, cm, open) = (0, 0, false);
                }
            }
            if open {
                paragraphs.push((i, len, cm));
                virtual_p[i] += 1;
            }
        } else if TAGS_TO_SCORE.contains(&tag) {
            if let Some(p) = tree.parent(i) {
                paragraphs.push((p, chars[i], commas[i]));
            }
        }
    }

    // Scoring: up to 5 ancestors (collapsed divs are gone from the DOM).
    let mut score = vec![f64::NAN; n];
    let mut order: Vec<NodeId> = Vec::new();
    for &(first, len, cm) in &paragraphs {
        if len < 25 {
            continue;
        }
        let content = 1.0 + (cm + 1) as f64 + (len / 100).min(3) as f64;
        let mut level = 0usize;
        let mut cur = Some(first);
        while let Some(a) = cur {
            cur = tree.parent(a);
            if collapsed[a] {
                continue;
            }
            if score[a].is_nan() {
                let tag = if as_p[a] {
                    "p"
                } else {
                    tree.node(a).tag.as_str()
                };
                score[a] = tag_score(tag) + cw(a);
                order.push(a);
            }
            let divider = match level {
                0 => 1.0,
                1 => 2.0,
                l => l as f64 * 3.0,
            };
            score[a] += content / divider;
            level += 1;
            if level == 5 {
                break;
            }
        }
    }

    // 3. Link-density scaling and the top candidate.
    for &c in &order {
        score[c] *= 1.0 - density(c);
    }
    let mut ranked = order.clone();
    ranked.sort_by(|&a, &b| score[b].total_cmp(&score[a]));
    ranked.truncate(N_TOP_CANDIDATES);
    let mut in_article = vec![false; n];
    let mut in_top = vec![false; n];
    let whole = |removed: &[bool], flags: &mut [bool]| {
        for (f, r) in flags.iter_mut().zip(removed) {
            *f = !r;
        }
    };
    let top0 = ranked.first().copied().filter(|&t| t != 0);
    let (top, top_score) = match top0 {
        None => {
            whole(&removed, &mut in_article);
            whole(&removed, &mut in_top);
            (0, 1e-9)
        }
        Some(mut top) => {
            let top_raw = score[top];
            // Alternatives within 75 % of the top: move up to an ancestor holding 3 of them.
            let alts: Vec<NodeId> = ranked[1..]
                .iter()
                .copied()
                .filter(|&c| top_raw != 0.0 && score[c] / top_raw >= 0.75)
                .collect();
            if alts.len() >= MIN_TOP_CANDIDATES {
                let mut p = tree.parent(top);
                while let Some(a) = p.filter(|&a| a != 0) {
                    let holding = alts
                        .iter()
                        .filter(|&&c| c != a && tree.contains(a, c))
                        .count();
                    if holding >= MIN_TOP_CANDIDATES {
                        top = a;
                        break;
                    }
                    p = tree.parent(a);
                }
            }
            if score[top].is_nan() {
                score[top] = tag_score(tree.node(top).tag.as_str()) + cw(top);
            }
            // A parent scoring more than the top takes over, while scores stay above a third.
            let mut last = score[top];
            let threshold = last / 3.0;
            let mut p = tree.parent(top);
            while let Some(a) = p.filter(|&a| a != 0) {
                if score[a].is_nan() {
                    p = tree.parent(a);
                    continue;
                }
                if score[a] < threshold {
                    break;
                }
                if score[a] > last {
                    top = a;
                    break;
                }
                last = score[a];
                p = tree.parent(a);
            }
            // Up through single-child parents.
            while let Some(a) = tree
                .parent(top)
                .filter(|&a| a != 0 && elem_children[a] == 1)
            {
                top = a;
            }
            if score[top].is_nan() {
                score[top] = tag_score(tree.node(top).tag.as_str()) + cw(top);
            }
            let ts = score[top];
            for i in tree.subtree(top) {
                in_top[i] = !removed[i];
            }
            // 4. Siblings.
            let sib_threshold = (ts * 0.2).max(10.0);
            let parent = tree.parent(top).unwrap_or(0);
            let top_candidate = TopCandidate {
                class: tree.node(top).class.as_deref().unwrap_or(""),
                score: ts,
                threshold: sib_threshold,
            };
            let nodes = NodeFacts {
                score: &score,
                collapsed: &collapsed,
                as_p: &as_p,
                chars: &chars,
                removed: &removed,
            };
            for &s in &tree.children[parent] {
                if removed[s]
                    || tree.node(s).is_element()
                        && s != top
                        && !joins(tree, s, &top_candidate, &nodes, density(s))
                {
                    continue;
                }
                if tree.node(s).is_text() {
                    continue;
                }
                for i in tree.subtree(s) {
                    in_article[i] = !removed[i];
                }
            }
            (top, ts.abs().max(1e-9))
        }
    };

    // 6. prepArticle's cleaning.
    let cleaned = clean(
        tree,
        &removed,
        &in_article,
        &Counts {
            chars: &chars,
            link: &link,
            commas: &commas,
            as_p: &as_p,
            virtual_p: &virtual_p,
        },
        class_weights,
        weigh,
        clean_conditionally,
    );
    let article_chars = (0..n)
        .filter(|&i| tree.node(i).is_text() && in_article[i] && !removed[i] && !cleaned[i])
        .map(|i| tree.own_chars[i])
        .sum();
    Readability {
        score,
        top,
        top_score,
        in_top,
        in_article,
        removed,
        cleaned,
        class_weight: class_weights.to_vec(),
        article_chars,
        attempt,
    }
}

/// The top candidate, as its siblings are measured against it.
struct TopCandidate<'a> {
    /// Its class (`""` without one): a sibling of the same class gets a bonus.
    class: &'a str,
    /// Its score.
    score: f64,
    /// The score a sibling needs: a fifth of the top's, at least 10.
    threshold: f64,
}

/// What the attempt knows of each node, indexed by node id.
struct NodeFacts<'a> {
    score: &'a [f64],
    collapsed: &'a [bool],
    as_p: &'a [bool],
    chars: &'a [usize],
    removed: &'a [bool],
}

/// Does sibling `s` join the top candidate's article?
fn joins(
    tree: &Tree,
    s: NodeId,
    top: &TopCandidate<'_>,
    nodes: &NodeFacts<'_>,
    link_density: f64,
) -> bool {
    let NodeFacts {
        score,
        collapsed,
        as_p,
        chars,
        removed,
    } = *nodes;
    let (top_class, top_score, threshold) = (top.class, top.score, top.threshold);
    let nd = tree.node(s);
    // A collapsed div stands for its paragraph.
    let sc = if collapsed[s] {
        tree.children[s]
            .iter()
            .copied()
            .find(|&c| tree.node(c).is_element())
            .unwrap_or(s)
    } else {
        s
    };
    let bonus = if !top_class.is_empty() && nd.class.as_deref() == Some(top_class) {
        top_score * 0.2
    } else {
        0.0
    };
    if !score[sc].is_nan() && score[sc] + bonus >= threshold {
        return true;
    }
    if tree.node(sc).tag == "p" || as_p[sc] {
        let len = chars[sc];
        if len > 80 && link_density < 0.25 {
            return true;
        }
        if len < 80 && len > 0 && link_density == 0.0 {
            let mut text = String::new();
            for i in tree.subtree(sc) {
                if !removed[i] {
                    if let Some(t) = &tree.node(i).text {
                        text.push_str(t);
                    }
                }
            }
            let t = text.trim_end();
            return t.ends_with('.') || t.contains(". ");
        }
    }
    false
}
