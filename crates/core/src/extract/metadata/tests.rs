//! Metadata from hand-made snapshots: each source, the order between them, dates.

use super::*;
use crate::snapshot::{rect, SnapshotBuilder};

fn page(head: impl FnOnce(&mut crate::snapshot::Head)) -> Snapshot {
    let mut b = SnapshotBuilder::new(1200.0);
    b.title("Harbour city opens its first tidal power station | The Daily Demo");
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
    assert_eq!(
        m.title.unwrap().value,
        "Harbour city opens its first tidal power station",
        "the headline, without the site's name that <title> adds"
    );
    // A <title> that does not hold the headline (a site header's large heading) wins.
    let mut other = page(|_| {});
    other.title = "Tides: the full story".into();
    let m = meta(&other);
    assert_eq!(m.title.unwrap().source, "title");
}

#[test]
fn dates_and_site_from_the_url() {
    assert_eq!(
        url_date("https://x.example/2024/03/05/tides").as_deref(),
        Some("2024-03-05")
    );
    assert_eq!(
        url_date("https://x.example/news/2024-03-05-tides.html").as_deref(),
        Some("2024-03-05")
    );
    assert_eq!(url_date("https://x.example/item/1234/56/78"), None);
    assert_eq!(
        site_host("https://www.demo.example/a").as_deref(),
        Some("demo.example")
    );
    assert_eq!(site_host("http://127.0.0.1:8080/a"), None);
    assert_eq!(site_host("http://localhost/a"), None);
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

#[test]
fn titles_lose_the_site_name() {
    let t = |s: &str, site: Option<&str>, host: Option<&str>| clean_title(s, site, host).unwrap();
    assert_eq!(
        t(
            "Serology: It's in the Blood - The Crime library",
            None,
            None
        ),
        "Serology: It's in the Blood"
    );
    assert_eq!(
        t("New Jason Donovan TV soap 'lame' | NEWS.com.au", None, None),
        "New Jason Donovan TV soap 'lame'"
    );
    assert_eq!(
        t("People.co.uk - Port Vale 1 Luton 2", None, None),
        "Port Vale 1 Luton 2"
    );
    assert_eq!(
        t(
            "Safe Haven | Wall Street Kisses Goodbye",
            Some("Safe Haven"),
            None
        ),
        "Wall Street Kisses Goodbye"
    );
    assert_eq!(
        t(
            "icScotland - Jewell close to striker move",
            None,
            Some("icscotland.co.uk")
        ),
        "Jewell close to striker move"
    );
    assert_eq!(
        t("Tides: the full story", None, None),
        "Tides: the full story"
    );
}
