//! The page's type (issue 50): article, product, listing, forum, collection, service or
//! documentation, the seven types WCXB's annotators gave its pages, predicted from what the
//! page is made of, or stated by the caller (`--page-type`).
//!
//! The prediction is a multinomial logistic regression over hashed page tokens
//! ([`page_features`]): the words of the URL's path, the words of every `class` and `id`
//! (each once, and once more when it is repeated eight times or more: a listing's cards), ARIA
//! roles, `itemprop` (of elements and of the head's microdata), JSON-LD `@type`s (of the objects
//! [`super::metadata`] reads, and nested in them), `og:type`,
//! the tags present, and three
//! binned counts (text length, the share of text in links, prices as `learned` finds them). No token is
//! page text: words of markup names and of the URL only, hashed to [`HASH_BITS`] buckets, so
//! the model file (`models/page-type.json`, made by `sightline train --page-type-model`) holds
//! numbers only. Held out by site on WCXB's dev split its accuracy is in docs/quality.md.
//!
//! Pure: reads a [`Snapshot`] and the page's URL.

use std::collections::BTreeMap;
use std::fmt;
use std::str::FromStr;
use std::sync::OnceLock;

use serde::{Deserialize, Serialize};

use super::learned::tokens::class_words;
use crate::snapshot::Snapshot;
use crate::Error;

/// Log2 of the number of hash buckets of [`page_features`].
pub const HASH_BITS: u32 = 14;

/// Version of the page-type model file; bumped on an incompatible change.
pub const TYPE_MODEL_FORMAT: u32 = 1;

/// The shipped model's JSON (`models/page-type.json`).
pub const SHIPPED_TYPE_JSON: &str = include_str!("../../../../models/page-type.json");

/// A class or id word repeated this many times on a page also gives a `#many` token.
const MANY: usize = 8;

/// A page's type, as WCXB's annotation labels pages.
#[derive(
    Debug,
    Clone,
    Copy,
    PartialEq,
    Eq,
    Hash,
    PartialOrd,
    Ord,
    Serialize,
    Deserialize,
    schemars::JsonSchema,
)]
#[serde(rename_all = "lowercase")]
pub enum PageKind {
    /// A news story, blog post, essay or report.
    Article,
    /// One product's page in a shop.
    Product,
    /// A list of items (search results, an index of posts, a category of a directory).
    Listing,
    /// A discussion thread: a question and its answers, a topic and its posts.
    Forum,
    /// A shop's category page: a grid of products.
    Collection,
    /// A company's or service's page (a landing page, "about", pricing, a help page).
    Service,
    /// Software documentation or a reference page.
    Documentation,
}

impl PageKind {
    /// Every type, in the model's class order.
    pub const ALL: [PageKind; 7] = [
        PageKind::Article,
        PageKind::Product,
        PageKind::Listing,
        PageKind::Forum,
        PageKind::Collection,
        PageKind::Service,
        PageKind::Documentation,
    ];

    /// The type's name (`article`, `product`, ...).
    pub fn name(self) -> &'static str {
        match self {
            PageKind::Article => "article",
            PageKind::Product => "product",
            PageKind::Listing => "listing",
            PageKind::Forum => "forum",
            PageKind::Collection => "collection",
            PageKind::Service => "service",
            PageKind::Documentation => "documentation",
        }
    }
}

impl fmt::Display for PageKind {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for PageKind {
    type Err = String;

    fn from_str(s: &str) -> Result<PageKind, String> {
        PageKind::ALL
            .into_iter()
            .find(|k| k.name().eq_ignore_ascii_case(s.trim()))
            .ok_or_else(|| {
                let names: Vec<&str> = PageKind::ALL.iter().map(|k| k.name()).collect();
                format!("unknown page type `{s}`: give one of {}", names.join(", "))
            })
    }
}

/// Where a record's page type came from.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "lowercase")]
pub enum PageTypeSource {
    /// Predicted from the page by the page-type model.
    Predicted,
    /// Stated by the caller (`--page-type`, `page_type`).
    Stated,
}

/// The page's type in the record.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, schemars::JsonSchema)]
pub struct PageType {
    #[serde(rename = "type")]
    pub kind: PageKind,
    /// The model's probability of this type (1 when stated).
    pub probability: f64,
    pub source: PageTypeSource,
}

impl PageType {
    /// A type the caller states.
    pub fn stated(kind: PageKind) -> PageType {
        PageType {
            kind,
            probability: 1.0,
            source: PageTypeSource::Stated,
        }
    }
}

/// The page-type model: one weight per hash bucket and type, and a bias per type.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct TypeModel {
    /// [`TYPE_MODEL_FORMAT`] at training time.
    pub format: u32,
    /// How the model was made (pages, command, settings).
    pub description: String,
    /// Log2 of the number of buckets; must equal [`HASH_BITS`].
    pub bits: u32,
    /// The types in weight order; must equal [`PageKind::ALL`]'s names.
    pub classes: Vec<String>,
    pub bias: Vec<f64>,
    /// `weights[k][b]`: bucket `b`'s weight for type `k`.
    pub weights: Vec<Vec<f32>>,
}

