//! Links and image sources in markdown, as [`WriterOptions`] asks: where a link points (the
//! page's URL resolves it; `base_url` re-resolves what points next to a saved page; a link to
//! a place in the page itself is `#id`, or its text alone when that place is not in the
//! output), how it is written (`inline`, `references` with the numbered list at the end, or
//! `none`), and the one hook every image goes through ([`Writer::images_mode`]).

use std::cell::RefCell;
use std::collections::{HashMap, HashSet};

use url::Url;

use super::syntax::{destination, escape_text};
use super::{Inline, Writer};
use crate::output::options::{ImagesMode, LinksMode, WriterOptions};
use crate::snapshot::{NodeId, Tree};

/// Stands for a reference link's number until its text is known to be non-empty (a link
/// without text is not written and takes no number).
const PENDING: char = '\u{E000}';

/// What a link becomes.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) enum Target {
    /// Its text only (`javascript:`, an in-page anchor whose target is not in the output).
    Text,
    /// `#id`: a place in the page that the output holds.
    Anchor(String),
    /// An absolute URL.
    Url(String),
}

/// The writer's link settings for one page, and the reference list being numbered.
#[derive(Debug)]
pub(super) struct Links {
    links: LinksMode,
    images: ImagesMode,
    /// The page's URL without its fragment (None: a snapshot without one).
    page: Option<Url>,
    /// `base_url` (None: not given, or not a web URL).
    base: Option<Url>,
    /// The `id`s of the elements the output holds (kept, or above kept content).
    ids: HashSet<String>,
    /// The reference list: the URLs in the order they were numbered, and each URL's number.
    refs: RefCell<(Vec<String>, HashMap<String, usize>)>,
}

impl Links {
    pub(super) fn new(tree: &Tree, kept: &[bool], opts: &WriterOptions) -> Links {
        let page = Url::parse(&tree.snap.url).ok().map(|mut u| {
            u.set_fragment(None);
            u
        });
        // An element holds output when it, or a node below it, is kept (ids grow downwards).
        let mut holds = kept.to_vec();
        for id in (1..tree.len()).rev() {
            if holds[id] {
                if let Some(p) = tree.parent(id) {
                    holds[p] = true;
                }
            }
        }
        // An empty anchor (`<a id="a7d20"></a>` before a member's heading, as Doxygen and
        // Javadoc write) is where its parent's output is.
        let ids = (0..tree.len())
            .filter(|&i| {
                holds[i] || (tree.chars[i] == 0 && tree.parent(i).is_some_and(|p| holds[p]))
            })
            .filter_map(|i| tree.node(i).id.clone())
            .collect();
        Links {
            links: opts.links,
            images: opts.images,
            page,
            base: opts.base().ok().flatten(),
            ids,
            refs: RefCell::default(),
        }
    }

    /// Does `href` lead to another site than the page's (another host, over the web)? A
    /// snapshot without a web URL has no site: nothing leads off it.
    pub(super) fn off_site(&self, href: &str) -> bool {
        let Some(page) = self
            .page
            .as_ref()
            .filter(|p| p.scheme().starts_with("http"))
        else {
            return false;
        };
        page.join(href.trim()).is_ok_and(|u| {
            u.scheme().starts_with("http")
                && u.host_str().map(|h| h.trim_start_matches("www."))
                    != page.host_str().map(|h| h.trim_start_matches("www."))
        })
    }

    /// A URL as the output gives it: resolved against the page's URL, then, with `base_url`,
    /// against the base when it points next to the page (see [`Links::rebase`]).
    pub(super) fn resolve(&self, url: &str) -> String {
        let url = url.trim();
        // An absolute URL not rebased is written as the page gave it.
        let (abs, given) = match (Url::parse(url), &self.page) {
            (Ok(u), _) => (u, true),
            (Err(url::ParseError::RelativeUrlWithoutBase), Some(p)) => match p.join(url) {
                Ok(u) => (u, false),
                Err(_) => return url.to_string(),
            },
            _ => return url.to_string(),
        };
        match self.rebase(&abs) {
            Some(u) => u.to_string(),
            None if given => url.to_string(),
            None => abs.to_string(),
        }
    }

