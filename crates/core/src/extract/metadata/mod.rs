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
//!    to the headline (the largest heading at the top of the page; it is the title when
//!    `<title>` holds it).
//! 6. The document and its URL: `<title>`, a date in the URL's path, the first date written
//!    in the page's text, `<html lang>`, `<link rel=canonical>`, and the host name as the
//!    site's name.
//!
//! Pure: reads a [`Snapshot`] (whose `head` the snapshot script fills) and its [`Tree`].

use serde::Serialize;
use serde_json::Value;

use crate::snapshot::{NodeId, Snapshot, Tree};

mod dates;
use dates::plausible;
pub use dates::{iso_date, text_date};

/// One metadata value and where it was read.
#[derive(Debug, Clone, PartialEq, Serialize, schemars::JsonSchema)]
pub struct Field<T> {
    pub value: T,
    /// `json-ld`, `opengraph`, `meta`, `microdata`, `time`, `layout`, `title`, `html-lang`,
    /// `link`, followed by the key read (`json-ld:datePublished`, `opengraph:og:title`).
    pub source: String,
}

/// The page's metadata. Absent fields were found nowhere.
#[derive(Debug, Clone, Default, PartialEq, Serialize, schemars::JsonSchema)]
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

/// A JSON-LD object's `@type`s, lower-cased.
pub(crate) fn types_of(v: &Value) -> Vec<String> {
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
pub(crate) fn ld_objects(snap: &Snapshot) -> Vec<Value> {
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
        // WordPress and others write HTML entities inside JSON-LD strings (`&#038;`).
        Value::String(s) => clean(&html_escape::decode_html_entities(s)),
        Value::Number(n) => Some(n.to_string()),
        Value::Array(a) => a.iter().find_map(|x| ld_str(Some(x))),
        Value::Object(o) => ld_str(o.get("name").or(o.get("@value")).or(o.get("url"))),
        _ => None,
    }
}

fn ld_names(v: Option<&Value>) -> Vec<String> {
    match v {
        Some(Value::Array(a)) => a.iter().flat_map(|x| ld_names(Some(x))).collect(),
        Some(Value::String(s)) => vec![html_escape::decode_html_entities(s).into_owned()],
        Some(Value::Object(o)) => ld_str(o.get("name")).into_iter().collect(),
        _ => Vec::new(),
    }
}

fn ld_list(v: Option<&Value>) -> Vec<String> {
    match v {
        Some(Value::String(s)) => html_escape::decode_html_entities(s)
            .split(',')
            .map(str::to_string)
            .collect(),
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
    // The title: the headline when `<title>` holds it (`Headline | Site`: the headline
    // without the site's name), else `<title>` itself ([`from_document`]); the headline alone
    // only for a page without a `<title>`.
    let head_text = clean(&tree.text(h));
    let title = clean(&snap.title);
    match (&head_text, &title) {
        (Some(ht), Some(t)) if t.to_lowercase().contains(&ht.to_lowercase()) => {
            set(&mut m.title, head_text.clone(), || "layout:headline".into())
        }
        (Some(_), None) => set(&mut m.title, head_text.clone(), || "layout:headline".into()),
        _ => {}
    }
}

/// The first date written anywhere in the page's visible text, in document order: pages
/// state their date in a dateline or footer far from the headline too.
fn page_date(snap: &Snapshot) -> Option<String> {
    snap.nodes
        .iter()
        .filter(|n| n.rendered)
        .filter_map(|n| n.text.as_deref())
        .map(str::trim)
        .filter(|t| t.chars().count() <= 200)
        .find_map(text_date)
}

/// A date in the URL's path (`/2024/03/05/`, `/2024-03-05-`), as news sites write them.
fn url_date(url: &str) -> Option<String> {
    let path = url::Url::parse(url).ok()?.path().to_string();
    let parts: Vec<&str> = path.split(['/', '-', '_', '.']).collect();
    parts.windows(3).find_map(|w| {
        let (y, mo, d) = (w[0], w[1], w[2]);
        if y.len() != 4 || mo.len() > 2 || d.len() > 2 || d.is_empty() || mo.is_empty() {
            return None;
        }
        let date =
            chrono::NaiveDate::from_ymd_opt(y.parse().ok()?, mo.parse().ok()?, d.parse().ok()?)?;
        plausible(date)
    })
}

/// The URL's host when it names a site (not an address, not this machine).
fn site_host(url: &str) -> Option<String> {
    let u = url::Url::parse(url).ok()?;
    match u.host()? {
        url::Host::Domain(d) if d != "localhost" && d.contains('.') => {
            Some(d.trim_start_matches("www.").to_string())
        }
        _ => None,
    }
}

/// Separators between a page's title and its site's name in `<title>`.
const TITLE_SEPARATORS: &[&str] = &[
    " | ", " - ", " – ", " — ", " » ", " · ", " :: ", " > ", " : ",
];

/// `<title>` without the site's name: split at the separators, drop the parts that name the
/// site (its stated name or its host), keep the longest part left (in words; the first of
/// equals). A title without separators is kept whole.
fn clean_title(title: &str, site: Option<&str>, host: Option<&str>) -> Option<String> {
    let title = clean(title)?;
    let Some(sep) = TITLE_SEPARATORS.iter().find(|s| title.contains(**s)) else {
        return Some(title);
    };
    let names_site = |part: &str| {
        let p = part.to_lowercase();
        site.is_some_and(|s| {
            let s = s.to_lowercase();
            p == s || (p.len() > 3 && s.contains(&p)) || (s.len() > 3 && p.contains(&s))
        }) || host.is_some_and(|h| {
            let stem = h.split('.').next().unwrap_or(h);
            p.replace([' ', '-'], "").contains(stem) && p.split_whitespace().count() <= 3
        }) || (p.split_whitespace().count() == 1 && p.contains('.'))
    };
    let parts: Vec<&str> = title
        .split(sep)
        .map(str::trim)
        .filter(|p| !p.is_empty())
        .collect();
    let kept: Vec<&str> = parts.iter().copied().filter(|p| !names_site(p)).collect();
    let pick = |v: &[&str]| {
        v.iter()
            .copied()
            .rev()
            .max_by_key(|p| p.split_whitespace().count())
            .map(str::to_string)
    };
    pick(&kept).or_else(|| pick(&parts)).or(Some(title))
}

fn from_document(snap: &Snapshot, m: &mut Metadata) {
    let site = m.site_name.as_ref().map(|f| f.value.clone());
    let host = site_host(&snap.url);
    set(
        &mut m.title,
        clean_title(&snap.title, site.as_deref(), host.as_deref()),
        || "title".into(),
    );
    set(&mut m.published, url_date(&snap.url), || "url:path".into());
    set(&mut m.published, page_date(snap), || {
        "layout:page-date".into()
    });
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
    let canonical = m.canonical_url.as_ref().map(|f| f.value.clone());
    set(
        &mut m.site_name,
        canonical
            .as_deref()
            .and_then(site_host)
            .or_else(|| site_host(&snap.url)),
        || "url:host".into(),
    );
}

#[cfg(test)]
mod tests;