impl TypeModel {
    /// Read a model from JSON; `source` names it in errors.
    pub fn from_json(json: &str, source: &str) -> Result<TypeModel, Error> {
        let bad = |message: String| Error::Input {
            input: source.to_string(),
            message,
            source: None,
        };
        let m: TypeModel = serde_json::from_str(json).map_err(|e| {
            bad(format!(
                "not a page-type model file ({e}); write one with `sightline train --page-type-model FILE`"
            ))
        })?;
        let names: Vec<&str> = PageKind::ALL.iter().map(|k| k.name()).collect();
        let buckets = 1usize << HASH_BITS;
        if m.format != TYPE_MODEL_FORMAT
            || m.bits != HASH_BITS
            || m.classes != names
            || m.bias.len() != names.len()
            || m.weights.len() != names.len()
            || m.weights.iter().any(|w| w.len() != buckets)
        {
            return Err(bad(format!(
                "a page-type model of another layout (format {}, {} bits, classes {:?}); this sightline reads format {TYPE_MODEL_FORMAT}, {HASH_BITS} bits: train it again with `sightline train --page-type-model FILE`",
                m.format, m.bits, m.classes
            )));
        }
        Ok(m)
    }

    /// The model compiled into the binary, parsed once.
    pub fn shipped() -> Result<&'static TypeModel, Error> {
        static SHIPPED: OnceLock<Result<TypeModel, String>> = OnceLock::new();
        super::learned::model::built_in(&SHIPPED, "models/page-type.json", || {
            TypeModel::from_json(SHIPPED_TYPE_JSON, "models/page-type.json (built in)")
        })
    }

    /// Each type's probability (in [`PageKind::ALL`]'s order) for a page's features.
    pub fn probabilities(&self, features: &[(u32, f32)]) -> Vec<f64> {
        let z: Vec<f64> = (0..self.classes.len())
            .map(|k| {
                self.bias[k]
                    + features
                        .iter()
                        .map(|&(b, v)| f64::from(self.weights[k][b as usize]) * f64::from(v))
                        .sum::<f64>()
            })
            .collect();
        softmax(&z)
    }

    /// The most probable type of a page's features and its probability.
    pub fn predict(&self, features: &[(u32, f32)]) -> PageType {
        let p = self.probabilities(features);
        let (k, prob) = p
            .iter()
            .enumerate()
            .fold((0, f64::MIN), |a, (k, &q)| if q > a.1 { (k, q) } else { a });
        PageType {
            kind: PageKind::ALL[k],
            probability: (prob * 1000.0).round() / 1000.0,
            source: PageTypeSource::Predicted,
        }
    }

    /// Serialize (deterministic: same model, same bytes).
    pub fn to_json(&self) -> String {
        serde_json::to_string(self).expect("a model always serializes") + "\n"
    }
}

/// Softmax of `z` (stable).
pub fn softmax(z: &[f64]) -> Vec<f64> {
    let m = z.iter().cloned().fold(f64::MIN, f64::max);
    let e: Vec<f64> = z.iter().map(|v| (v - m).exp()).collect();
    let s: f64 = e.iter().sum();
    e.into_iter().map(|v| v / s).collect()
}

/// The page's type predicted by the shipped model from its snapshot (the URL read is the
/// snapshot's own; `url` replaces it, e.g. a saved page's address on its site).
pub fn predict(snap: &Snapshot, url: Option<&str>) -> Result<PageType, Error> {
    let m = TypeModel::shipped()?;
    Ok(m.predict(&page_features(snap, url.unwrap_or(&snap.url))))
}

/// The page's tokens ([`page_tokens`]) hashed to `2^HASH_BITS` buckets, each present token
/// valued 1 and the vector scaled to unit length; sorted by bucket, buckets summed.
pub fn page_features(snap: &Snapshot, url: &str) -> Vec<(u32, f32)> {
    let tokens = page_tokens(snap, url);
    let mask = (1u64 << HASH_BITS) - 1;
    let mut buckets: BTreeMap<u32, f32> = BTreeMap::new();
    let v = 1.0 / (tokens.len().max(1) as f32).sqrt();
    for t in &tokens {
        let b = (crate::hash::stable_hash64(&[t.as_bytes()]) & mask) as u32;
        *buckets.entry(b).or_default() += v;
    }
    buckets.into_iter().collect()
}

