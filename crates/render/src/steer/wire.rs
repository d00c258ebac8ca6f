//! A plan as the front ends receive it: the JSON forms users bring for headers and cookies
//! (Firecrawl's header object, `"Name: value"` and `"name=value"` strings as on a command
//! line), the command line's forms (the `clap` feature: `--actions FILE|JSON`, the files of
//! `--cookies`, `--storage-state` and `--block-list`, `--block images,fonts`), the checks no
//! one field can make ([`Steer::validate`]), and what of a plan a service's operator must
//! allow ([`Grant`]).

use serde::{Deserialize, Deserializer};

use super::{parse_cookie, parse_header, Action, Cookie, Header, Steer};
use crate::settings::SettingsError;

/// What of a plan a shared service runs only when its operator allows it: the user's own
/// scripts, headers and cookies reach the pages (and the sites) the service fetches.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Grant {
    /// `executeJavascript` actions and `wait_for_js`.
    Scripts,
    /// `headers` and `user_agent`.
    Headers,
    /// `cookies` and `storage_state`.
    Cookies,
}

impl Grant {
    /// The grant's name as the service's flag says it (`--allow-scripts`).
    pub fn name(self) -> &'static str {
        match self {
            Grant::Scripts => "scripts",
            Grant::Headers => "headers",
            Grant::Cookies => "cookies",
        }
    }
}

impl Steer {
    /// This plan with a caller's `fields` (JSON, as [`Steer`] deserializes) over it: each field
    /// given replaces this plan's; the filter list, which has no JSON form, stays. `Err` names
    /// a field that is unknown or malformed, and the fields there are.
    pub fn with_fields(
        &self,
        fields: &serde_json::Map<String, serde_json::Value>,
    ) -> Result<Steer, String> {
        let mut merged = match serde_json::to_value(self) {
            Ok(serde_json::Value::Object(m)) => m,
            _ => serde_json::Map::new(),
        };
        for (k, v) in fields {
            merged.insert(k.clone(), v.clone());
        }
        let mut plan: Steer =
            serde_json::from_value(serde_json::Value::Object(merged)).map_err(|e| {
                format!(
                    "steering: {e} (the fields: {}; see docs/steering.md)",
                    Steer::field_names().join(", ")
                )
            })?;
        plan.block_list = self.block_list.clone();
        plan.validate()
            .map_err(|e| format!("steering: {e} (see docs/steering.md)"))?;
        Ok(plan)
    }

    /// The checks no one field makes by itself, run by every front end (`with_fields` runs
    /// them for `serve`, MCP and Python; the CLI after its flags): an action list whose
    /// actions can run, waits on something.
    pub fn validate(&self) -> Result<(), SettingsError> {
        for (field, v) in [
            ("wait_for", &self.wait_for),
            ("wait_for_js", &self.wait_for_js),
            ("scroll_container", &self.scroll_container),
        ] {
            if v.as_deref().is_some_and(|v| v.trim().is_empty()) {
                return Err(SettingsError::new(
                    field,
                    "is empty: give a selector or expression, or leave it out",
                ));
            }
        }
        for (i, a) in self.actions.iter().enumerate() {
            if let Action::Wait {
                milliseconds: None,
                selector: None,
                ..
            } = a
            {
                return Err(SettingsError::new(
                    "actions",
                    format!("action {i} (wait) needs `milliseconds` or a `selector`"),
                ));
            }
        }
        Ok(())
    }

    /// The names of a plan's fields, as JSON spells them.
    pub fn field_names() -> Vec<String> {
        let schema = schemars::schema_for!(Steer);
        schema
            .get("properties")
            .and_then(|p| p.as_object())
            .map(|p| p.keys().cloned().collect())
            .unwrap_or_default()
    }

    /// The grants this plan needs from a service's operator, each once, in [`Grant`]'s order.
    pub fn grants_needed(&self) -> Vec<Grant> {
        let mut g = Vec::new();
        if self.wait_for_js.is_some() || self.actions.iter().any(Action::runs_script) {
            g.push(Grant::Scripts);
        }
        if !self.headers.is_empty() || self.user_agent.is_some() {
            g.push(Grant::Headers);
        }
        if !self.cookies.is_empty() || self.storage_state.is_some() {
            g.push(Grant::Cookies);
        }
        g
    }
}

