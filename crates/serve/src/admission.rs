//! One request shape and one admission for both transports: what a caller may choose for a
//! page ([`PageRequest`]: algorithm, format, comments, units, body, screenshot, warc, the
//! writer's `images`, `links` and `base_url`, and the steering fields of [`sightline::Steer`] at the top level), deserialized alike by `serve`'s
//! `/extract` (query or JSON body) and `/score` and by the MCP `extract` tool (`screenshot`
//! and `snapshot` take the steering fields, [`SteerFields`]); and [`admit`], which turns it
//! into the page's configuration under the operator's rules ([`Operator`]: the defaults, the
//! steering grants, the target policy, the `--warc-dir`) or a typed [`Refusal`] each
//! transport maps to its answer (serve: 400, 403 or 500 with a JSON error; MCP: a tool error).

use std::path::Path;
use std::sync::Arc;

use schemars::JsonSchema;
use serde::Deserialize;
use serde_json::{Map, Value};

use sightline::batch::ArchiveWriter;
use sightline::output::Format;
use sightline::render::steer::Grant;
use sightline::{Error, NetPolicy, PageConfig};

/// What a caller may choose for one page: the one request shape of `serve`'s `/extract`
/// (its query, or its JSON body beside `url` or `html`), `/score` (beside `snapshot`) and the
/// MCP `extract` tool (beside `url`). Any field not named here is a steering field.
#[derive(Debug, Default, Clone, Deserialize, JsonSchema)]
pub struct PageRequest {
    /// The scoring choices: `algorithm` and `comments` (default: the server's, its
    /// `--algorithm` and `--comments`).
    #[serde(flatten)]
    pub scoring: sightline::Scoring,
    /// `text` (one paragraph per line), `markdown`, `html` or `json` (the record); default:
    /// `text` on `serve`, `markdown` for the MCP tool (which writes markdown or text).
    #[serde(default)]
    #[schemars(schema_with = "format_schema")]
    pub format: Option<String>,
    /// Add the record's `units` (each text unit's box, probability, contributions and the
    /// algorithms that keep it; `format=json` only).
    #[serde(default, deserialize_with = "sightline::scoring::flag::plain")]
    #[schemars(with = "bool")]
    pub units: bool,
    /// With `format=json`, also put the page's body in this format (`markdown`, `text` or
    /// `html`) in the record's `body`: one render gives the record and the body.
    #[serde(default)]
    pub body: Option<String>,
    /// Add the page's PNG, base64, to the record's `screenshot` (`format=json` only).
    #[serde(default, deserialize_with = "sightline::scoring::flag::plain")]
    #[schemars(with = "bool")]
    pub screenshot: bool,
    /// Archive the page: every request and response the browser made for it, with bodies,
    /// then its text and record, go to a new WARC file in the server's `--warc-dir`; the
    /// answer's `warc` names the file. Refused when the server keeps no archives.
    #[serde(default, deserialize_with = "sightline::scoring::flag::plain")]
    #[schemars(with = "bool")]
    pub warc: bool,
    /// How the markdown writes images and links (`images`: keep, alt, none; `links`:
    /// inline, references, none) and a saved page's address on its site (`base_url`): the
    /// markdown body, and the record's `markdown` and `sections`.
    #[serde(flatten)]
    pub writer: sightline::WriterOptions,
    /// The steering fields.
    #[serde(flatten)]
    pub steer: SteerFields,
}

/// A caller's steering fields: those of [`sightline::Steer`] (`wait_for`, `actions`,
/// `headers`, `consent`, ...) at the top level of the request, or nested under `steer` (an
/// alias; a field given both ways is taken from the top level).
#[derive(Debug, Default, Clone, Deserialize, JsonSchema)]
pub struct SteerFields {
    /// The steering fields nested in one object (an alias of giving them at the top level).
    #[serde(default)]
    #[schemars(with = "Option<sightline::Steer>")]
    pub steer: Option<Map<String, Value>>,
    /// The steering fields at the top level: wait for an element (`wait_for`), run actions
    /// in Firecrawl's shape (`actions`: click "Load more" with `repeat`, write, press,
    /// scroll), gather a virtual list (`scroll_container`), answer consent (`consent`), and
    /// more (docs/steering.md); scripts, headers and cookies only where the server allows
    /// them.
    #[serde(flatten)]
    #[schemars(schema_with = "steer_schema")]
    pub fields: Map<String, Value>,
}

impl SteerFields {
    /// The fields as one object: the `steer` alias's, then the top level's over them.
    pub fn merged(&self) -> Map<String, Value> {
        let mut all = self.steer.clone().unwrap_or_default();
        all.extend(self.fields.clone());
        all
    }

    /// No steering field given.
    pub fn is_empty(&self) -> bool {
        self.fields.is_empty() && self.steer.as_ref().is_none_or(Map::is_empty)
    }

