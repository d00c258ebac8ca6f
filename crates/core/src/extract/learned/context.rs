//! Page-relative, repetition and text-pattern features of the `learned` classifier: what a
//! unit is *compared with the rest of its page*, so that one page's scale (long or short
//! paragraphs, large or small type, wide or narrow layout) does not matter, and whether it
//! sits in a repeated record (the items of a listing, the posts of a forum, the cards of a
//! collection) or reads like a price, a rating, a date or a post's metadata; short edge lines
//! and a shop's chrome (as a line, or as the heading a unit is under); machine identifiers.
//!
//! [`context_features`] gives [`CONTEXT_FEATURES`]`.len()` values per unit, in that list's
//! order (`schema::FEATURES` ends with it).

use std::collections::HashMap;

use super::schema::CONTEXT_FEATURES;
use super::units::Unit;
use crate::snapshot::{NodeId, Tree};

/// Rank of each value among `v` in [0, 1] (ties get their mean rank).
fn ranks(v: &[f64]) -> Vec<f64> {
    let n = v.len();
    let mut idx: Vec<usize> = (0..n).collect();
    idx.sort_by(|&a, &b| v[a].total_cmp(&v[b]));
    let mut out = vec![0.0; n];
    let mut i = 0;
    while i < n {
        let mut j = i;
        while j + 1 < n && v[idx[j + 1]] == v[idx[i]] {
            j += 1;
        }
        let r = (i + j) as f64 / 2.0 / (n.max(2) - 1) as f64;
        for &k in &idx[i..=j] {
            out[k] = r;
        }
        i = j + 1;
    }
    out
}

/// z-scores of `v` (0 when the page has no spread).
fn zscores(v: &[f64]) -> Vec<f64> {
    let n = v.len().max(1) as f64;
    let mean = v.iter().sum::<f64>() / n;
    let var = v.iter().map(|x| (x - mean).powi(2)).sum::<f64>() / n;
    let sd = var.sqrt();
    v.iter()
        .map(|x| {
            if sd > 1e-9 {
                ((x - mean) / sd).clamp(-5.0, 5.0)
            } else {
                0.0
            }
        })
        .collect()
}

/// Does `text` hold a price: a currency sign or code next to a digit?
pub fn has_price(text: &str) -> bool {
    let cs: Vec<char> = text.chars().collect();
    let sign = |c: char| matches!(c, '$' | '€' | '£' | '¥' | '₹' | '₽' | '₩' | '元');
    for (i, &c) in cs.iter().enumerate() {
        if sign(c) {
            let near = |k: Option<usize>| {
                k.and_then(|k| cs.get(k))
                    .is_some_and(|d| d.is_ascii_digit())
            };
            let skip = |k: usize| cs.get(k).is_some_and(|d| *d == ' ');
            if near(i.checked_sub(1))
                || near(Some(i + 1))
                || (skip(i + 1) && near(Some(i + 2)))
                || (i >= 2 && skip(i - 1) && near(Some(i - 2)))
            {
                return true;
            }
        }
    }
    let lower = text.to_lowercase();
    ["usd", "eur", "gbp", "price", "preis", "prix", "precio"]
        .iter()
        .any(|w| lower.contains(w))
        && text.chars().any(|c| c.is_ascii_digit())
}

/// Does `text` look like a rating (stars, "4.5/5", "out of 5", "stars")?
pub fn has_rating(text: &str) -> bool {
    if text.chars().any(|c| matches!(c, '★' | '☆' | '⭐')) {
        return true;
    }
    let lower = text.to_lowercase();
    lower.contains("/5")
        || lower.contains("out of 5")
        || lower.contains("stars")
        || lower.contains("rating")
}

const MONTHS: [&str; 24] = [
    "jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec", "januar",
    "februar", "märz", "mai", "juni", "juli", "okt", "dez", "janvier", "février", "mars", "avril",
];

