//! The page's metadata: title, authors, published and modified dates (ISO 8601), site name,
//! language, description, canonical URL, lead image, tags and categories. Each field names
//! where it came from.
//!
//! Phases ([`metadata`]), each filling only the fields still empty, so the first source in
//! this order wins:
//! 1. JSON-LD (`schema.org` Article, NewsArticle, BlogPosting, WebPage, Product, ... and
//!    `@graph` lists): the page's own structured statement.
//! 2. OpenGraph and `article:` properties (`og:title`, `article:published_time`, ...).
//! 3. Other `<meta>`: `author`, `description`, `keywords`, Dublin Core (`dc.*`),
//!    `parsely-*`, `sailthru.*`, `date`, `pubdate`.
//! 4. Microdata (`itemprop="author"`, `datePublished`, ...) and `<time datetime>`.
//! 5. The rendered layout: the byline ("By …", "Von …", "Par …") and the date shown next
//!    to the headline (the largest heading at the top of the page), then `<title>`,
//!    `<html lang>` and `<link rel=canonical>`.
//!
//! Pure: reads a [`Snapshot`] (whose `head` the snapshot script fills) and its [`Tree`].

use serde::Serialize;
use serde_json::Value;

use crate::snapshot::{NodeId, Snapshot, Tree};

/// One metadata value and where it was read.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Field<T> {
    pub value: T,
    /// `json-ld`, `opengraph`, `meta`, `microdata`, `time`, `layout`, `title`, `html-lang`,
    /// `link`, followed by the key read (`json-ld:datePublished`, `opengraph:og:title`).
    pub source: String,
}

/// The page's metadata. Absent fields were found nowhere.
#[derive(Debug, Clone, Default, PartialEq, Serialize)]
pub struct Metadata {
    #[serde(skip_serializing_if = "Option::is_none")]
    pub title: Option<Field<String>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub authors: Option<Field<Vec<String>>>,
    /// ISO 8601: a date (`2024-03-05`) or a date and time with its offset.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub published: Option<Field<String>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub modified: Option<Field<String>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub site_name: Option<Field<String>>,
    /// A BCP 47 language tag (`en`, `de-DE`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub language: Option<Field<String>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub description: Option<Field<String>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub canonical_url: Option<Field<String>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub image: Option<Field<String>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub tags: Option<Field<Vec<String>>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub categories: Option<Field<Vec<String>>>,
}

impl Metadata {
    /// No field was found.
    pub fn is_empty(&self) -> bool {
        *self == Metadata::default()
    }
}

fn set<T>(slot: &mut Option<Field<T>>, value: Option<T>, source: impl FnOnce() -> String) {
    if slot.is_none() {
        if let Some(value) = value {
            *slot = Some(Field {
                value,
                source: source(),
            });
        }
    }
}

fn clean(s: &str) -> Option<String> {
    let t = s.split_whitespace().collect::<Vec<_>>().join(" ");
    (!t.is_empty()).then_some(t)
}

fn nonempty(v: Vec<String>) -> Option<Vec<String>> {
    let mut out: Vec<String> = Vec::new();
    for s in v.into_iter().filter_map(|s| clean(&s)) {
        if !out.iter().any(|o| o.eq_ignore_ascii_case(&s)) {
            out.push(s);
        }
    }
    (!out.is_empty()).then_some(out)
}

/// Read every source, in the order of the module's phases.
pub fn metadata(snap: &Snapshot, tree: &Tree) -> Metadata {
    let mut m = Metadata::default();
    from_json_ld(snap, &mut m);
    from_opengraph(snap, &mut m);
    from_meta(snap, &mut m);
    from_microdata(snap, &mut m);
    from_layout(snap, tree, &mut m);
    from_document(snap, &mut m);
    m
}

// ---- 1. JSON-LD -------------------------------------------------------------------------