/// The page's distinct tokens, sorted (see the module's documentation for what they are).
pub fn page_tokens(snap: &Snapshot, url: &str) -> Vec<String> {
    let mut counts: BTreeMap<String, usize> = BTreeMap::new();
    let mut add = |t: String| *counts.entry(t).or_default() += 1;
    url_tokens(url, &mut add);
    let (mut chars, mut link_chars, mut prices) = (0usize, 0usize, 0usize);
    let mut words = Vec::new();
    for n in &snap.nodes {
        if n.is_text() {
            let t = n.text.as_deref().unwrap_or("");
            let len = t.chars().count();
            chars += len;
            if n.link {
                link_chars += len;
            }
            prices += usize::from(super::learned::context::patterns::has_price(t));
            continue;
        }
        add(format!("t:{}", n.tag));
        for (prefix, attr) in [("c:", &n.class), ("i:", &n.id)] {
            if let Some(a) = attr {
                words.clear();
                class_words(a, &mut words);
                for w in words.iter().filter(|w| usable_word(w)) {
                    add(format!("{prefix}{w}"));
                }
            }
        }
        if let Some(r) = &n.role {
            add(format!("r:{}", r.trim().to_lowercase()));
        }
        if let Some(p) = n.attrs.get("itemprop") {
            add(format!("ip:{}", p.trim().to_lowercase()));
        }
    }
    for (k, v) in &snap.head.metas {
        if k == "og:type" {
            add(format!("og:{}", v.trim().to_lowercase()));
        }
    }
    // Every `@type`, nested ones too (an `Offer` inside a `Product`): the metadata's JSON-LD
    // reader takes only the top objects, which cost 0.006 of held-out accuracy here.
    for obj in super::metadata::ld_objects(snap) {
        json_ld_types(&obj, &mut |t| add(format!("ld:{}", last_segment(t))), 0);
    }
    for (prop, _, _) in &snap.head.items {
        add(format!("hi:{}", prop.to_lowercase()));
    }
    add(format!("b:chars{}", log2_bin(chars / 100)));
    add(format!(
        "b:link{}",
        (10 * link_chars) / chars.max(1).max(link_chars)
    ));
    add(format!("b:price{}", log2_bin(prices)));
    let mut out = Vec::with_capacity(counts.len() + 16);
    for (t, c) in counts {
        if c >= MANY && (t.starts_with("c:") || t.starts_with("i:") || t.starts_with("t:")) {
            out.push(format!("{t}#many"));
        }
        out.push(t);
    }
    out.sort();
    out
}

/// `floor(log2(n + 1))`.
fn log2_bin(n: usize) -> u32 {
    (n + 1).ilog2()
}

/// A class, id or URL word worth a token: not a number, not a hash-like run.
fn usable_word(w: &str) -> bool {
    !w.is_empty() && w.chars().count() <= 24 && !w.chars().all(|c| c.is_ascii_digit())
}

/// The lower-cased last `/`-segment of a schema.org type (`https://schema.org/Product` →
/// `product`).
fn last_segment(t: &str) -> String {
    t.trim()
        .trim_end_matches('/')
        .rsplit('/')
        .next()
        .unwrap_or("")
        .to_lowercase()
}

/// Every `@type` in a JSON-LD value (strings and arrays of them), depth-bounded.
fn json_ld_types(v: &serde_json::Value, f: &mut impl FnMut(&str), depth: usize) {
    if depth > 8 {
        return;
    }
    match v {
        serde_json::Value::Object(m) => {
            for (k, x) in m {
                if k == "@type" {
                    match x {
                        serde_json::Value::String(s) => f(s),
                        serde_json::Value::Array(a) => {
                            a.iter().filter_map(|s| s.as_str()).for_each(&mut *f)
                        }
                        _ => {}
                    }
                } else {
                    json_ld_types(x, f, depth + 1);
                }
            }
        }
        serde_json::Value::Array(a) => a.iter().for_each(|x| json_ld_types(x, f, depth + 1)),
        _ => {}
    }
}