/// The command line's plan: the cookies of `--cookies FILE` after those of `--cookie`, then
/// [`Steer::validate`]. `--cookies` is the one flag without a field of its own in JSON (JSON
/// gives the cookies themselves), so clap reads its file into `cookies_file` and this moves
/// them into `cookies`, the one list the renderer reads.
#[cfg(feature = "clap")]
impl Steer {
    pub fn from_flags(mut self) -> Result<Steer, SettingsError> {
        if let Some(file) = self.cookies_file.take() {
            self.cookies.extend(file);
        }
        self.validate()?;
        Ok(self)
    }
}

/// `--actions`: inline JSON (it starts with `[`) or a file holding it, the whole list one
/// value.
#[cfg(feature = "clap")]
pub(super) fn actions_arg(arg: &str) -> Result<Vec<Action>, String> {
    let text = if arg.trim_start().starts_with('[') {
        arg.to_string()
    } else {
        std::fs::read_to_string(arg).map_err(|e| {
            format!(
                "cannot read --actions {arg} ({e}): a JSON file, or inline JSON starting with `[`"
            )
        })?
    };
    serde_json::from_str(&text).map_err(|e| {
        format!("not a JSON list of actions such as [{{\"type\":\"click\",\"selector\":\"#more\",\"repeat\":5}}] (types: wait, click, write, press, scroll, executeJavascript): {e}")
    })
}

/// `--cookies FILE`: the file's cookies.
#[cfg(feature = "clap")]
pub(super) fn cookies_file_arg(arg: &str) -> Result<Vec<Cookie>, crate::Error> {
    super::load_cookies(std::path::Path::new(arg))
}

/// `--storage-state FILE`: the file's `storageState`.
#[cfg(feature = "clap")]
pub(super) fn storage_state_arg(arg: &str) -> Result<super::StorageState, crate::Error> {
    super::load_storage_state(std::path::Path::new(arg))
}

/// `--block-list FILE`: the filter list, loaded once.
#[cfg(feature = "clap")]
pub(super) fn block_list_arg(
    arg: &str,
) -> Result<std::sync::Arc<dyn super::BlockList>, crate::Error> {
    super::load_block_list(std::path::Path::new(arg))
}

/// One resource type of `--block images,media,fonts` (singulars too).
#[cfg(feature = "clap")]
pub(super) fn blocked_arg(arg: &str) -> Result<super::Blocked, String> {
    use super::Blocked;
    match arg.trim() {
        "images" | "image" => Ok(Blocked::Images),
        "media" => Ok(Blocked::Media),
        "fonts" | "font" => Ok(Blocked::Fonts),
        other => Err(format!(
            "expected images, media or fonts (comma-separated), not `{other}`"
        )),
    }
}

/// `--consent reject|accept|keep`, the names as JSON spells them.
#[cfg(feature = "clap")]
pub(super) fn consent_arg() -> impl clap::builder::TypedValueParser<Value = super::Consent> {
    use clap::builder::TypedValueParser;
    clap::builder::PossibleValuesParser::new(["reject", "accept", "keep"])
        .map(|s| serde_json::from_value(serde_json::Value::String(s)).unwrap_or_default())
}

#[derive(Deserialize)]
#[serde(untagged)]
enum HeaderForm {
    Line(String),
    Pair(Header),
}

#[derive(Deserialize)]
#[serde(untagged)]
enum HeadersForm {
    Map(std::collections::BTreeMap<String, String>),
    List(Vec<HeaderForm>),
}

pub(super) fn headers<'de, D: Deserializer<'de>>(d: D) -> Result<Vec<Header>, D::Error> {
    let checked = |name: &str, value: &str| {
        parse_header(&format!("{name}: {value}")).map_err(serde::de::Error::custom)
    };
    match HeadersForm::deserialize(d)? {
        HeadersForm::Map(m) => m.iter().map(|(n, v)| checked(n, v)).collect(),
        HeadersForm::List(l) => l
            .into_iter()
            .map(|h| match h {
                HeaderForm::Line(s) => parse_header(&s).map_err(serde::de::Error::custom),
                HeaderForm::Pair(h) => checked(&h.name, &h.value),
            })
            .collect(),
    }
}

#[derive(Deserialize)]
#[serde(untagged)]
enum CookieForm {
    Pair(String),
    Full(Cookie),
}