/// Does `text` hold a date: `2024-05-01`, `1/5/2024`, `01.05.2024`, or a month name next to
/// a number?
pub fn has_date(text: &str) -> bool {
    let cs: Vec<char> = text.chars().collect();
    // digit groups separated by - / . with a 4-digit or 2-digit group
    let mut i = 0;
    while i < cs.len() {
        if cs[i].is_ascii_digit() {
            let mut groups = 1;
            let mut j = i;
            let mut sep = None;
            loop {
                while j < cs.len() && cs[j].is_ascii_digit() {
                    j += 1;
                }
                if j + 1 < cs.len()
                    && matches!(cs[j], '-' | '/' | '.')
                    && sep.is_none_or(|s| s == cs[j])
                    && cs[j + 1].is_ascii_digit()
                {
                    sep = Some(cs[j]);
                    groups += 1;
                    j += 1;
                } else {
                    break;
                }
            }
            if groups >= 3 && j - i <= 10 {
                return true;
            }
            i = j.max(i + 1);
        } else {
            i += 1;
        }
    }
    if !text.chars().any(|c| c.is_ascii_digit()) {
        return false;
    }
    let lower = text.to_lowercase();
    lower
        .split(|c: char| !c.is_alphabetic())
        .any(|w| w.len() >= 3 && MONTHS.iter().any(|m| w.starts_with(m)) && w.len() <= 9)
}

/// "3 hours ago", "vor 2 Tagen", "yesterday", or a clock time `12:30`.
pub fn has_time_ago(text: &str) -> bool {
    let lower = text.to_lowercase();
    if ["ago", "yesterday", "vor ", "il y a", "hace "]
        .iter()
        .any(|w| lower.contains(w))
        && lower.chars().any(|c| c.is_ascii_digit() || c == 'y')
    {
        return true;
    }
    let cs: Vec<char> = text.chars().collect();
    cs.windows(4).any(|w| {
        w[0].is_ascii_digit() && w[1] == ':' && w[2].is_ascii_digit() && w[3].is_ascii_digit()
    })
}

/// Words of forum and comment chrome: "reply", "quote", "posts:", "joined", "report".
pub fn forum_words(text: &str) -> f64 {
    let lower = text.to_lowercase();
    [
        "reply",
        "quote",
        "posts:",
        "joined",
        "report",
        "permalink",
        "member",
        "likes",
        "upvote",
        "points",
    ]
    .iter()
    .filter(|w| lower.contains(*w))
    .count() as f64
}

/// The kinds of short edge lines next to an article that are not part of it, in the languages
/// of the benchmark (English, German, French, Spanish, Polish, Italian, Dutch, Portuguese):
/// headings of related sections, photo credits, bylines with roles, and post footers with
/// share or rating prompts. Each list is matched on the lower-cased text of a unit of at most
/// [`EDGE_MAX_WORDS`] words.
pub const EDGE_PHRASES: [(&str, &[&str]); 4] = [
    (
        "related",
        &[
            "related",
            "read more",
            "read next",
            "more from",
            "more on",
            "more stories",
            "you may also",
            "you might also",
            "recommended",
            "most popular",
            "most read",
            "trending",
            "mehr zu",
            "mehr zum",
            "weitere artikel",
            "meistgelesen",
            "meistdiskutiert",
            "auch interessant",
            "das könnte",
            "lesen sie auch",
            "dans la même rubrique",
            "à lire aussi",
            "lire aussi",
            "sur le même sujet",
            "les plus lus",
            "te puede interesar",
            "más noticias",
            "lo más leído",
            "czytaj także",
            "czytaj też",
            "zobacz także",
            "najczęściej czytane",
            "leggi anche",
            "potrebbe interessarti",
            "lees ook",
            "leia também",
        ],
    ),
    (
        "credit",
        &[
            "getty images",
            "photo:",
            "photo by",
            "photograph:",
            "image:",
            "image credit",
            "credit:",
            "foto:",
            "bild:",
            "fotó:",
            "zdjęcie:",
            "crédit",
            "reuters/",
            "ap photo",
            "afp",
            "shutterstock",
            "istock",
            "via instagram",
            "©",
        ],
    ),
    (
        "role",
        &[
            "staff writer",
            "staff reporter",
            "reporter",
            "correspondent",
            "contributor",
            "editor",
            "redakteur",
            "redaktion",
            "journaliste",
            "rédaction",
            "redakcja",
            "redattore",
            "redactor",
            "follow on",
            "follow him",
            "follow her",
        ],
    ),
    (
        "footer",
        &[
            "this entry was posted",
            "posted in",
            "filed under",
            "tagged",
            "tags:",
            "share this",
            "share on",
            "share:",
            "teilen",
            "partager",
            "compartir",
            "udostępnij",
            "condividi",
            "was this article helpful",
            "war der artikel",
            "war dieser artikel",
            "cet article vous a",
            "rate this",
            "bewerten",
            "print this",
            "report an error",
            "fehler melden",
            "signaler une erreur",
        ],
    ),
];

