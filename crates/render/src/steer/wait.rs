//! Wait conditions (`--wait-for SELECTOR`, `--wait-for-text TEXT`, `--wait-for-js EXPR`):
//! checked after the page settles, every [`WAIT_POLL`], until each holds in turn or the page's
//! deadline passes. A condition that never holds is a `timeout` whose phase names it
//! ("waiting for the selector `#article`"). Once a condition holds, the page settles again
//! (what appeared usually brings more with it).

use std::time::{Duration, Instant};

use chromiumoxide::cdp::js_protocol::runtime::{EvaluateParams, RemoteObject, RemoteObjectType};
use serde_json::Value;

use super::driver::{self, call, Answer, Driver};
use super::Steer;
use crate::cdp;
use crate::Error;

/// How often a wait condition is checked.
pub(crate) const WAIT_POLL: Duration = Duration::from_millis(100);

/// One wait condition of a plan.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Condition<'a> {
    /// An element matching this CSS selector is visible.
    Selector(&'a str),
    /// The page's visible text holds this text.
    Text(&'a str),
    /// This JavaScript expression is truthy (a promise is awaited).
    Js(&'a str),
}

impl Condition<'_> {
    /// The plan's conditions, in the order they are waited for.
    pub(crate) fn of(plan: &Steer) -> Vec<Condition<'_>> {
        let mut c = Vec::new();
        if let Some(s) = &plan.wait_for {
            c.push(Condition::Selector(s));
        }
        if let Some(t) = &plan.wait_for_text {
            c.push(Condition::Text(t));
        }
        if let Some(j) = &plan.wait_for_js {
            c.push(Condition::Js(j));
        }
        c
    }

    /// What waiting for it is, for a timeout's message.
    pub(crate) fn doing(&self) -> String {
        match self {
            Condition::Selector(s) => format!("waiting for the selector `{s}`"),
            Condition::Text(t) => format!("waiting for the text `{t}`"),
            Condition::Js(j) => format!("waiting for the script `{j}` to be truthy"),
        }
    }
}

/// Wait for each condition of the plan in turn (see the module's doc).
pub(crate) async fn wait_all<D: Driver>(d: &mut D, plan: &Steer) -> Result<(), Error> {
    for c in Condition::of(plan) {
        wait_for(d, c).await?;
        let before = d.navigations();
        d.after_action(false, before).await?;
    }
    Ok(())
}

/// Wait until `c` holds, or the deadline passes (a `timeout` naming `c`); checked at least
/// once.
pub(crate) async fn wait_for<D: Driver>(d: &mut D, c: Condition<'_>) -> Result<(), Error> {
    let deadline = d.deadline();
    loop {
        let last_error = match check(d, c).await? {
            Check::Holds => return Ok(()),
            Check::Not(e) => e,
            Check::Invalid(why) => {
                return Err(Error::Input {
                    input: d.input().into(),
                    message: format!("{}: {why}", c.doing()),
                    source: None,
                })
            }
        };
        if Instant::now() + WAIT_POLL >= deadline {
            let mut phase = c.doing();
            if let Some(e) = last_error {
                phase.push_str(&format!(" (it threw {e})"));
            }
            return Err(Error::Timeout {
                input: d.input().into(),
                phase,
                seconds: d.timeout_secs(),
            });
        }
        tokio::time::sleep(WAIT_POLL).await;
    }
}

/// One check of a condition.
enum Check {
    Holds,
    /// Not yet (with the exception a script condition threw, if it did).
    Not(Option<String>),
    /// It can never hold (an invalid selector).
    Invalid(String),
}