/// schema.org types whose properties describe the page's main content, best first.
const CONTENT_TYPES: &[&str] = &[
    "newsarticle",
    "article",
    "blogposting",
    "reportagenewsarticle",
    "analysisnewsarticle",
    "opinionnewsarticle",
    "techarticle",
    "scholarlyarticle",
    "liveblogposting",
    "socialmediaposting",
    "discussionforumposting",
    "qapage",
    "product",
    "recipe",
    "review",
    "event",
    "videoobject",
    "howto",
    "webpage",
    "itempage",
    "collectionpage",
    "profilepage",
    "aboutpage",
];

fn types_of(v: &Value) -> Vec<String> {
    match v.get("@type") {
        Some(Value::String(s)) => vec![s.to_lowercase()],
        Some(Value::Array(a)) => a
            .iter()
            .filter_map(|t| t.as_str().map(str::to_lowercase))
            .collect(),
        _ => Vec::new(),
    }
}

/// Every object of the blocks, `@graph` lists flattened.
fn ld_objects(snap: &Snapshot) -> Vec<Value> {
    fn walk(v: Value, out: &mut Vec<Value>, depth: usize) {
        if depth > 8 || out.len() > 200 {
            return;
        }
        match v {
            Value::Array(a) => a.into_iter().for_each(|x| walk(x, out, depth + 1)),
            Value::Object(mut o) => {
                if let Some(g) = o.remove("@graph") {
                    walk(g, out, depth + 1);
                }
                out.push(Value::Object(o));
            }
            _ => {}
        }
    }
    let mut out = Vec::new();
    for block in &snap.head.json_ld {
        // Pages put comments and trailing semicolons in their blocks.
        let t = block.trim().trim_end_matches(';');
        if let Ok(v) = serde_json::from_str::<Value>(t) {
            walk(v, &mut out, 0);
        }
    }
    out
}

fn ld_str(v: Option<&Value>) -> Option<String> {
    match v? {
        Value::String(s) => clean(s),
        Value::Number(n) => Some(n.to_string()),
        Value::Array(a) => a.iter().find_map(|x| ld_str(Some(x))),
        Value::Object(o) => ld_str(o.get("name").or(o.get("@value")).or(o.get("url"))),
        _ => None,
    }
}

fn ld_names(v: Option<&Value>) -> Vec<String> {
    match v {
        Some(Value::Array(a)) => a.iter().flat_map(|x| ld_names(Some(x))).collect(),
        Some(Value::String(s)) => vec![s.clone()],
        Some(Value::Object(o)) => ld_str(o.get("name")).into_iter().collect(),
        _ => Vec::new(),
    }
}

fn ld_list(v: Option<&Value>) -> Vec<String> {
    match v {
        Some(Value::String(s)) => s.split(',').map(str::to_string).collect(),
        Some(Value::Array(a)) => a.iter().flat_map(|x| ld_list(Some(x))).collect(),
        Some(Value::Object(o)) => ld_str(o.get("name")).into_iter().collect(),
        _ => Vec::new(),
    }
}

fn ld_image(v: Option<&Value>) -> Option<String> {
    match v? {
        Value::String(s) => clean(s),
        Value::Array(a) => a.iter().find_map(|x| ld_image(Some(x))),
        Value::Object(o) => ld_str(o.get("url").or(o.get("contentUrl")).or(o.get("@id"))),
        _ => None,
    }
}