    /// With `base_url`, `u` re-resolved against it when it points next to the page: any
    /// `file://` URL of a saved file, or the page's own origin for a page served over the
    /// web. The page itself is the base; a URL inside the page's folder, or sharing some of
    /// its folders (`../other.html`), keeps its place relative to the page; one that shares
    /// no folder with the page was written from the site's root (`/tags/`, which a saved
    /// file resolves to `file:///tags/`) and keeps its path from the base's root.
    fn rebase(&self, u: &Url) -> Option<Url> {
        let (base, page) = (self.base.as_ref()?, self.page.as_ref()?);
        let near = if page.scheme() == "file" {
            u.scheme() == "file"
        } else {
            u.origin() == page.origin() && u.origin().is_tuple()
        };
        if !near {
            return None;
        }
        let mut bare = u.clone();
        bare.set_fragment(None);
        if bare == *page {
            let mut b = base.clone();
            b.set_fragment(u.fragment());
            return Some(b);
        }
        let dir = &page.path()[..page.path().rfind('/').map_or(0, |i| i + 1)];
        let first = |p: &str| p.split('/').nth(1).map(str::to_string);
        let from_root = !u.path().starts_with(dir) && first(u.path()) != first(dir);
        if from_root {
            return base.join(&u[url::Position::BeforePath..]).ok();
        }
        base.join(&page.make_relative(u)?).ok()
    }

    /// Where a link's `href` takes the reader.
    pub(super) fn target(&self, href: &str) -> Target {
        let h = href.trim();
        if h.is_empty() || h.to_ascii_lowercase().starts_with("javascript:") {
            return Target::Text;
        }
        let abs = match (Url::parse(h), &self.page) {
            (Ok(u), _) => Some(u),
            (Err(url::ParseError::RelativeUrlWithoutBase), Some(p)) => p.join(h).ok(),
            _ => None,
        };
        if let (Some(u), Some(page)) = (&abs, &self.page) {
            let mut bare = u.clone();
            bare.set_fragment(None);
            // `#` alone (a script's link) goes nowhere: its text.
            match u.fragment() {
                Some("") if bare == *page => return Target::Text,
                // A single-page app's route (`#/configuration?id=basepath`, a hashbang
                // `#!/post/12`): another page of the site, written as its URL.
                Some(f) if bare == *page && (f.starts_with('/') || f.starts_with("!/")) => {}
                Some(f) if bare == *page => {
                    let id = percent_decoded(f);
                    return if self.ids.contains(id.as_ref()) {
                        Target::Anchor(format!("#{f}"))
                    } else {
                        Target::Text
                    };
                }
                _ => {}
            }
        }
        Target::Url(self.resolve(h))
    }

    /// The reference number of `url` (a new URL takes the next one).
    fn number(&self, url: &str) -> usize {
        let mut r = self.refs.borrow_mut();
        if let Some(&n) = r.1.get(url) {
            return n;
        }
        r.0.push(url.to_string());
        let n = r.0.len();
        r.1.insert(url.to_string(), n);
        n
    }

    /// The reference list (`[n]: url`, one a line), empty when no link was numbered.
    pub(super) fn definitions(&self) -> String {
        let r = self.refs.borrow();
        r.0.iter()
            .enumerate()
            .map(|(i, u)| format!("[{}]: {}", i + 1, destination(u)))
            .collect::<Vec<_>>()
            .join("\n")
    }
}

/// A fragment as the `id` it names (`%C3%A9t%C3%A9` → `été`): links and footnote references
/// read it alike.
pub(super) fn percent_decoded(f: &str) -> std::borrow::Cow<'_, str> {
    if !f.contains('%') {
        return std::borrow::Cow::Borrowed(f);
    }
    let bytes = f.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        let hex = |b: u8| (b as char).to_digit(16);
        match (bytes[i], bytes.get(i + 1), bytes.get(i + 2)) {
            (b'%', Some(&a), Some(&b)) if hex(a).is_some() && hex(b).is_some() => {
                out.push((hex(a).unwrap_or(0) * 16 + hex(b).unwrap_or(0)) as u8);
                i += 3;
            }
            (b, ..) => {
                out.push(b);
                i += 1;
            }
        }
    }
    std::borrow::Cow::Owned(String::from_utf8_lossy(&out).into_owned())
}