    /// The name of the first field given (for a transport that takes none).
    pub fn first(&self) -> Option<&str> {
        match self.fields.keys().next() {
            Some(k) => Some(k),
            None => self.steer.as_ref().map(|_| "steer"),
        }
    }
}

/// The operator's side of admission: the defaults each page starts from and what a caller
/// may add to them. Each transport lends its own settings.
#[derive(Debug, Clone, Copy)]
pub struct Operator<'a> {
    /// The page's defaults (algorithm, params, format, limits, the operator's steering plan).
    pub page: &'a PageConfig,
    /// What of a caller's steering plan the operator allows (`--allow-scripts`, ...).
    pub grants: &'a [Grant],
    /// Which targets may be rendered.
    pub policy: &'a NetPolicy,
    /// Where `warc: true` writes the page's WARC (`--warc-dir`; None: refused).
    pub warc_dir: Option<&'a Path>,
}

/// An admitted request: the page's configuration and what to do besides rendering it.
#[derive(Debug)]
pub struct Admitted {
    /// The page's configuration: the operator's with the caller's choices and plan over it.
    pub page: PageConfig,
    /// Take a screenshot (`screenshot: true`).
    pub screenshot: bool,
    /// `warc: true`: the file's name in `--warc-dir`, and its writer (also the page's
    /// archive).
    pub warc: Option<(String, Arc<ArchiveWriter>)>,
}

/// Why a request is refused before anything is rendered.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub enum RefusalKind {
    /// The request is malformed or its choices do not fit together (serve: 400).
    Input,
    /// The operator does not allow it: the target, a steering field, an archive (serve: 403).
    Forbidden,
    /// The server could not prepare what was asked (the WARC file; serve: 500).
    Output,
}

/// A request refused before anything is rendered: its kind and a message naming the field
/// and the fix (with the front end's hint).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Refusal {
    pub kind: RefusalKind,
    pub message: String,
}

impl Refusal {
    /// A malformed request or choices that do not fit together.
    pub fn input(message: impl Into<String>) -> Refusal {
        Refusal {
            kind: RefusalKind::Input,
            message: message.into(),
        }
    }

    /// The error kind the answer names (`input`, `forbidden`, `output`).
    pub fn kind_name(&self) -> &'static str {
        match self.kind {
            RefusalKind::Input => "input",
            RefusalKind::Forbidden => "forbidden",
            RefusalKind::Output => "output",
        }
    }
}

impl std::fmt::Display for Refusal {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{} ({})", self.message, self.kind_name())
    }
}

impl From<crate::steering::Refused> for Refusal {
    fn from(r: crate::steering::Refused) -> Refusal {
        Refusal {
            kind: if r.kind == "forbidden" {
                RefusalKind::Forbidden
            } else {
                RefusalKind::Input
            },
            message: r.message,
        }
    }
}

/// Admit one request for a page: the operator's defaults with the caller's choices over them
/// ([`choose`]), the screenshot rule, the caller's steering plan under the grants
/// ([`crate::steering::call_plan`]), the target policy on `url` (None: HTML the caller sent,
/// no target), and the WARC in `--warc-dir`. The first rule broken is the refusal.
pub async fn admit(
    op: &Operator<'_>,
    req: &PageRequest,
    url: Option<&str>,
) -> Result<Admitted, Refusal> {
    let mut page = choose(op.page, req)?;
    if req.screenshot && page.format != Format::Json {
        return Err(Refusal::input(
            "screenshot=true needs format=json (the PNG comes back base64 in the record's `screenshot`)",
        ));
    }
    if let Some(plan) = steering(op, &page, &req.steer)? {
        page.steer = Some(plan);
    }
    if let Some(url) = url {
        target(op, url, &page).await?;
    }
    let warc = if req.warc {
        let (name, w) = warc_file(op.warc_dir)?;
        page.archive = Some(w.clone());
        Some((name, w))
    } else {
        None
    };
    Ok(Admitted {
        page,
        screenshot: req.screenshot,
        warc,
    })
}

/// The operator's page with the caller's scoring and output choices over it (algorithm,
/// comments, format, images, links, base_url, units, body), no browser involved: `Err` names the choice and the fix.
pub fn choose(base: &PageConfig, req: &PageRequest) -> Result<PageConfig, Refusal> {
    let mut page = base.clone();
    req.scoring.apply(&mut page).map_err(Refusal::input)?;
    if let Some(f) = &req.format {
        page.format = f.parse::<Format>().map_err(Refusal::input)?;
    }
    if req.writer != sightline::WriterOptions::default() {
        req.writer
            .validate()
            .map_err(|e| Refusal::input(e.to_string()))?;
        page.writer = req.writer.clone();
    }
    if req.units {
        if page.format != Format::Json {
            return Err(Refusal::input(
                "units=true needs format=json (the units come back in the record's `units`)",
            ));
        }
        page = page.units(true);
    }
    if let Some(b) = &req.body {
        let f = b.parse::<Format>().map_err(Refusal::input)?;
        if page.format != Format::Json || f == Format::Json {
            return Err(Refusal::input(format!(
                "body={b} needs format=json and a body format of markdown, text or html (it comes back in the record's `body`)"
            )));
        }
        page = page.json_body(Some(f));
    }
    Ok(page)
}