/// The index of the "related" kind in [`EDGE_PHRASES`].
const EDGE_RELATED: usize = 0;

/// The longest unit (in words) [`EDGE_PHRASES`] are looked for in.
pub const EDGE_MAX_WORDS: usize = 12;

/// Has `text` more than [`EDGE_MAX_WORDS`] words? (Reads no further than that.)
fn is_long(text: &str) -> bool {
    text.split_whitespace().nth(EDGE_MAX_WORDS).is_some()
}

/// For each kind of [`EDGE_PHRASES`], then for [`SHOP_PHRASES`], 1 when `text` is short and
/// holds one of its phrases (the features `edge_related` … `edge_footer`, `edge_shop`).
pub fn edge_kinds(text: &str) -> [f64; 5] {
    let mut out = [0.0; 5];
    if is_long(text) {
        return out;
    }
    let lower = text.to_lowercase();
    for (k, (_, phrases)) in EDGE_PHRASES.iter().enumerate() {
        if phrases.iter().any(|p| lower.contains(p)) {
            out[k] = 1.0;
        }
    }
    if SHOP_PHRASES.iter().any(|p| lower.contains(p)) {
        out[4] = 1.0;
    }
    out
}

/// Phrases of a shop's chrome around a product's description, in the benchmark's languages:
/// the buy box, stock, sizes, shipping and returns, reviews and the "also viewed" carousels.
/// Matched like [`EDGE_PHRASES`]: on short units ([`edge_kinds`]) and on the heading a unit is
/// under ([`HeadingScope`]).
pub const SHOP_PHRASES: &[&str] = &[
    "add to cart",
    "add to bag",
    "add to basket",
    "add to wish",
    "add to list",
    "buy now",
    "in stock",
    "out of stock",
    "select a size",
    "select size",
    "size guide",
    "size chart",
    "quantity",
    "free shipping",
    "free delivery",
    "shipping",
    "delivery",
    "returns",
    "checkout",
    "sold by",
    "seller",
    "customers also",
    "also viewed",
    "also bought",
    "also like",
    "recently viewed",
    "frequently bought",
    "similar items",
    "similar products",
    "sponsored",
    "notify me",
    "write a review",
    "reviews",
    "ratings",
    "questions & answers",
    "warenkorb",
    "lieferung",
    "versand",
    "rückgabe",
    "auf lager",
    "bewertungen",
    "panier",
    "livraison",
    "retours",
    "en stock",
    "avis clients",
    "carrito",
    "envío",
    "devoluciones",
    "opiniones",
    "koszyk",
    "dostawa",
    "opinie",
    "carrello",
    "spedizione",
    "recensioni",
    "winkelwagen",
    "verzending",
    "carrinho",
    "frete",
];

/// Is `word` a machine identifier rather than a word: a hexadecimal string or UUID, or a long
/// mix of letters and digits (tracking ids, hashes, session tokens)? Punctuation around it is
/// ignored; short codes ("A2A1K-BBBB", "SM7dB", "2024") are words.
pub fn is_machine_token(word: &str) -> bool {
    if word.len() < 12 {
        return false; // fewer bytes than 12, so fewer characters
    }
    let w = word.trim_matches(|c: char| !c.is_alphanumeric());
    let len = w.chars().count();
    if len < 12
        || !w
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_')
    {
        return false;
    }
    let digits = w.chars().filter(|c| c.is_ascii_digit()).count();
    let letters = w.chars().filter(|c| c.is_ascii_alphabetic()).count();
    let hex = w.chars().all(|c| c.is_ascii_hexdigit() || c == '-');
    (hex && digits >= 4 && letters >= 2) || (len >= 16 && digits >= 3 && letters >= 3)
}

/// The share of `text`'s words that are [machine tokens](is_machine_token).
pub fn machine_token_share(text: &str) -> f64 {
    let (mut n, mut m) = (0usize, 0usize);
    for w in text.split_whitespace() {
        n += 1;
        m += usize::from(is_machine_token(w));
    }
    if n == 0 {
        0.0
    } else {
        m as f64 / n as f64
    }
}