impl Writer<'_, '_> {
    /// A link (`<a href>`): `[text](url)`, `[text][n]`, `[text](#id)` or its text alone, as
    /// the link mode and its [`Target`] say.
    pub(super) fn link(&self, id: NodeId, inl: &mut Inline) {
        self.link_around(id, inl, &|w, inl| w.inline_children(id, inl));
    }

    /// A link written around `content` (the link's children, or a code span holding the
    /// link: `<code><a>x</a></code>` is ``[`x`](url)``), as [`Writer::link`] decides.
    pub(super) fn link_around(
        &self,
        id: NodeId,
        inl: &mut Inline,
        content: &dyn Fn(&Self, &mut Inline),
    ) {
        let href = self.tree.node(id).href.as_deref().unwrap_or("");
        // A title's link to its own site is its permalink (written as its text); one to
        // another site is what the post is about (Hacker News's and Reddit's link posts).
        if self.in_title(id) && !self.links.off_site(href) {
            return content(self, inl);
        }
        // In a heading or a caption, a link to a place in the page is the heading's (or the
        // figure's, table's: xml2rfc's `a.selfRef`) permalink: its text alone, and nothing
        // when that is a sign (`¶`, `#`, `§`, `🔗`).
        let target = self.links.target(href);
        let in_page = match &target {
            Target::Anchor(_) => true,
            Target::Text => href.contains('#'),
            Target::Url(_) => false,
        };
        let worded = self.tree.text(id).chars().any(char::is_alphanumeric);
        let captioned = || {
            self.tree
                .ancestors(id)
                .any(|a| matches!(self.tree.node(a).tag.as_str(), "figcaption" | "caption"))
        };
        if in_page && (self.in_heading(id) || captioned()) {
            if worded {
                content(self, inl);
            }
            return;
        }
        // Elsewhere, a link to a place in the page that is only a sign is a permalink too
        // (Sphinx's `a.headerlink` after a glossary term or a caption).
        let imaged = self
            .tree
            .subtree(id)
            .any(|d| self.tree.node(d).tag == "img");
        if in_page && !worded && !imaged && !self.tree.text(id).trim().is_empty() {
            return;
        }
        match (target, self.links.links) {
            (Target::Text, _) | (_, LinksMode::None) => content(self, inl),
            (Target::Anchor(a), _) => {
                self.wrap_with(inl, content, "[", &format!("]({})", destination(&a)))
            }
            (Target::Url(u), LinksMode::Inline) => {
                self.wrap_with(inl, content, "[", &format!("]({})", destination(&u)))
            }
            (Target::Url(u), LinksMode::References) => {
                let start = inl.out.len();
                self.wrap_with(inl, content, "[", &format!("]{PENDING}"));
                // The link's own marker is the last one: inner links replaced theirs.
                if let Some(at) = inl.out[start..].rfind(PENDING) {
                    let n = self.links.number(&u);
                    let at = start + at;
                    inl.out
                        .replace_range(at..at + PENDING.len_utf8(), &format!("[{n}]"));
                }
            }
        }
    }

    /// Write one image as the images mode says: `keep` gives `![alt](src)` (a missing or
    /// `data:` source: the alt text), `alt` the alt text, `none` nothing. Every image the
    /// writer writes goes through here; `alt` is the image's alt text, whitespace collapsed.
    pub(super) fn images_mode(&self, inl: &mut Inline, alt: &str, src: Option<&str>) {
        match (self.links.images, src.map(str::trim)) {
            (ImagesMode::None, _) => {}
            (ImagesMode::Keep, Some(src)) if !src.is_empty() && !src.starts_with("data:") => {
                let mut a = String::new();
                if !alt.is_empty() {
                    escape_text(&mut a, alt, None, false);
                }
                let src = self.links.resolve(src);
                inl.out.push_str(&format!("![{a}]({})", destination(&src)));
            }
            _ if !alt.is_empty() => inl.text(alt),
            _ => {}
        }
    }
}