fn from_json_ld(snap: &Snapshot, m: &mut Metadata) {
    let objects = ld_objects(snap);
    let rank = |v: &Value| {
        types_of(v)
            .iter()
            .filter_map(|t| CONTENT_TYPES.iter().position(|c| c == t))
            .min()
    };
    let mut main: Vec<&Value> = objects.iter().filter(|v| rank(v).is_some()).collect();
    main.sort_by_key(|v| rank(v));
    let src = |k: &str| format!("json-ld:{k}");
    for o in &main {
        set(&mut m.title, ld_str(o.get("headline")), || src("headline"));
        set(&mut m.authors, nonempty(ld_names(o.get("author"))), || {
            src("author")
        });
        set(
            &mut m.published,
            ld_str(o.get("datePublished")).and_then(|d| iso_date(&d)),
            || src("datePublished"),
        );
        set(
            &mut m.modified,
            ld_str(o.get("dateModified")).and_then(|d| iso_date(&d)),
            || src("dateModified"),
        );
        set(
            &mut m.site_name,
            o.get("publisher").and_then(|p| ld_str(p.get("name"))),
            || src("publisher.name"),
        );
        set(&mut m.language, ld_str(o.get("inLanguage")), || {
            src("inLanguage")
        });
        set(&mut m.description, ld_str(o.get("description")), || {
            src("description")
        });
        set(&mut m.image, ld_image(o.get("image")), || src("image"));
        set(&mut m.tags, nonempty(ld_list(o.get("keywords"))), || {
            src("keywords")
        });
        set(
            &mut m.categories,
            nonempty(ld_list(o.get("articleSection"))),
            || src("articleSection"),
        );
    }
    // Names that only the main object's name gives (products, events), and the site.
    for o in &main {
        set(&mut m.title, ld_str(o.get("name")), || src("name"));
    }
    for o in &objects {
        let t = types_of(o);
        if t.iter()
            .any(|t| t == "website" || t == "organization" || t == "newsmediaorganization")
        {
            set(&mut m.site_name, ld_str(o.get("name")), || src("name"));
        }
    }
}

// ---- 2. OpenGraph, 3. other <meta> ----------------------------------------------------------

fn from_opengraph(snap: &Snapshot, m: &mut Metadata) {
    let h = &snap.head;
    let og = |k: &str| h.meta(k).and_then(clean);
    let src = |k: &str| format!("opengraph:{k}");
    set(&mut m.title, og("og:title"), || src("og:title"));
    set(
        &mut m.published,
        og("article:published_time").and_then(|d| iso_date(&d)),
        || src("article:published_time"),
    );
    set(
        &mut m.modified,
        og("article:modified_time")
            .or_else(|| og("og:updated_time"))
            .and_then(|d| iso_date(&d)),
        || src("article:modified_time"),
    );
    set(&mut m.site_name, og("og:site_name"), || src("og:site_name"));
    set(&mut m.description, og("og:description"), || {
        src("og:description")
    });
    set(
        &mut m.image,
        og("og:image").or_else(|| og("og:image:url")),
        || src("og:image"),
    );
    set(&mut m.canonical_url, og("og:url"), || src("og:url"));
    set(
        &mut m.language,
        og("og:locale").map(|l| l.replace('_', "-")),
        || src("og:locale"),
    );
    // article:author is often a profile URL; a name is kept, a URL is not.
    let authors: Vec<String> = h
        .metas("article:author")
        .filter(|a| !a.starts_with("http"))
        .map(str::to_string)
        .collect();
    set(&mut m.authors, nonempty(authors), || src("article:author"));
    set(
        &mut m.tags,
        nonempty(h.metas("article:tag").map(str::to_string).collect()),
        || src("article:tag"),
    );
    set(
        &mut m.categories,
        nonempty(h.metas("article:section").map(str::to_string).collect()),
        || src("article:section"),
    );
}