/// The heading a unit is under, in reading order: a heading (`h1`–`h6`) of level L holds
/// until the next heading of level L or above; a sub-heading inherits its section's flags.
/// Each flag says the heading (or one above it) holds a [`SHOP_PHRASES`] or an
/// [`EDGE_PHRASES`] "related" phrase.
#[derive(Default)]
struct HeadingScope {
    /// (level, shop, related) of the open headings, outermost first.
    open: Vec<(u8, bool, bool)>,
}

impl HeadingScope {
    /// Read one unit (`level`: the heading it is in, if any); returns its (shop, related)
    /// flags.
    fn read(&mut self, level: Option<u8>, text: &str) -> (bool, bool) {
        if let Some(level) = level {
            while self.open.last().is_some_and(|o| o.0 >= level) {
                self.open.pop();
            }
            let (outer_shop, outer_related) = self.flags();
            let lower = text.to_lowercase();
            let shop = SHOP_PHRASES.iter().any(|p| lower.contains(p));
            let related = EDGE_PHRASES[EDGE_RELATED]
                .1
                .iter()
                .any(|p| lower.contains(p));
            self.open
                .push((level, shop || outer_shop, related || outer_related));
        }
        self.flags()
    }

    fn flags(&self) -> (bool, bool) {
        self.open.last().map_or((false, false), |o| (o.1, o.2))
    }
}

/// A signature of one element for the repeated-record test: its tag and class.
fn signature<'a>(tree: &Tree<'a>, i: NodeId) -> (&'a str, &'a str) {
    let nd = tree.node(i);
    (nd.tag.as_str(), nd.class.as_deref().unwrap_or(""))
}

