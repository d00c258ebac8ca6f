//! A caller's steering plan (waits, actions, headers, cookies, ...; `sightline::Steer`) as the
//! services take it: on top of the operator's own plan (the service's flags), and only with
//! what the operator allows: the caller's scripts, headers and cookies reach the sites the
//! service fetches only with `--allow-scripts`, `--allow-headers`, `--allow-cookies`
//! ([`Grant`]). The HTTP service and the MCP tools share this one gate.

use std::sync::Arc;

use serde_json::{Map, Value};
use sightline::render::steer::Grant;
use sightline::Steer;

/// Why a caller's plan is not taken, and with which HTTP status the service answers.
#[derive(Debug)]
pub struct Refused {
    /// `input` (a plan that does not parse) or `forbidden` (not allowed by the operator).
    pub kind: &'static str,
    pub message: String,
}

/// The plan of one call: the operator's `base` with the caller's `fields` over it, or None
/// when the caller sent none (the base stands). Refused when a field is unknown or malformed,
/// when it needs a grant the operator did not give, or when it writes a file on the server
/// (`save_storage_state`).
pub fn call_plan(
    base: Option<&Arc<Steer>>,
    fields: &Map<String, Value>,
    allowed: &[Grant],
) -> Result<Option<Arc<Steer>>, Refused> {
    if fields.is_empty() {
        return Ok(None);
    }
    let bad = |message: String| Refused {
        kind: "input",
        message,
    };
    let own = Steer::default().with_fields(fields).map_err(bad)?;
    if own.save_storage_state.is_some() {
        return Err(Refused {
            kind: "forbidden",
            message: "save_storage_state writes a file on the server: a service does not take it (send storage_state, and keep what the page sets from the record)".into(),
        });
    }
    let missing: Vec<&str> = own
        .grants_needed()
        .into_iter()
        .filter(|g| !allowed.contains(g))
        .map(Grant::name)
        .collect();
    if !missing.is_empty() {
        return Err(Refused {
            kind: "forbidden",
            message: format!(
                "this service does not take the caller's {} (its operator allows them with {})",
                missing.join(" and "),
                missing
                    .iter()
                    .map(|m| format!("--allow-{m}"))
                    .collect::<Vec<_>>()
                    .join(" ")
            ),
        });
    }
    match base {
        None => Ok(Some(Arc::new(own))),
        Some(base) => base
            .with_fields(fields)
            .map(|p| Some(Arc::new(p)))
            .map_err(bad),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn map(v: Value) -> Map<String, Value> {
        v.as_object().unwrap().clone()
    }

    #[test]
    fn a_plan_needs_the_operators_grants() {
        let f =
            map(json!({"headers": {"X-A": "1"}, "actions": [{"type": "click", "selector": "a"}]}));
        let e = call_plan(None, &f, &[]).unwrap_err();
        assert_eq!(e.kind, "forbidden");
        assert!(e.message.contains("--allow-headers"), "{}", e.message);
        assert!(call_plan(None, &f, &[Grant::Headers]).unwrap().is_some());
        let f = map(json!({"actions": [{"type": "executeJavascript", "script": "1"}]}));
        assert!(call_plan(None, &f, &[Grant::Headers]).is_err());
        let f = map(json!({"save_storage_state": "/etc/x"}));
        assert_eq!(
            call_plan(None, &f, &[Grant::Cookies]).unwrap_err().kind,
            "forbidden"
        );
    }

    #[test]
    fn the_callers_fields_go_over_the_operators_plan() {
        let mut base = Steer::default();
        base.accept_walls = true;
        base.wait_for = Some("#a".into());
        let base = Arc::new(base);
        let f = map(json!({"wait_for": "#b"}));
        let p = call_plan(Some(&base), &f, &[]).unwrap().unwrap();
        assert_eq!(p.wait_for.as_deref(), Some("#b"));
        assert!(p.accept_walls);
        assert!(call_plan(Some(&base), &Map::new(), &[]).unwrap().is_none());
        let e = call_plan(None, &map(json!({"wait_fro": "#b"})), &[]).unwrap_err();
        assert_eq!(e.kind, "input");
        assert!(e.message.contains("wait_for_text"), "{}", e.message);
    }
}
