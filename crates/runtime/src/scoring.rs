//! The one declaration of the caller's scoring choices ([`Scoring`]: the algorithm and reader
//! comments): the CLI flattens it (the `clap` feature), `serve` and MCP deserialize it inside
//! their page request, and Python's keywords are read from its schema ([`Scoring::described`]).
//! [`flag`] reads booleans as JSON or a query string gives them.

use serde::Deserialize;

/// How each page is scored: the choices a caller makes per run, request or browser. An unset
/// field keeps what the front end starts from (the library's default, or a server's
/// `--algorithm`/`--comments`).
#[derive(Debug, Default, Clone, PartialEq, Eq, Deserialize, schemars::JsonSchema)]
#[cfg_attr(feature = "clap", derive(clap::Args))]
pub struct Scoring {
    /// The scoring algorithm: learned (sightline's classifier, the default), td, ctd, htd,
    /// ctd-smooth, wang, vsse, vsse-records, crunch, blocks, ensemble, or all (the command
    /// line's `extract`: one render, every algorithm). A server's (`serve`, `mcp`) is the
    /// default its requests and tool calls may replace.
    #[serde(default)]
    #[schemars(transform = algorithm_names)]
    #[cfg_attr(
        feature = "clap",
        arg(long, short, default_value = crate::extract::DEFAULT_ALGORITHM.name(), value_name = "A")
    )]
    pub algorithm: Option<String>,
    /// Keep reader comments (`learned`): the comment section's posts follow the article and
    /// are marked `"comment": true` in the JSON record's `details.blocks`. Default: dropped;
    /// a server's (`serve`, `mcp`) is the default its requests and tool calls may replace.
    #[serde(default, deserialize_with = "flag::optional")]
    #[schemars(with = "Option<bool>")]
    #[cfg_attr(feature = "clap", arg(long, action = clap::ArgAction::SetTrue))]
    pub comments: Option<bool>,
    /// The page's type as you know it (article, product, listing, forum, collection, service,
    /// documentation): the record's `page_type` states it instead of the model's prediction.
    /// Default: predicted from each page's markup and URL.
    #[serde(default)]
    #[schemars(transform = page_type_names)]
    #[cfg_attr(feature = "clap", arg(long = "page-type", value_name = "TYPE"))]
    pub page_type: Option<String>,
}

impl Scoring {
    /// Each field as a keyword table reads it: its JSON name, its default (an unset flag is
    /// off: `false`; another unset field `null`, the front end's default) and its doc (from
    /// the JSON schema), in name order. Python's scoring keywords are made from it.
    pub fn described() -> Vec<(String, serde_json::Value, String)> {
        sightline_core::described::described(&schemars::schema_for!(Scoring), None)
    }
}

impl Scoring {
    /// These choices over a page's settings, the one place each front end (the CLI, `serve`
    /// and MCP, Python) turns them into a [`crate::PageConfig`]: a named algorithm (or a
    /// comma list, or `all`) replaces the page's algorithms, `comments` sets reader comments
    /// either way, a stated page type replaces the prediction; an unset field keeps the
    /// page's. `Err` names the field, the value and what to give.
    pub fn apply(&self, page: &mut crate::PageConfig) -> Result<(), String> {
        if let Some(a) = &self.algorithm {
            page.algorithms = crate::Algorithm::parse_list([a.as_str()], &crate::Algorithm::ALL)
                .map_err(|e| format!("algorithm: {e}"))?;
        }
        if let Some(c) = self.comments {
            page.params.learned.comments = c;
        }
        if let Some(t) = self.page_kind()? {
            page.page_type = Some(t);
        }
        Ok(())
    }

    /// The stated page type, checked: `Err` names the value and the types to give.
    pub fn page_kind(&self) -> Result<Option<crate::extract::page_type::PageKind>, String> {
        self.page_type
            .as_deref()
            .map(|t| t.parse().map_err(|e: String| format!("page_type: {e}")))
            .transpose()
    }
}

/// The page type's schema names the types, or null.
fn page_type_names(schema: &mut schemars::Schema) {
    named(
        schema,
        crate::extract::page_type::PageKind::ALL
            .iter()
            .map(|k| k.name()),
    );
}

/// The algorithm's schema names the algorithms ([`crate::Algorithm::ALL`]), or null.
fn algorithm_names(schema: &mut schemars::Schema) {
    named(schema, crate::Algorithm::ALL.iter().map(|a| a.name()));
}

/// An optional string field's schema: one of `names`, or null.
fn named<'a>(schema: &mut schemars::Schema, names: impl Iterator<Item = &'a str>) {
    let values: Vec<Option<&str>> = names.map(Some).chain([None]).collect();
    schema.insert("enum".into(), serde_json::json!(values));
}

/// Booleans as JSON gives them or as a query string does (`true`, `false`, `1`, `0`): a
/// flattened request reads its values from a buffer that keeps a query's strings as strings.
/// Use with `#[serde(default, deserialize_with = "…")]`.
pub mod flag {
    use std::fmt;

    use serde::de::{Deserializer, Error, Visitor};