fn from_meta(snap: &Snapshot, m: &mut Metadata) {
    let h = &snap.head;
    let first = |keys: &[&'static str]| {
        keys.iter()
            .find_map(|k| h.meta(k).and_then(clean).map(|v| (*k, v)))
    };
    let src = |k: &str| format!("meta:{k}");
    if let Some((k, v)) = first(&[
        "author",
        "dc.creator",
        "parsely-author",
        "sailthru.author",
        "byl",
    ]) {
        let names = v
            .trim_start_matches("By ")
            .trim_start_matches("by ")
            .split([',', ';', '|'])
            .flat_map(|s| s.split(" and "))
            .map(str::to_string)
            .filter(|s| !s.starts_with("http"))
            .collect();
        set(&mut m.authors, nonempty(names), || src(k));
    }
    for (slot, keys) in [
        (
            &mut m.published,
            &[
                "date",
                "pubdate",
                "publishdate",
                "publish-date",
                "dc.date",
                "dc.date.issued",
                "dcterms.created",
                "parsely-pub-date",
                "sailthru.date",
                "citation_publication_date",
            ][..],
        ),
        (
            &mut m.modified,
            &["last-modified", "dcterms.modified", "dc.date.modified"][..],
        ),
    ] {
        if let Some((k, v)) = keys
            .iter()
            .find_map(|k| h.meta(k).and_then(iso_date).map(|v| (*k, v)))
        {
            set(slot, Some(v), || src(k));
        }
    }
    if let Some((k, v)) = first(&["twitter:title", "dc.title", "parsely-title"]) {
        set(&mut m.title, Some(v), || src(k));
    }
    if let Some((k, v)) = first(&["description", "twitter:description", "dc.description"]) {
        set(&mut m.description, Some(v), || src(k));
    }
    if let Some((k, v)) = first(&["twitter:image", "twitter:image:src", "thumbnail"]) {
        set(&mut m.image, Some(v), || src(k));
    }
    if let Some((k, v)) = first(&["application-name", "twitter:site", "dc.publisher"]) {
        set(
            &mut m.site_name,
            Some(v.trim_start_matches('@').to_string()),
            || src(k),
        );
    }
    if let Some((k, v)) = first(&["dc.language", "content-language", "language"]) {
        set(&mut m.language, Some(v), || src(k));
    }
    if let Some((k, v)) = first(&["keywords", "news_keywords", "parsely-tags"]) {
        let tags = v.split([',', ';']).map(str::to_string).collect();
        set(&mut m.tags, nonempty(tags), || src(k));
    }
    if let Some((k, v)) = first(&["parsely-section", "section", "category"]) {
        set(&mut m.categories, Some(vec![v]), || src(k));
    }
}

// ---- 4. microdata and <time> -----------------------------------------------------------------

fn from_microdata(snap: &Snapshot, m: &mut Metadata) {
    let items = &snap.head.items;
    let value = |prop: &str| {
        items
            .iter()
            .filter(|(p, _, _)| p == prop)
            .find_map(|(_, v, t)| clean(v).or_else(|| clean(t)))
    };
    let src = |k: &str| format!("microdata:{k}");
    set(&mut m.title, value("headline"), || src("headline"));
    let authors: Vec<String> = items
        .iter()
        .filter(|(p, _, _)| p == "author" || p == "creator")
        .filter_map(|(_, v, t)| clean(t).or_else(|| clean(v)))
        .filter(|a| a.chars().count() <= 80)
        .collect();
    set(&mut m.authors, nonempty(authors), || src("author"));
    set(
        &mut m.published,
        value("datepublished").and_then(|d| iso_date(&d)),
        || src("datePublished"),
    );
    set(
        &mut m.modified,
        value("datemodified").and_then(|d| iso_date(&d)),
        || src("dateModified"),
    );
    // The first <time datetime> of the page: the date of what it shows first.
    set(
        &mut m.published,
        items
            .iter()
            .filter(|(p, _, _)| p == "time")
            .find_map(|(_, v, _)| iso_date(v)),
        || "time:datetime".into(),
    );
}

// ---- 5. the rendered layout, then the document ------------------------------------------------

/// Words that introduce a byline, in the bench's languages.
const BYLINE_PREFIXES: &[&str] = &[
    "by ",
    "von ",
    "par ",
    "door ",
    "di ",
    "por ",
    "autor: ",
    "autorin: ",
    "author: ",
    "text: ",
    "written by ",
    "posted by ",
    "napisał ",
    "autor ",
];

/// The headline: the largest-font `h1`/`h2` in the first 1,500 px of the page.
fn headline(snap: &Snapshot, tree: &Tree) -> Option<NodeId> {
    (0..tree.len())
        .filter(|&i| {
            let n = &snap.nodes[i];
            matches!(n.tag.as_str(), "h1" | "h2")
                && n.rendered
                && n.rect.y < 1500.0
                && tree.chars[i] >= 10
        })
        .max_by(|&a, &b| {
            let fa = snap.nodes[a].font_size;
            let fb = snap.nodes[b].font_size;
            fa.partial_cmp(&fb)
                .unwrap_or(std::cmp::Ordering::Equal)
                .then(b.cmp(&a))
        })
}