#[cfg(test)]
mod tests {
    use super::super::write;
    use crate::extract::{Algorithm, Extraction};
    use crate::output::options::{ImagesMode, LinksMode, WriterOptions};
    use crate::snapshot::{rect, Snapshot, SnapshotBuilder, Tree};

    const PAGE: &str = "file:///home/u/saved/post.html";

    /// A saved page (its URL a `file://` one): a heading with an id, links next to the page
    /// (same folder, root-relative, the page itself, an anchor to the heading, an anchor to
    /// nothing kept), a link elsewhere, a `javascript:` link, the same URL twice, an image.
    fn saved_page() -> Snapshot {
        let mut b = SnapshotBuilder::new(800.0);
        let art = b.el(0, "article", rect(0.0, 0.0, 800.0, 600.0));
        let h = b.el(art, "h2", rect(0.0, 0.0, 800.0, 30.0));
        b.node_mut(h).id = Some("intro".into());
        b.text(h, "Intro");
        let p = b.el(art, "p", rect(0.0, 40.0, 800.0, 60.0));
        let link = |b: &mut SnapshotBuilder, href: &str, text: &str| {
            let a = b.el(p, "a", rect(0.0, 40.0, 60.0, 20.0));
            b.node_mut(a).href = Some(href.into());
            b.text(a, text);
            b.text(p, " ");
        };
        link(&mut b, "file:///home/u/saved/other.html?x=1#top", "other");
        link(&mut b, "file:///about.html", "about");
        link(&mut b, &format!("{PAGE}#intro"), "up");
        link(&mut b, &format!("{PAGE}#gone"), "gone");
        link(&mut b, PAGE, "self");
        link(&mut b, "https://elsewhere.org/x", "out");
        link(&mut b, "javascript:void(0)", "js");
        link(&mut b, &format!("{PAGE}#"), "hash");
        link(&mut b, "https://elsewhere.org/x", "again");
        link(&mut b, "#/configuration?id=basepath", "route");
        let img = b.el(p, "img", rect(0.0, 70.0, 100.0, 100.0));
        b.node_mut(img).src = Some("file:///home/u/saved/img/a.png".into());
        b.node_mut(img).alt = Some("A cat".into());
        let mut s = b.build();
        s.url = PAGE.into();
        s
    }

    fn md(snap: &Snapshot, opts: &WriterOptions) -> String {
        let tree = Tree::new(snap);
        let mut ex = Extraction::empty(Algorithm::Td, snap.nodes.len());
        ex.kept = vec![true; snap.nodes.len()];
        write(&tree, &ex, opts).markdown
    }

    #[test]
    fn links_resolve_against_the_page_and_anchors_stay_in_the_page() {
        let out = md(&saved_page(), &WriterOptions::default());
        assert_eq!(
            out,
            "# Intro\n\n\
             [other](file:///home/u/saved/other.html?x=1#top) [about](file:///about.html) \
             [up](#intro) gone [self](file:///home/u/saved/post.html) \
             [out](https://elsewhere.org/x) js hash [again](https://elsewhere.org/x) \
             [route](file:///home/u/saved/post.html#/configuration?id=basepath) ![A cat](file:///home/u/saved/img/a.png)\n"
        );
    }

    #[test]
    fn base_url_gives_a_saved_pages_links_on_its_site() {
        let opts = WriterOptions {
            base_url: Some("https://example.org/a/post".into()),
            ..Default::default()
        };
        let out = md(&saved_page(), &opts);
        assert!(
            out.contains("[other](https://example.org/a/other.html?x=1#top)"),
            "{out}"
        );
        assert!(
            out.contains("[about](https://example.org/about.html)"),
            "{out}"
        );
        assert!(out.contains("[up](#intro) gone"), "{out}");
        // A base deeper than the saved file: root-relative links keep their root, `../`
        // links their place.
        let mut deep = saved_page();
        deep.nodes[8].href = Some("file:///home/u/elsewhere.html".into()); // "about"
        let opts = WriterOptions {
            base_url: Some("https://example.org/w/x/y/z/post".into()),
            ..Default::default()
        };
        let d = md(&deep, &opts);
        assert!(
            d.contains("[other](https://example.org/w/x/y/z/other.html?x=1#top)"),
            "{d}"
        );
        assert!(
            d.contains("[about](https://example.org/w/x/y/elsewhere.html)"),
            "{d}"
        );
        deep.nodes[8].href = Some("file:///tags/rye/".into());
        let d = md(&deep, &opts);
        assert!(d.contains("[about](https://example.org/tags/rye/)"), "{d}");
        assert!(out.contains("[self](https://example.org/a/post)"), "{out}");
        assert!(out.contains("[out](https://elsewhere.org/x)"), "{out}");
        assert!(
            out.contains("![A cat](https://example.org/a/img/a.png)"),
            "{out}"
        );
        assert!(!out.contains("file://"), "{out}");
    }