    /// A flag that may be left out or `null` (false).
    pub fn plain<'de, D: Deserializer<'de>>(d: D) -> Result<bool, D::Error> {
        optional(d).map(|b| b.unwrap_or(false))
    }

    /// A flag that may be left out or `null` (`None`).
    pub fn optional<'de, D: Deserializer<'de>>(d: D) -> Result<Option<bool>, D::Error> {
        d.deserialize_option(Optional)
    }

    struct Optional;

    impl<'de> Visitor<'de> for Optional {
        type Value = Option<bool>;

        fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
            f.write_str("true or false")
        }

        fn visit_none<E: Error>(self) -> Result<Option<bool>, E> {
            Ok(None)
        }

        fn visit_unit<E: Error>(self) -> Result<Option<bool>, E> {
            Ok(None)
        }

        fn visit_some<D: Deserializer<'de>>(self, d: D) -> Result<Option<bool>, D::Error> {
            d.deserialize_any(Flag).map(Some)
        }
    }

    struct Flag;

    impl Visitor<'_> for Flag {
        type Value = bool;

        fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
            f.write_str("true or false")
        }

        fn visit_bool<E: Error>(self, b: bool) -> Result<bool, E> {
            Ok(b)
        }

        fn visit_str<E: Error>(self, t: &str) -> Result<bool, E> {
            match t {
                "true" | "1" => Ok(true),
                "false" | "0" => Ok(false),
                _ => Err(E::custom(format!(
                    "invalid value `{t}`, expected true or false"
                ))),
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn flags_read_json_and_query_strings() {
        let s: Scoring = serde_json::from_value(json!({"comments": "true"})).unwrap();
        assert_eq!(s.comments, Some(true));
        let s: Scoring = serde_json::from_value(json!({"comments": false})).unwrap();
        assert_eq!(s.comments, Some(false));
        let s: Scoring = serde_json::from_value(json!({"comments": null})).unwrap();
        assert_eq!(s, Scoring::default());
        assert!(serde_json::from_value::<Scoring>(json!({"comments": "yes"})).is_err());
        assert!(serde_json::from_value::<Scoring>(json!({"comments": 2})).is_err());
    }

    #[test]
    fn every_field_is_described_and_the_algorithms_are_named() {
        let d = Scoring::described();
        let names: Vec<&str> = d.iter().map(|f| f.0.as_str()).collect();
        assert_eq!(names, ["algorithm", "comments", "page_type"]);
        assert_eq!(d[0].1, serde_json::Value::Null);
        assert_eq!(d[1].1, json!(false));
        assert!(d.iter().all(|f| !f.2.is_empty()), "{d:?}");
        let s = serde_json::to_value(schemars::schema_for!(Scoring)).unwrap();
        let names = s["properties"]["algorithm"]["enum"].as_array().unwrap();
        assert!(names.contains(&json!("learned")) && names.contains(&json!(null)));
        let types = s["properties"]["page_type"]["enum"].as_array().unwrap();
        assert!(types.contains(&json!("product")) && types.contains(&json!(null)));
    }

    #[test]
    fn a_stated_page_type_is_checked() {
        let s: Scoring = serde_json::from_value(json!({"page_type": "forum"})).unwrap();
        assert_eq!(
            s.page_kind(),
            Ok(Some(crate::extract::page_type::PageKind::Forum))
        );
        let s: Scoring = serde_json::from_value(json!({"page_type": "blog"})).unwrap();
        let e = s.page_kind().unwrap_err();
        assert!(
            e.contains("page_type") && e.contains("blog") && e.contains("article"),
            "{e}"
        );
        assert_eq!(Scoring::default().page_kind(), Ok(None));
    }

    #[test]
    fn apply_replaces_what_is_set_and_keeps_the_rest() {
        use crate::extract::page_type::PageKind;
        let mut page = crate::PageConfig::default().algorithms(vec![crate::Algorithm::Ctd]);
        page.params.learned.comments = true;
        Scoring::default().apply(&mut page).unwrap();
        assert_eq!(page.algorithms, vec![crate::Algorithm::Ctd]);
        assert!(page.params.learned.comments);
        assert_eq!(page.page_type, None);
        let s: Scoring = serde_json::from_value(
            json!({"algorithm": "td,wang", "comments": false, "page_type": "forum"}),
        )
        .unwrap();
        s.apply(&mut page).unwrap();
        assert_eq!(
            page.algorithms,
            vec![crate::Algorithm::Td, crate::Algorithm::Wang]
        );
        assert!(!page.params.learned.comments);
        assert_eq!(page.page_type, Some(PageKind::Forum));
        let bad: Scoring = serde_json::from_value(json!({"algorithm": "tdd"})).unwrap();
        let e = bad.apply(&mut page).unwrap_err();
        assert!(e.starts_with("algorithm: ") && e.contains("tdd"), "{e}");
        let bad: Scoring = serde_json::from_value(json!({"page_type": "blog"})).unwrap();
        assert!(bad.apply(&mut page).unwrap_err().starts_with("page_type: "));
    }
}