fn from_layout(snap: &Snapshot, tree: &Tree, m: &mut Metadata) {
    let Some(h) = headline(snap, tree) else {
        return;
    };
    let hr = snap.nodes[h].rect;
    // Text within 400 px under the headline (or 150 px above it: a kicker and date).
    let near: Vec<&str> = snap
        .nodes
        .iter()
        .filter(|n| n.rendered && n.rect.y >= hr.y - 150.0 && n.rect.y <= hr.bottom() + 400.0)
        .filter_map(|n| n.text.as_deref())
        .map(str::trim)
        .filter(|t| !t.is_empty() && t.chars().count() <= 120)
        .collect();
    if m.authors.is_none() {
        for (i, t) in near.iter().enumerate() {
            let lower = t.to_lowercase();
            let Some(p) = BYLINE_PREFIXES.iter().find(|p| lower.starts_with(**p)) else {
                continue;
            };
            let rest = t[p.len()..].trim();
            // "By" alone, with the name in the next text node (a link).
            let name = if rest.is_empty() {
                near.get(i + 1).copied().unwrap_or("")
            } else {
                rest
            };
            let name = name
                .split(['|', '•', '·', '\n'])
                .next()
                .unwrap_or("")
                .split(", ")
                .next()
                .unwrap_or("")
                .trim();
            let words = name.split_whitespace().count();
            if (1..=6).contains(&words) && !name.chars().any(|c| c.is_ascii_digit()) {
                set(&mut m.authors, Some(vec![name.to_string()]), || {
                    "layout:byline".into()
                });
                break;
            }
        }
    }
    if m.published.is_none() {
        if let Some(d) = near.iter().find_map(|t| text_date(t)) {
            set(&mut m.published, Some(d), || "layout:date".into());
        }
    }
    set(&mut m.title, clean(&tree.text(h)), || {
        "layout:headline".into()
    });
}

fn from_document(snap: &Snapshot, m: &mut Metadata) {
    set(&mut m.title, clean(&snap.title), || "title".into());
    set(&mut m.language, clean(&snap.lang), || "html-lang".into());
    set(&mut m.description, clean(&snap.description), || {
        "meta:description".into()
    });
    let link = |rel: &str| {
        snap.head
            .links
            .iter()
            .find(|(r, h)| r.split_whitespace().any(|x| x == rel) && !h.is_empty())
            .map(|(_, h)| h.clone())
    };
    set(&mut m.canonical_url, link("canonical"), || {
        "link:canonical".into()
    });
    set(&mut m.image, link("image_src"), || "link:image_src".into());
}

// ---- dates ------------------------------------------------------------------------------------

/// A stated date as ISO 8601: RFC 3339 and its common relatives (`2024-03-05T10:00:00Z`,
/// `2024-03-05 10:00:00`, `2024-03-05`), RFC 2822 (`Tue, 5 Mar 2024 10:00:00 +0000`), and
/// written dates ([`text_date`]).
pub fn iso_date(s: &str) -> Option<String> {
    use chrono::{DateTime, NaiveDate, NaiveDateTime};
    let s = s.trim();
    if s.is_empty() || s.len() > 80 {
        return None;
    }
    if let Ok(d) = DateTime::parse_from_rfc3339(s) {
        return Some(d.to_rfc3339());
    }
    for f in [
        "%Y-%m-%dT%H:%M:%S%.f%z",
        "%Y-%m-%dT%H:%M%z",
        "%Y-%m-%d %H:%M:%S%.f%z",
    ] {
        if let Ok(d) = DateTime::parse_from_str(s, f) {
            return Some(d.to_rfc3339());
        }
    }
    if let Ok(d) = DateTime::parse_from_rfc2822(s) {
        return Some(d.to_rfc3339());
    }
    for f in [
        "%Y-%m-%dT%H:%M:%S%.f",
        "%Y-%m-%dT%H:%M",
        "%Y-%m-%d %H:%M:%S",
        "%Y-%m-%d %H:%M",
    ] {
        if let Ok(d) = NaiveDateTime::parse_from_str(s, f) {
            return Some(d.format("%Y-%m-%dT%H:%M:%S").to_string());
        }
    }
    let day = s.get(..10).unwrap_or(s);
    for f in ["%Y-%m-%d", "%Y/%m/%d", "%Y%m%d"] {
        if let Ok(d) = NaiveDate::parse_from_str(day, f) {
            return plausible(d);
        }
    }
    text_date(s)
}

