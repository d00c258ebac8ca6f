//! A plan as the front ends receive it: the JSON forms users bring for headers and cookies
//! (Firecrawl's header object, `"Name: value"` and `"name=value"` strings as on a command
//! line), and what of a plan a service's operator must allow ([`Grant`]).

use serde::{Deserialize, Deserializer};

use super::{parse_cookie, parse_header, Action, Cookie, Header, Steer};

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
        Ok(plan)
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