/// The context features of each unit: `CONTEXT_FEATURES.len()` values per unit, row-major.
/// `chars`, `link_ratio` and `font` are the units' character counts, link ratios and font
/// sizes (px).
pub fn context_features(
    tree: &Tree,
    units: &[Unit],
    chars: &[usize],
    link_ratio: &[f64],
    font: &[f64],
) -> Vec<f64> {
    let nu = units.len();
    let m = CONTEXT_FEATURES.len();
    let mut out = Vec::with_capacity(nu * m);
    if nu == 0 {
        return out;
    }
    let page_chars = chars.iter().sum::<usize>().max(1) as f64;
    let ln_chars: Vec<f64> = chars.iter().map(|&c| (c as f64).ln_1p()).collect();
    let chars_rank = ranks(&ln_chars);
    let chars_z = zscores(&ln_chars);
    let link_z = zscores(link_ratio);
    let font_rank = ranks(font);
    let widest = units
        .iter()
        .map(|u| tree.node(u.block).rect.w)
        .fold(0.0f64, f64::max)
        .max(1.0);
    // The character-weighted median left edge of the page's text.
    let mut xs: Vec<(f64, usize)> = units
        .iter()
        .zip(chars)
        .map(|(u, &c)| (tree.node(u.block).rect.x, c))
        .collect();
    xs.sort_by(|a, b| a.0.total_cmp(&b.0));
    let mut acc = 0;
    let mut text_x = 0.0;
    for (x, c) in &xs {
        acc += c;
        if acc as f64 * 2.0 >= page_chars {
            text_x = *x;
            break;
        }
    }
    let vw = tree.snap.viewport.width.max(1.0);

    // Repetition: for the block and its three ancestors, how many siblings share its tag
    // and class. Counted once per parent.
    let mut same_cache: HashMap<NodeId, usize> = HashMap::new();
    let mut same = |i: NodeId| -> usize {
        if let Some(&c) = same_cache.get(&i) {
            return c;
        }
        let c = match tree.parent(i) {
            None => 1,
            Some(p) => {
                let s = signature(tree, i);
                tree.children[p]
                    .iter()
                    .filter(|&&c| tree.node(c).is_element() && signature(tree, c) == s)
                    .count()
            }
        };
        same_cache.insert(i, c);
        c
    };
    let mut rep = Vec::with_capacity(nu);
    for u in units {
        let levels = [u.block, u.ancestors[0], u.ancestors[1], u.ancestors[2]];
        let (mut best, mut level) = (1usize, -1.0);
        for (l, &a) in levels.iter().enumerate() {
            if a == 0 {
                break;
            }
            let c = same(a);
            // A record has siblings; a paragraph among paragraphs is not one, so the block
            // level counts only for non-paragraph tags.
            if l == 0 && matches!(tree.node(a).tag.as_str(), "p" | "br") {
                continue;
            }
            if c > best {
                best = c;
                level = l as f64;
            }
        }
        // The same tag path (tags only) among the grandparent's descendants' parents.
        let p = u.ancestors[0];
        let pp = same(p);
        rep.push((best, level, pp));
    }
    let record_chars: f64 = rep
        .iter()
        .zip(chars)
        .filter(|(r, _)| r.0 >= 3)
        .map(|(_, &c)| c as f64)
        .sum();
    // Per record root: share of the page's text in records with the same parent.
    let mut group_chars: HashMap<(NodeId, usize), f64> = HashMap::new();
    let group_key = |k: usize| -> (NodeId, usize) {
        let u = &units[k];
        let levels = [u.block, u.ancestors[0], u.ancestors[1], u.ancestors[2]];
        let l = rep[k].1;
        let node = if l >= 0.0 {
            levels[l as usize]
        } else {
            u.block
        };
        (tree.parent(node).unwrap_or(0), l.max(0.0) as usize)
    };
    for k in 0..nu {
        if rep[k].0 >= 3 {
            *group_chars.entry(group_key(k)).or_default() += chars[k] as f64;
        }
    }
    let largest_group = group_chars.values().copied().fold(0.0f64, f64::max);
    // Cards in a grid: the record's siblings of the same signature whose top edge is on the
    // record's row (within 4 px), itself included. Only the real layout shows this.
    let mut row_cache: HashMap<NodeId, usize> = HashMap::new();
    let mut grid_cols = |k: usize| -> usize {
        let u = &units[k];
        let (best, level, _) = rep[k];
        if best < 3 {
            return 1;
        }
        let levels = [u.block, u.ancestors[0], u.ancestors[1], u.ancestors[2]];
        let node = if level >= 0.0 {
            levels[level as usize]
        } else {
            u.block
        };
        if let Some(&c) = row_cache.get(&node) {
            return c;
        }
        let c = match tree.parent(node) {
            None => 1,
            Some(p) => {
                let sig = signature(tree, node);
                let y = tree.node(node).rect.y;
                tree.children[p]
                    .iter()
                    .filter(|&&c| {
                        let n = tree.node(c);
                        n.is_element()
                            && n.rect.w > 0.0
                            && (n.rect.y - y).abs() <= 4.0
                            && signature(tree, c) == sig
                    })
                    .count()
                    .max(1)
            }
        };
        row_cache.insert(node, c);
        c
    };

    let mut scope = HeadingScope::default();
    for k in 0..nu {
        let r = tree.node(units[k].block).rect;
        let text = units[k].text.trim();
        out.push(chars_rank[k]);
        out.push(chars[k] as f64 / page_chars);
        out.push(chars_z[k]);
        out.push(link_z[k]);
        out.push(font_rank[k]);
        out.push(r.w / widest);
        out.push((r.x - text_x) / vw);
        let (best, level, pp) = rep[k];
        out.push((best as f64).ln());
        out.push(level);
        out.push(if best >= 3 { 1.0 } else { 0.0 });
        out.push(if best >= 3 {
            group_chars.get(&group_key(k)).copied().unwrap_or(0.0) / page_chars
        } else {
            0.0
        });
        out.push((pp as f64).ln());
        out.push(record_chars / page_chars);
        let b = |x: bool| if x { 1.0 } else { 0.0 };
        out.push((grid_cols(k) as f64).ln());
        let group = (best >= 3).then(|| group_key(k));
        out.push(b(group.is_some_and(|g| {
            largest_group > 0.0 && group_chars.get(&g).copied().unwrap_or(0.0) >= largest_group
        })));
        out.push(group.map_or(0.0, |(parent, _)| {
            (tree.node(parent).rect.w / vw).clamp(0.0, 2.0)
        }));
        out.push(b(has_price(text)));
        out.push(b(has_rating(text)));
        out.push(b(has_date(text)));
        out.push(b(has_time_ago(text)));
        out.push(forum_words(text));
        let words = text.split_whitespace().count();
        out.push(b(words <= 3 && !text.ends_with('.')));
        out.extend(edge_kinds(text));
        let (shop, related) = scope.read(units[k].heading_level(tree), text);
        out.push(b(shop));
        out.push(b(related));
        out.push(machine_token_share(text));
    }
    debug_assert_eq!(out.len(), nu * m);
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::snapshot::{rect, SnapshotBuilder};

    #[test]
    fn patterns() {
        assert!(has_price("Now $19.99"));
        assert!(has_price("19,99 €"));
        assert!(has_price("Price: 20 USD"));
        assert!(!has_price("We paid a lot"));
        assert!(has_rating("★★★★☆ 120 reviews"));
        assert!(has_rating("4.5/5"));
        assert!(!has_rating("A quiet day"));
        assert!(has_date("Posted 2024-05-01"));
        assert!(has_date("on 12/3/2021 at noon"));
        assert!(has_date("May 3, 2021"));
        assert!(!has_date("version 2.1"));
        assert!(!has_date("Call us"));
        assert!(has_time_ago("3 hours ago"));
        assert!(has_time_ago("at 12:30"));
        assert!(!has_time_ago("A quiet day"));
        assert_eq!(forum_words("Reply · Quote · Report"), 3.0);
        for (text, kind) in [
            ("Related Coverage", 0),
            ("Mehr zu Klima und Konsum", 0),
            ("Dans la même rubrique", 0),
            ("Foto: Instagram", 1),
            ("Getty Images", 1),
            ("Jane Doe, Staff Writer", 2),
            ("This entry was posted in News.", 3),
            ("War der Artikel nützlich?", 3),
        ] {
            let mut want = [0.0; 5];
            want[kind] = 1.0;
            assert_eq!(edge_kinds(text), want, "{text}");
        }
        assert_eq!(EDGE_PHRASES[EDGE_RELATED].0, "related");
        assert_eq!(edge_kinds("Add to bag")[4], 1.0);
        assert_eq!(edge_kinds("Delivery & Returns")[4], 1.0);
        assert_eq!(edge_kinds("In den Warenkorb")[4], 1.0);
        assert_eq!(edge_kinds("Arrival T-Shirt"), [0.0; 5]);
        assert!(is_machine_token("3f2b9c1e-8a4d-4e1b-9c7a-1d2e3f4a5b6c"));
        assert!(is_machine_token("a1b2c3d4e5f60718"));
        assert!(is_machine_token("(sess_9KfL2mQ7xZ83pRt)"));
        assert!(!is_machine_token("A2A1K-BBBB"));
        assert!(!is_machine_token("Physique-accentuating"));
        assert!(!is_machine_token("2024-05-01"));
        assert_eq!(machine_token_share("id 3f2b9c1e8a4d4e1b"), 0.5);
        // A paragraph that mentions a phrase is not an edge line.
        let long = "The reporter said the related findings were shared on Monday with every member of the board.";
        assert_eq!(edge_kinds(long), [0.0; 5]);
    }

    #[test]
    fn a_heading_scopes_the_units_under_it() {
        let mut s = HeadingScope::default();
        assert_eq!(s.read(None, "Intro"), (false, false));
        assert_eq!(s.read(Some(2), "Description"), (false, false));
        assert_eq!(s.read(None, "Soft wool."), (false, false));
        assert_eq!(s.read(Some(2), "Delivery & Returns"), (true, false));
        assert_eq!(s.read(None, "Standard shipping is free."), (true, false));
        // A sub-heading keeps its section's flag.
        assert_eq!(s.read(Some(3), "Express"), (true, false));
        assert_eq!(s.read(None, "Three days."), (true, false));
        // A heading of the same level ends the section.
        assert_eq!(s.read(Some(2), "Specifications"), (false, false));
        assert_eq!(s.read(Some(2), "More stories"), (false, true));
        // A carousel's heading can be both.
        assert_eq!(s.read(Some(2), "You may also like"), (true, true));
        assert_eq!(s.read(Some(1), "Another title"), (false, false));
    }

    #[test]
    fn ranks_and_z_scores() {
        assert_eq!(ranks(&[3.0, 1.0, 2.0, 2.0]), vec![1.0, 0.0, 0.5, 0.5]);
        let z = zscores(&[1.0, 3.0]);
        assert_eq!(z, vec![-1.0, 1.0]);
        assert_eq!(zscores(&[2.0, 2.0]), vec![0.0, 0.0]);
    }

    #[test]
    fn repeated_records_are_found() {
        let mut b = SnapshotBuilder::new(1000.0);
        let art = b.el(0, "article", rect(0.0, 0.0, 700.0, 300.0));
        let p = b.el(art, "p", rect(0.0, 0.0, 700.0, 100.0));
        b.text(p, "A long paragraph of the article, with words.");
        let ul = b.el(0, "ul", rect(0.0, 400.0, 700.0, 300.0));
        for k in 0..4 {
            let li = b.el(ul, "li", rect(0.0, 400.0 + 50.0 * k as f64, 700.0, 50.0));
            b.node_mut(li).class = Some("item".into());
            b.text(li, "Item for sale $5");
        }
        let snap = b.build();
        let tree = Tree::new(&snap);
        let units = super::super::units::units(&tree);
        assert_eq!(units.len(), 5);
        let chars: Vec<usize> = units
            .iter()
            .map(|u| u.text.trim().chars().count())
            .collect();
        let f = context_features(&tree, &units, &chars, &[0.0; 5], &[16.0; 5]);
        let m = CONTEXT_FEATURES.len();
        let col = |u: usize, name: &str| {
            f[u * m + CONTEXT_FEATURES.iter().position(|x| *x == name).unwrap()]
        };
        assert_eq!(col(0, "in_record"), 0.0);
        assert_eq!(col(1, "in_record"), 1.0);
        assert!((col(1, "rep_ln_same") - 4f64.ln()).abs() < 1e-12);
        assert_eq!(col(1, "rep_level"), 0.0);
        assert_eq!(col(1, "has_price"), 1.0);
        assert_eq!(col(0, "chars_rank"), 1.0);
        let rec = 4.0 * 16.0 / (44.0 + 4.0 * 16.0);
        assert!((col(0, "page_record_share") - rec).abs() < 1e-12);
        assert!((col(2, "record_share") - rec).abs() < 1e-12);
        // One item a row: no grid; the list is the page's only (so largest) group.
        assert_eq!(col(1, "grid_cols"), 0.0);
        assert_eq!(col(1, "group_largest"), 1.0);
        assert_eq!(col(0, "group_largest"), 0.0);
        assert!((col(1, "group_w_rel") - 0.7).abs() < 1e-12);
    }

    #[test]
    fn cards_in_a_row_are_a_grid_and_the_larger_group_is_marked() {
        let mut b = SnapshotBuilder::new(1000.0);
        let grid = b.el(0, "div", rect(0.0, 0.0, 900.0, 400.0));
        for k in 0..6 {
            let (x, y) = (300.0 * (k % 3) as f64, 200.0 * (k / 3) as f64);
            let card = b.el(grid, "div", rect(x, y, 280.0, 180.0));
            b.node_mut(card).class = Some("card".into());
            b.text(card, "A product card with a longer name $12");
        }
        let side = b.el(0, "ul", rect(920.0, 0.0, 80.0, 300.0));
        for k in 0..3 {
            let li = b.el(side, "li", rect(920.0, 30.0 * k as f64, 80.0, 30.0));
            b.text(li, "Link");
        }
        let snap = b.build();
        let tree = Tree::new(&snap);
        let units = super::super::units::units(&tree);
        assert_eq!(units.len(), 9);
        let chars: Vec<usize> = units
            .iter()
            .map(|u| u.text.trim().chars().count())
            .collect();
        let f = context_features(&tree, &units, &chars, &[0.0; 9], &[16.0; 9]);
        let m = CONTEXT_FEATURES.len();
        let col = |u: usize, name: &str| {
            f[u * m + CONTEXT_FEATURES.iter().position(|x| *x == name).unwrap()]
        };
        assert!((col(0, "grid_cols") - 3f64.ln()).abs() < 1e-12);
        assert!((col(5, "grid_cols") - 3f64.ln()).abs() < 1e-12);
        assert_eq!(col(0, "group_largest"), 1.0);
        assert_eq!(col(6, "in_record"), 1.0);
        assert_eq!(col(6, "grid_cols"), 0.0);
        assert_eq!(col(6, "group_largest"), 0.0);
        assert!((col(0, "group_w_rel") - 0.9).abs() < 1e-12);
    }
}