fn plausible(d: chrono::NaiveDate) -> Option<String> {
    use chrono::Datelike;
    (1990..=2100)
        .contains(&d.year())
        .then(|| d.format("%Y-%m-%d").to_string())
}

/// Month names of the bench's languages (English, German, French, Dutch, Spanish, Italian,
/// Polish, in full and abbreviated), lower case, with their number.
const MONTHS: &[(&str, u32)] = &[
    ("january", 1),
    ("jan", 1),
    ("januar", 1),
    ("janvier", 1),
    ("januari", 1),
    ("enero", 1),
    ("gennaio", 1),
    ("stycznia", 1),
    ("styczeń", 1),
    ("february", 2),
    ("feb", 2),
    ("februar", 2),
    ("février", 2),
    ("fevrier", 2),
    ("februari", 2),
    ("febrero", 2),
    ("febbraio", 2),
    ("lutego", 2),
    ("march", 3),
    ("mar", 3),
    ("märz", 3),
    ("maerz", 3),
    ("mars", 3),
    ("maart", 3),
    ("marzo", 3),
    ("marca", 3),
    ("april", 4),
    ("apr", 4),
    ("avril", 4),
    ("abril", 4),
    ("aprile", 4),
    ("kwietnia", 4),
    ("may", 5),
    ("mai", 5),
    ("mei", 5),
    ("mayo", 5),
    ("maggio", 5),
    ("maja", 5),
    ("june", 6),
    ("jun", 6),
    ("juni", 6),
    ("juin", 6),
    ("junio", 6),
    ("giugno", 6),
    ("czerwca", 6),
    ("july", 7),
    ("jul", 7),
    ("juli", 7),
    ("juillet", 7),
    ("julio", 7),
    ("luglio", 7),
    ("lipca", 7),
    ("august", 8),
    ("aug", 8),
    ("août", 8),
    ("aout", 8),
    ("augustus", 8),
    ("agosto", 8),
    ("sierpnia", 8),
    ("september", 9),
    ("sep", 9),
    ("sept", 9),
    ("septembre", 9),
    ("septiembre", 9),
    ("settembre", 9),
    ("września", 9),
    ("october", 10),
    ("oct", 10),
    ("oktober", 10),
    ("octobre", 10),
    ("octubre", 10),
    ("ottobre", 10),
    ("okt", 10),
    ("października", 10),
    ("november", 11),
    ("nov", 11),
    ("novembre", 11),
    ("noviembre", 11),
    ("listopada", 11),
    ("december", 12),
    ("dec", 12),
    ("dezember", 12),
    ("décembre", 12),
    ("decembre", 12),
    ("diciembre", 12),
    ("dicembre", 12),
    ("dez", 12),
    ("grudnia", 12),
];