/// The caller's steering plan over the operator's, as far as the grants allow (None: the
/// caller sent none).
pub fn steering(
    op: &Operator<'_>,
    page: &PageConfig,
    fields: &SteerFields,
) -> Result<Option<Arc<sightline::Steer>>, Refusal> {
    if fields.is_empty() {
        return Ok(None);
    }
    crate::steering::call_plan(page.steer.as_ref(), &fields.merged(), op.grants)
        .map_err(Refusal::from)
}

/// The target policy on `url`: refused with the policy's reason (and the front end's hint).
pub async fn target(op: &Operator<'_>, url: &str, page: &PageConfig) -> Result<(), Refusal> {
    match op.policy.check(url).await {
        Ok(()) => Ok(()),
        Err(r) => {
            let e = Error::Forbidden {
                input: url.to_string(),
                message: r.to_string(),
            };
            Err(Refusal {
                kind: RefusalKind::Forbidden,
                message: page.message(&e),
            })
        }
    }
}

/// A new WARC in the operator's `--warc-dir`, or the refusal when it keeps none.
fn warc_file(dir: Option<&Path>) -> Result<(String, Arc<ArchiveWriter>), Refusal> {
    let Some(dir) = dir else {
        return Err(Refusal {
            kind: RefusalKind::Forbidden,
            message: crate::archiving::NO_ARCHIVES.into(),
        });
    };
    match crate::archiving::request_warc(dir) {
        Ok((name, w)) => Ok((name, Arc::new(w))),
        Err(e) => Err(Refusal {
            kind: RefusalKind::Output,
            message: e.to_string(),
        }),
    }
}

fn format_schema(_: &mut schemars::SchemaGenerator) -> schemars::Schema {
    schemars::json_schema!({
        "type": ["string", "null"],
        "enum": ["text", "markdown", "html", "json", null],
        "description": "`text`, `markdown`, `html` or `json` (the record); default: `text` on serve, `markdown` for the MCP tool (which writes markdown or text)."
    })
}