    #[test]
    fn base_url_rebases_the_pages_own_origin_when_served() {
        let mut snap = saved_page();
        snap.url = "http://127.0.0.1:8000/mirror/post.html".into();
        for n in &mut snap.nodes {
            for u in [&mut n.href, &mut n.src].into_iter().flatten() {
                *u = u.replace("file:///home/u/saved/", "http://127.0.0.1:8000/mirror/");
            }
        }
        let opts = WriterOptions {
            base_url: Some("https://example.org/blog/post.html".into()),
            ..Default::default()
        };
        let out = md(&snap, &opts);
        assert!(
            out.contains("[other](https://example.org/blog/other.html?x=1#top)"),
            "{out}"
        );
        assert!(out.contains("[up](#intro)"), "{out}");
        assert!(out.contains("[out](https://elsewhere.org/x)"), "{out}");
    }

    #[test]
    fn references_number_each_url_once_and_list_them_at_the_end() {
        let opts = WriterOptions {
            links: LinksMode::References,
            base_url: Some("https://example.org/a/".into()),
            ..Default::default()
        };
        let out = md(&saved_page(), &opts);
        assert_eq!(
            out,
            "# Intro\n\n\
             [other][1] [about][2] [up](#intro) gone [self][3] [out][4] js hash [again][4] \
             [route][5] ![A cat](https://example.org/a/img/a.png)\n\n\
             [1]: https://example.org/a/other.html?x=1#top\n\
             [2]: https://example.org/about.html\n\
             [3]: https://example.org/a/\n\
             [4]: https://elsewhere.org/x\n\
             [5]: https://example.org/a/#/configuration?id=basepath\n"
        );
    }

    #[test]
    fn links_none_and_the_image_modes_keep_the_text() {
        let none = WriterOptions {
            links: LinksMode::None,
            images: ImagesMode::Alt,
            ..Default::default()
        };
        assert_eq!(
            md(&saved_page(), &none),
            "# Intro\n\nother about up gone self out js hash again route A cat\n"
        );
        let dropped = WriterOptions {
            images: ImagesMode::None,
            ..Default::default()
        };
        let out = md(&saved_page(), &dropped);
        assert!(!out.contains("cat") && out.contains("[again]"), "{out}");
    }

    #[test]
    fn a_link_holding_only_an_image_follows_the_images_mode() {
        let mut b = SnapshotBuilder::new(800.0);
        let p = b.el(0, "p", rect(0.0, 0.0, 800.0, 100.0));
        let a = b.el(p, "a", rect(0.0, 0.0, 100.0, 100.0));
        b.node_mut(a).href = Some("https://example.org/big.png".into());
        let img = b.el(a, "img", rect(0.0, 0.0, 100.0, 100.0));
        b.node_mut(img).src = Some("https://example.org/small.png".into());
        let snap = b.build();
        let refs = WriterOptions {
            links: LinksMode::References,
            ..Default::default()
        };
        assert_eq!(
            md(&snap, &refs),
            "[![](https://example.org/small.png)][1]\n\n[1]: https://example.org/big.png\n"
        );
        let none = WriterOptions {
            links: LinksMode::References,
            images: ImagesMode::None,
            ..Default::default()
        };
        assert_eq!(md(&snap, &none), "", "no text, no link, no number");
    }
}