/// A date written in a short text: `5 March 2024`, `March 5, 2024`, `5. März 2024`,
/// `05.03.2024`, `le 5 mars 2024`; day-first for numeric dates with dots (the European
/// order), and only years 1990–2100.
pub fn text_date(s: &str) -> Option<String> {
    if s.chars().count() > 120 {
        return None;
    }
    let lower = s.to_lowercase();
    let words: Vec<&str> = lower
        .split(|c: char| c.is_whitespace() || c == ',' || c == '|')
        .filter(|w| !w.is_empty())
        .collect();
    let num = |w: &str| -> Option<u32> {
        w.trim_end_matches(['.', 'h', 't', 's', 'n', 'r', 'd'])
            .parse()
            .ok()
    };
    let month = |w: &str| -> Option<u32> {
        let w = w.trim_end_matches('.');
        MONTHS.iter().find(|(n, _)| *n == w).map(|(_, m)| *m)
    };
    let make = |y: u32, mo: u32, d: u32| {
        chrono::NaiveDate::from_ymd_opt(y as i32, mo, d).and_then(plausible)
    };
    for i in 0..words.len() {
        // 5 March 2024 / 5. März 2024
        if i + 2 < words.len() {
            if let (Some(d), Some(mo), Some(y)) =
                (num(words[i]), month(words[i + 1]), num(words[i + 2]))
            {
                if let Some(x) = make(y, mo, d) {
                    return Some(x);
                }
            }
            // March 5, 2024
            if let (Some(mo), Some(d), Some(y)) =
                (month(words[i]), num(words[i + 1]), num(words[i + 2]))
            {
                if let Some(x) = make(y, mo, d) {
                    return Some(x);
                }
            }
        }
        // 05.03.2024 (day first) and 2024.03.05
        let parts: Vec<&str> = words[i].trim_end_matches('.').split('.').collect();
        if parts.len() == 3
            && parts
                .iter()
                .all(|p| !p.is_empty() && p.chars().all(|c| c.is_ascii_digit()))
        {
            let n: Vec<u32> = parts.iter().filter_map(|p| p.parse().ok()).collect();
            let x = if parts[0].len() == 4 {
                make(n[0], n[1], n[2])
            } else {
                make(n[2], n[1], n[0])
            };
            if x.is_some() {
                return x;
            }
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::snapshot::{rect, SnapshotBuilder};

    fn page(head: impl FnOnce(&mut crate::snapshot::Head)) -> Snapshot {
        let mut b = SnapshotBuilder::new(1200.0);
        b.title("Fallback title | Site");
        let h1 = b.el(0, "h1", rect(100.0, 100.0, 800.0, 60.0));
        b.text(h1, "Harbour city opens its first tidal power station");
        let by = b.el(0, "p", rect(100.0, 170.0, 800.0, 20.0));
        b.text(by, "By Ada Lovelace, science reporter");
        let d = b.el(0, "p", rect(100.0, 195.0, 800.0, 20.0));
        b.text(d, "Published 5 March 2024");
        let mut s = b.build();
        for n in s.nodes.iter_mut().filter(|n| n.tag == "h1") {
            n.font_size = 32.0;
        }
        head(&mut s.head);
        s
    }

    fn meta(s: &Snapshot) -> Metadata {
        metadata(s, &Tree::new(s))
    }

    #[test]
    fn json_ld_comes_first_and_names_its_keys() {
        let s = page(|h| {
            h.json_ld.push(
                r#"{"@context":"https://schema.org","@graph":[
                  {"@type":"WebSite","name":"The Daily Demo"},
                  {"@type":["NewsArticle"],"headline":"LD headline",
                   "author":[{"@type":"Person","name":"Grace Hopper"},{"name":"Alan Turing"}],
                   "datePublished":"2024-03-05T09:30:00+01:00","dateModified":"2024-03-06",
                   "keywords":"tides, energy","articleSection":["Science"],
                   "image":{"@type":"ImageObject","url":"https://x.example/a.jpg"}}]};"#
                    .into(),
            );
            h.metas.push(("og:title".into(), "OG title".into()));
        });
        let m = meta(&s);
        assert_eq!(m.title.as_ref().unwrap().value, "LD headline");
        assert_eq!(m.title.as_ref().unwrap().source, "json-ld:headline");
        assert_eq!(
            m.authors.unwrap().value,
            vec!["Grace Hopper", "Alan Turing"]
        );
        assert_eq!(m.published.unwrap().value, "2024-03-05T09:30:00+01:00");
        assert_eq!(m.modified.unwrap().value, "2024-03-06");
        assert_eq!(m.site_name.unwrap().value, "The Daily Demo");
        assert_eq!(m.tags.unwrap().value, vec!["tides", "energy"]);
        assert_eq!(m.categories.unwrap().value, vec!["Science"]);
        assert_eq!(m.image.unwrap().value, "https://x.example/a.jpg");
    }

    #[test]
    fn opengraph_then_meta_then_layout() {
        let s = page(|h| {
            h.metas.push(("og:title".into(), "OG title".into()));
            h.metas.push(("og:site_name".into(), "Demo".into()));
            h.metas.push((
                "article:published_time".into(),
                "2024-03-04T08:00:00Z".into(),
            ));
            h.metas.push(("article:tag".into(), "tides".into()));
            h.metas.push(("article:tag".into(), "Tides".into()));
            h.metas.push(("description".into(), "A station.".into()));
            h.links
                .push(("canonical".into(), "https://x.example/a".into()));
        });
        let m = meta(&s);
        assert_eq!(m.title.unwrap().source, "opengraph:og:title");
        assert_eq!(m.published.unwrap().value, "2024-03-04T08:00:00+00:00");
        assert_eq!(m.tags.unwrap().value, vec!["tides"], "deduplicated");
        assert_eq!(m.description.unwrap().source, "meta:description");
        assert_eq!(m.canonical_url.unwrap().value, "https://x.example/a");
        // No stated author: the byline under the headline.
        let a = m.authors.unwrap();
        assert_eq!(
            (a.value, a.source.as_str()),
            (vec!["Ada Lovelace".to_string()], "layout:byline")
        );
    }

    #[test]
    fn microdata_and_time_then_the_layout_date() {
        let s = page(|h| {
            h.items
                .push(("author".into(), String::new(), "Mary Somerville".into()));
            h.items
                .push(("time".into(), "2023-11-02".into(), "2 Nov".into()));
        });
        let m = meta(&s);
        assert_eq!(m.authors.unwrap().source, "microdata:author");
        let p = m.published.unwrap();
        assert_eq!(
            (p.value.as_str(), p.source.as_str()),
            ("2023-11-02", "time:datetime")
        );
        // Nothing stated: the layout's date and headline, then the document's title.
        let bare = page(|_| {});
        let m = meta(&bare);
        let p = m.published.unwrap();
        assert_eq!(
            (p.value.as_str(), p.source.as_str()),
            ("2024-03-05", "layout:date")
        );
        assert_eq!(m.title.unwrap().source, "layout:headline");
    }

    #[test]
    fn dates_in_the_forms_pages_write_them() {
        assert_eq!(iso_date("2024-03-05").as_deref(), Some("2024-03-05"));
        assert_eq!(
            iso_date("2024-03-05T10:00:00").as_deref(),
            Some("2024-03-05T10:00:00")
        );
        assert_eq!(
            iso_date("Tue, 5 Mar 2024 10:00:00 +0000").as_deref(),
            Some("2024-03-05T10:00:00+00:00")
        );
        assert_eq!(
            text_date("5. März 2024, 14:03 Uhr").as_deref(),
            Some("2024-03-05")
        );
        assert_eq!(
            text_date("le 12 janvier 2021").as_deref(),
            Some("2021-01-12")
        );
        assert_eq!(
            text_date("Updated March 5, 2024").as_deref(),
            Some("2024-03-05")
        );
        assert_eq!(text_date("05.03.2024").as_deref(), Some("2024-03-05"));
        assert_eq!(
            text_date("12 listopada 2020").as_deref(),
            Some("2020-11-12")
        );
        assert_eq!(text_date("5 apples for 2024 people"), None);
        assert_eq!(
            iso_date("0001-01-01"),
            None,
            "implausible years are not dates"
        );
        assert_eq!(iso_date("not a date"), None);
    }

    #[test]
    fn hostile_json_ld_is_ignored() {
        let deep = "[".repeat(10_000) + &"]".repeat(10_000);
        let s = page(|h| {
            h.json_ld.push("{not json".into());
            h.json_ld.push(deep);
            h.json_ld
                .push(r#"{"@type":"Article","headline":42,"author":{"name":null}}"#.into());
        });
        let m = meta(&s);
        assert_eq!(m.title.unwrap().value, "42");
        assert_eq!(m.authors.unwrap().source, "layout:byline");
    }
}