pub(super) fn cookies<'de, D: Deserializer<'de>>(d: D) -> Result<Vec<Cookie>, D::Error> {
    Vec::<CookieForm>::deserialize(d)?
        .into_iter()
        .map(|c| match c {
            CookieForm::Pair(s) => parse_cookie(&s).map_err(serde::de::Error::custom),
            CookieForm::Full(c) => Ok(c),
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn headers_come_as_users_write_them() {
        let s: Steer =
            serde_json::from_str(r#"{"headers":{"X-A":"1","Accept-Language":"de"}}"#).unwrap();
        assert_eq!(s.headers.len(), 2);
        let s: Steer =
            serde_json::from_str(r#"{"headers":["X-A: 1",{"name":"X-B","value":"2"}]}"#).unwrap();
        assert_eq!(s.headers[1].value, "2");
        let e = serde_json::from_str::<Steer>(r#"{"headers":["X-A 1"]}"#).unwrap_err();
        assert!(e.to_string().contains("header"), "{e}");
        assert!(parse_header("X-A: a\r\nEvil: 1").is_err());
    }

    #[test]
    fn cookies_come_as_strings_or_objects() {
        let s: Steer = serde_json::from_str(
            r#"{"cookies":["sid=42",{"name":"a","value":"b","domain":"example.com"}]}"#,
        )
        .unwrap();
        assert_eq!(s.cookies[0].domain, "");
        assert_eq!(s.cookies[1].domain, "example.com");
        assert!(parse_cookie("novalue").is_err());
    }

    #[test]
    fn validate_refuses_what_no_field_can_check_alone() {
        let base = Steer::default();
        let e = base
            .with_fields(&serde_json::from_str(r#"{"actions":[{"type":"wait"}]}"#).unwrap())
            .unwrap_err();
        assert!(e.contains("actions") && e.contains("milliseconds"), "{e}");
        let e = base
            .with_fields(&serde_json::from_str(r#"{"wait_for":" "}"#).unwrap())
            .unwrap_err();
        assert!(e.contains("wait_for"), "{e}");
        let e = base
            .with_fields(&serde_json::from_str(r#"{"max_retry_after":-1}"#).unwrap())
            .unwrap_err();
        assert!(
            e.contains("max_retry_after") || e.contains("negative"),
            "{e}"
        );
    }

    #[cfg(feature = "clap")]
    #[test]
    fn the_flags_read_into_the_same_plan_as_json() {
        use clap::Parser;
        #[derive(Parser)]
        struct Cli {
            #[command(flatten)]
            steer: Steer,
        }
        let plan = |args: &[&str]| -> Result<Steer, String> {
            let c = Cli::try_parse_from(std::iter::once("x").chain(args.iter().copied()))
                .map_err(|e| e.to_string())?;
            c.steer.from_flags().map_err(|e| e.to_string())
        };
        assert_eq!(plan(&[]).unwrap(), Steer::default());
        let p = plan(&[
            "--actions",
            r##"[{"type":"click","selector":"#more"}]"##,
            "-H",
            "X-A: 1",
            "--cookie",
            "a=b",
            "--block",
            "images,font",
            "--consent",
            "keep",
            "--max-retry-after",
            "2.5",
        ])
        .unwrap();
        let json: Steer = serde_json::from_str(
            r##"{"actions":[{"type":"click","selector":"#more"}],"headers":["X-A: 1"],
                "cookies":["a=b"],"block":["images","fonts"],"consent":"keep","max_retry_after":2.5}"##,
        )
        .unwrap();
        assert_eq!(p, json);
        for (args, words) in [
            (&["--block", "videos"][..], "images, media or fonts"),
            (&["--max-retry-after=-1"], "0 or more"),
            (&["--consent", "maybe"], "reject"),
            (&["--actions", r#"[{"type":"wait"}]"#], "milliseconds"),
        ] {
            let e = plan(args).unwrap_err();
            assert!(e.contains(words), "{args:?}: {e}");
        }
    }

    #[test]
    fn grants_name_what_a_service_must_allow() {
        let s: Steer = serde_json::from_str(
            r#"{"actions":[{"type":"executeJavascript","script":"1"}],"user_agent":"x","cookies":["a=b"]}"#,
        )
        .unwrap();
        assert_eq!(
            s.grants_needed(),
            vec![Grant::Scripts, Grant::Headers, Grant::Cookies]
        );
        let s: Steer =
            serde_json::from_str(r#"{"actions":[{"type":"click","selector":"a"}]}"#).unwrap();
        assert!(s.grants_needed().is_empty());
    }
}