/// The URL's tokens: its path's words, its depth, whether it has a query, whether the last
/// segment holds a long number (an item id) or is a slug of four or more words. Only http(s)
/// URLs give tokens (a saved file's path says nothing of the page).
fn url_tokens(url: &str, add: &mut impl FnMut(String)) {
    let Ok(u) = url::Url::parse(url) else {
        return;
    };
    if !matches!(u.scheme(), "http" | "https") {
        return;
    }
    let path = u.path();
    let segs: Vec<&str> = path.split('/').filter(|s| !s.is_empty()).collect();
    let mut words = Vec::new();
    class_words(path, &mut words);
    for w in words.iter().filter(|w| usable_word(w)) {
        add(format!("u:{w}"));
    }
    add(format!("ud:{}", segs.len().min(5)));
    if u.query().is_some_and(|q| !q.is_empty()) {
        add("uq".into());
    }
    if let Some(last) = segs.last() {
        let mut run = 0;
        let mut long_number = false;
        for c in last.chars() {
            run = if c.is_ascii_digit() { run + 1 } else { 0 };
            long_number |= run >= 4;
        }
        if long_number {
            add("ulastnum".into());
        }
        if last.matches('-').count() >= 3 {
            add("uslug".into());
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::snapshot::{rect, SnapshotBuilder};

    fn shop() -> Snapshot {
        let mut b = SnapshotBuilder::new(1000.0);
        let main = b.el(0, "main", rect(0.0, 0.0, 1000.0, 800.0));
        b.node_mut(main).class = Some("productDetail product-page".into());
        let p = b.el(main, "p", rect(0.0, 0.0, 1000.0, 20.0));
        b.text(p, "Only $19.99 today");
        let a = b.el(main, "a", rect(0.0, 30.0, 100.0, 20.0));
        b.node_mut(a).link = true;
        let t = b.text(a, "Add to cart");
        b.node_mut(t).link = true;
        for _ in 0..MANY {
            let c = b.el(main, "div", rect(0.0, 60.0, 100.0, 20.0));
            b.node_mut(c).class = Some("card".into());
        }
        let mut s = b.build();
        s.head.json_ld.push(
            r#"{"@context":"https://schema.org","@graph":[{"@type":"Product"},{"@type":["Thing","Offer"]}]}"#
                .into(),
        );
        s.head.metas.push(("og:type".into(), "Product".into()));
        s
    }

    #[test]
    fn tokens_name_the_markup_and_the_url_never_the_text() {
        let t = page_tokens(
            &shop(),
            "https://shop.example/products/blue-cotton-shirt-xl-12345?v=2",
        );
        for want in [
            "u:products",
            "u:blue",
            "ud:2",
            "uq",
            "ulastnum",
            "uslug",
            "c:product",
            "c:detail",
            "c:page",
            "c:card",
            "c:card#many",
            "t:main",
            "ld:product",
            "ld:offer",
            "og:product",
            "b:price1",
        ] {
            assert!(t.contains(&want.to_string()), "{want} missing from {t:?}");
        }
        assert!(
            !t.iter().any(|x| x.contains("cart") || x.contains("today")),
            "{t:?}"
        );
        assert!(!t.contains(&"u:12345".to_string()));
        assert!(t.windows(2).all(|w| w[0] < w[1]), "sorted and distinct");
        // A saved file's path gives no URL token.
        let f = page_tokens(&shop(), "file:///home/me/Downloads/products/page.html");
        assert!(!f.iter().any(|x| x.starts_with("u")), "{f:?}");
    }

    #[test]
    fn features_are_unit_length_and_sorted() {
        let f = page_features(&shop(), "https://shop.example/p/1");
        let norm: f32 = f.iter().map(|(_, v)| v * v).sum();
        assert!((norm - 1.0).abs() < 0.05, "{norm}");
        assert!(f.windows(2).all(|w| w[0].0 < w[1].0));
        assert!(f.iter().all(|(b, _)| *b < 1 << HASH_BITS));
    }

    #[test]
    fn kinds_parse_by_name_and_say_the_choices() {
        assert_eq!("Product".parse::<PageKind>(), Ok(PageKind::Product));
        let e = "blog".parse::<PageKind>().unwrap_err();
        assert!(e.contains("blog") && e.contains("documentation"), "{e}");
    }

    #[test]
    fn the_shipped_model_loads_and_predicts_a_distribution() {
        let m = TypeModel::shipped().expect("models/page-type.json loads");
        let p = m.probabilities(&page_features(&shop(), "https://shop.example/products/x"));
        assert_eq!(p.len(), PageKind::ALL.len());
        assert!((p.iter().sum::<f64>() - 1.0).abs() < 1e-9);
        let e = TypeModel::from_json("{}", "x.json")
            .unwrap_err()
            .to_string();
        assert!(
            e.contains("x.json") && e.contains("--page-type-model"),
            "{e}"
        );
    }
}