async fn check<D: Driver>(d: &D, c: Condition<'_>) -> Result<Check, Error> {
    let doing = c.doing();
    let limit = d.command_timeout();
    match c {
        Condition::Selector(s) => {
            let js = call("visible", &[Value::from(s)]);
            Ok(
                match driver::eval(d.page(), d.input(), &doing, &js, limit).await? {
                    Ok(v) => {
                        let a = Answer::of(v);
                        match a.bad {
                            Some(bad) => Check::Invalid(bad),
                            None if a.ok => Check::Holds,
                            None => Check::Not(None),
                        }
                    }
                    Err(e) => Check::Not(Some(e)),
                },
            )
        }
        Condition::Text(t) => {
            let js = call("text", &[Value::from(t)]);
            Ok(
                match driver::eval(d.page(), d.input(), &doing, &js, limit).await? {
                    Ok(v) if Answer::of(v.clone()).ok => Check::Holds,
                    Ok(_) => Check::Not(None),
                    Err(e) => Check::Not(Some(e)),
                },
            )
        }
        Condition::Js(expr) => {
            // The user's expression as it is (statements allowed), its value read as the
            // page's JavaScript would test it.
            let params = EvaluateParams {
                await_promise: Some(true),
                silent: Some(true),
                object_group: Some("sightline-wait".into()),
                ..EvaluateParams::new(expr)
            };
            let r = match cdp::evaluate(d.page(), d.input(), &doing, limit, params).await? {
                Ok(r) => r,
                Err(msg) => return Ok(Check::Not(Some(msg.lines().next().unwrap_or("").into()))),
            };
            Ok(if truthy(&r) {
                Check::Holds
            } else {
                Check::Not(None)
            })
        }
    }
}

/// Is a value truthy, as JavaScript's `!!value`?
pub(crate) fn truthy(o: &RemoteObject) -> bool {
    match o.r#type {
        RemoteObjectType::Undefined => false,
        RemoteObjectType::Boolean => o.value.as_ref().and_then(Value::as_bool) == Some(true),
        RemoteObjectType::Number => match (&o.value, &o.unserializable_value) {
            (Some(v), _) => v.as_f64().is_some_and(|n| n != 0.0),
            // NaN and -0 are falsy; Infinity is not.
            (None, Some(u)) => u.inner().contains("Infinity"),
            _ => false,
        },
        RemoteObjectType::String => o.value.as_ref().and_then(Value::as_str) != Some(""),
        RemoteObjectType::Bigint => o
            .unserializable_value
            .as_ref()
            .is_some_and(|u| u.inner() != "0n"),
        RemoteObjectType::Object => {
            o.subtype != Some(chromiumoxide::cdp::js_protocol::runtime::RemoteObjectSubtype::Null)
        }
        _ => true,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn conditions_come_in_order_and_name_themselves() {
        let plan = Steer {
            wait_for: Some("#article".into()),
            wait_for_js: Some("window.ready".into()),
            ..Steer::default()
        };
        let c = Condition::of(&plan);
        assert_eq!(
            c,
            [
                Condition::Selector("#article"),
                Condition::Js("window.ready")
            ]
        );
        assert_eq!(c[0].doing(), "waiting for the selector `#article`");
        assert!(Condition::of(&Steer::default()).is_empty());
    }

    #[test]
    fn truthiness_is_javascripts() {
        let o = |t: RemoteObjectType, v: Option<Value>| {
            let mut o = RemoteObject::new(t);
            o.value = v;
            o
        };
        assert!(!truthy(&o(RemoteObjectType::Undefined, None)));
        assert!(!truthy(&o(RemoteObjectType::Boolean, Some(false.into()))));
        assert!(truthy(&o(RemoteObjectType::Boolean, Some(true.into()))));
        assert!(!truthy(&o(RemoteObjectType::Number, Some(0.into()))));
        assert!(truthy(&o(RemoteObjectType::Number, Some(3.into()))));
        assert!(!truthy(&o(RemoteObjectType::String, Some("".into()))));
        assert!(truthy(&o(RemoteObjectType::String, Some("x".into()))));
        assert!(truthy(&o(RemoteObjectType::Object, None)));
        let mut null = o(RemoteObjectType::Object, None);
        null.subtype = Some(chromiumoxide::cdp::js_protocol::runtime::RemoteObjectSubtype::Null);
        assert!(!truthy(&null));
    }
}