/// [`sightline::Steer`]'s fields as top-level properties of the request (its schema without
/// the closing of unknown fields: the request's own fields sit beside them).
fn steer_schema(g: &mut schemars::SchemaGenerator) -> schemars::Schema {
    let mut s = <sightline::Steer as JsonSchema>::json_schema(g);
    if let Some(o) = s.as_object_mut() {
        o.remove("additionalProperties");
        o.remove("title");
        o.remove("description");
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn request(v: Value) -> PageRequest {
        serde_json::from_value(v).unwrap()
    }

    fn operator<'a>(page: &'a PageConfig, policy: &'a NetPolicy) -> Operator<'a> {
        Operator {
            page,
            grants: &[],
            policy,
            warc_dir: None,
        }
    }

    #[test]
    fn steering_fields_sit_at_the_top_level_or_under_steer() {
        let r = request(
            json!({"format": "json", "wait_for": "#a", "steer": {"wait_for": "#b", "consent": "reject"}}),
        );
        assert_eq!(r.format.as_deref(), Some("json"));
        let all = r.steer.merged();
        assert_eq!(all["wait_for"], "#a", "the top level wins");
        assert_eq!(all["consent"], "reject");
        assert!(request(json!({"units": "true"})).units, "a query's string");
        assert!(!request(json!({"warc": null})).warc);
        assert!(serde_json::from_value::<PageRequest>(json!({"units": "yes"})).is_err());
        assert!(request(json!({})).steer.is_empty());
        assert_eq!(request(json!({"colour": 1})).steer.first(), Some("colour"));
    }

    #[test]
    fn a_query_string_gives_the_flags_and_the_scoring_choices() {
        let uri: axum::http::Uri = "/extract?comments=true&units=true&algorithm=ctd&wait_for=%23a"
            .parse()
            .unwrap();
        let axum::extract::Query(r) =
            axum::extract::Query::<PageRequest>::try_from_uri(&uri).unwrap();
        assert_eq!(r.scoring.comments, Some(true));
        assert_eq!(r.scoring.algorithm.as_deref(), Some("ctd"));
        assert!(r.units);
        assert_eq!(r.steer.merged()["wait_for"], "#a");
        assert!(!r.steer.merged().contains_key("comments"));
        let uri: axum::http::Uri = "/extract?comments=maybe".parse().unwrap();
        assert!(axum::extract::Query::<PageRequest>::try_from_uri(&uri).is_err());
    }

    #[test]
    fn choices_that_do_not_fit_are_refused_as_input() {
        let base = PageConfig::default();
        for bad in [
            json!({"units": true}),
            json!({"format": "text", "body": "markdown"}),
            json!({"format": "json", "body": "json"}),
            json!({"algorithm": "nope"}),
            json!({"format": "yaml"}),
            json!({"base_url": "example.org/a"}),
            json!({"page_type": "blog"}),
        ] {
            let e = choose(&base, &request(bad.clone())).unwrap_err();
            assert_eq!(e.kind, RefusalKind::Input, "{bad}");
        }
        let page = choose(
            &base,
            &request(
                json!({"format": "json", "units": true, "algorithm": "ctd", "comments": true}),
            ),
        )
        .unwrap();
        assert!(page.units && page.params.learned.comments);
        assert_eq!(page.algorithms, [sightline::Algorithm::Ctd]);
        let page = choose(&base, &request(json!({"page_type": "product"}))).unwrap();
        assert_eq!(
            page.page_type,
            Some(sightline::extract::page_type::PageKind::Product)
        );
        let e = choose(&base, &request(json!({"page_type": "blog"}))).unwrap_err();
        assert!(
            e.message.contains("blog") && e.message.contains("forum"),
            "{e}"
        );
        let e = choose(&base, &request(json!({"base_url": "/a/b.html"}))).unwrap_err();
        assert!(e.message.contains("base_url `/a/b.html`"), "{e}");
        assert!(serde_json::from_value::<PageRequest>(json!({"links": "footnotes"})).is_err());
    }

    #[test]
    fn the_writers_choices_reach_the_page_from_a_query_or_a_body() {
        let uri: axum::http::Uri =
            "/extract?images=alt&links=references&base_url=https%3A%2F%2Fexample.org%2Fa%2F&wait_for=%23a"
                .parse()
                .unwrap();
        let axum::extract::Query(r) =
            axum::extract::Query::<PageRequest>::try_from_uri(&uri).unwrap();
        let steer = r.steer.merged();
        assert!(!steer.contains_key("links") && !steer.contains_key("base_url"));
        assert_eq!(steer["wait_for"], "#a");
        let page = choose(&PageConfig::default(), &r).unwrap();
        assert_eq!(page.writer.images, sightline::output::ImagesMode::Alt);
        assert_eq!(page.writer.links, sightline::output::LinksMode::References);
        assert_eq!(
            page.writer.base_url.as_deref(),
            Some("https://example.org/a/")
        );
        let page = choose(&PageConfig::default(), &request(json!({"images": "none"}))).unwrap();
        assert_eq!(page.writer.images, sightline::output::ImagesMode::None);
    }

    #[tokio::test]
    async fn admission_applies_the_operators_rules() {
        let base = PageConfig::default();
        let policy = NetPolicy::default();
        let op = operator(&base, &policy);
        let shot = request(json!({"screenshot": true}));
        assert_eq!(
            admit(&op, &shot, None).await.unwrap_err().kind,
            RefusalKind::Input
        );
        let warc = request(json!({"warc": true}));
        let e = admit(&op, &warc, None).await.unwrap_err();
        assert_eq!(e.kind, RefusalKind::Forbidden);
        assert!(e.message.contains("--warc-dir"), "{e}");
        let script = request(json!({"actions": [{"type": "executeJavascript", "script": "1"}]}));
        let e = admit(&op, &script, None).await.unwrap_err();
        assert_eq!(
            (e.kind, e.message.contains("--allow-scripts")),
            (RefusalKind::Forbidden, true)
        );
        let e = admit(&op, &request(json!({})), Some("http://127.0.0.1:9/"))
            .await
            .unwrap_err();
        assert_eq!(e.kind, RefusalKind::Forbidden, "{e}");
        let ok = admit(&op, &request(json!({"wait_for": "#a"})), None)
            .await
            .unwrap();
        assert_eq!(ok.page.steer.unwrap().wait_for.as_deref(), Some("#a"));
    }

    #[test]
    fn the_schema_lists_the_steering_fields_at_the_top_level() {
        let s = serde_json::to_value(schemars::schema_for!(PageRequest)).unwrap();
        let props = s["properties"].as_object().unwrap();
        for k in [
            "algorithm",
            "format",
            "comments",
            "wait_for",
            "actions",
            "steer",
        ] {
            assert!(props.contains_key(k), "{k}: {s}");
        }
        assert!(
            s.get("additionalProperties").is_none_or(|a| a != false),
            "{s}"
        );
        assert!(
            s.get("required")
                .is_none_or(|r| r.as_array().unwrap().is_empty()),
            "{s}"
        );
    }
}
