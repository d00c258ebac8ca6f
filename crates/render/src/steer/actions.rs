//! Actions (`--actions`, Firecrawl's shape), run in order after the page settles and before
//! the snapshot, with real input events as Playwright sends them: a click is the element
//! scrolled into view and a mouse press and release at its centre
//! (`Input.dispatchMouseEvent`), `write` is `Input.insertText` into the focused field, `press`
//! a key down and up (`Input.dispatchKeyEvent`). After each click, key press or script the
//! page may navigate (a form submitted, a link followed): the navigation is followed to its
//! new document, which settles; otherwise the page settles as after `load` (the settle rule,
//! timers counted from the action). A `click` with `repeat` clicks until its element is gone
//! or `repeat` times, settling after each ("Load more").
//!
//! Each action's outcome and time go in the record's `actions`. A failing action fails the
//! page with an `action` error naming its index and why, unless it is `optional` (its outcome
//! is then `skipped`).

use std::time::{Duration, Instant};

use chromiumoxide::cdp::browser_protocol::input::{
    DispatchKeyEventParams, DispatchKeyEventType, DispatchMouseEventParams, DispatchMouseEventType,
    InsertTextParams, MouseButton,
};
use chromiumoxide::cdp::js_protocol::runtime::EvaluateParams;
use serde_json::Value;

use super::driver::{self, call, sleep_until_deadline, Answer, Driver};
use super::{Action, ActionOutcome, ScrollDirection};
use crate::cdp;
use crate::Error;

/// How long a click, a write or a scroll waits for its element to show (a button the page
/// draws a moment late); a `wait` action with a selector waits up to the deadline instead.
pub(crate) const FIND_WAIT: Duration = Duration::from_millis(1500);

/// How often an element that is not there yet is looked for again.
const FIND_POLL: Duration = Duration::from_millis(50);

/// Why one action failed (a message for the record), or what failed around it.
enum Failed {
    /// The action failed: the page goes on if it is optional.
    Action(String),
    /// The tab failed (a command that did not answer, a crash): the page fails.
    Page(Error),
}

impl From<Error> for Failed {
    fn from(e: Error) -> Failed {
        Failed::Page(e)
    }
}

/// Run `actions` in order; the outcome of each, or the `action` error of the first that
/// failed and was not optional.
pub(crate) async fn run<D: Driver>(
    d: &mut D,
    actions: &[Action],
) -> Result<Vec<ActionOutcome>, Error> {
    let mut out = Vec::with_capacity(actions.len());
    for (index, a) in actions.iter().enumerate() {
        let t0 = Instant::now();
        let r = one(d, a).await;
        let ms = (t0.elapsed().as_secs_f64() * 1e6).round() / 1e3;
        let outcome = |outcome: &str, clicks, message| ActionOutcome {
            index,
            action: a.kind().into(),
            outcome: outcome.into(),
            clicks,
            message,
            ms,
        };
        match r {
            Ok(clicks) => out.push(outcome("ok", clicks, None)),
            Err(Failed::Action(why)) if a.optional() => {
                tracing::debug!(
                    "{}: optional action {index} ({}) skipped: {why}",
                    d.input(),
                    a.kind()
                );
                out.push(outcome("skipped", None, Some(why)))
            }
            Err(Failed::Action(why)) => {
                return Err(Error::Action {
                    input: d.input().into(),
                    index,
                    action: a.kind().into(),
                    message: why,
                })
            }
            Err(Failed::Page(e)) => return Err(e),
        }
    }
    Ok(out)
}

/// One action; `Some(clicks)` for a click. Each kind is its own function: [`wait`],
/// [`click_on`], [`write`], [`press_key`], [`scroll`], [`execute`].
async fn one<D: Driver>(d: &mut D, a: &Action) -> Result<Option<u32>, Failed> {
    let deadline = d.deadline();
    match a {
        Action::Wait {
            milliseconds,
            selector,
            ..
        } => wait(d, *milliseconds, selector.as_deref(), deadline).await,
        Action::Click {
            selector, repeat, ..
        } => click_on(d, selector, *repeat, deadline).await,
        Action::Write { text, selector, .. } => write(d, text, selector.as_deref(), deadline).await,
        Action::Press { key, .. } => press_key(d, key).await,
        Action::Scroll {
            direction,
            selector,
            ..
        } => scroll(d, direction, selector.as_deref()).await,
        Action::ExecuteJavascript { script, .. } => execute(d, script, deadline).await,
    }
}

/// `wait`: `milliseconds`, then the `selector` visible.
async fn wait<D: Driver>(
    d: &mut D,
    milliseconds: Option<u64>,
    selector: Option<&str>,
    deadline: Instant,
) -> Result<Option<u32>, Failed> {
    if milliseconds.is_none() && selector.is_none() {
        return Err(Failed::Action(
            "a wait needs `milliseconds` or a `selector`".into(),
        ));
    }
    if let Some(ms) = milliseconds {
        if !sleep_until_deadline(Duration::from_millis(ms), deadline).await {
            return Err(Failed::Action(format!(
                "the page's deadline passed before {ms} ms did"
            )));
        }
    }
    if let Some(s) = selector {
        find(d, "visible", s, deadline).await?;
    }
    Ok(None)
}

/// `click`, `repeat` times (until the element is gone or the page changes); `Some(clicks)`
/// when it repeats.
async fn click_on<D: Driver>(
    d: &mut D,
    selector: &str,
    repeat: Option<u32>,
    deadline: Instant,
) -> Result<Option<u32>, Failed> {
    let times = repeat.unwrap_or(1).max(1);
    let mut clicks = 0;
    while clicks < times {
        // The first click waits for its element; a repeated one stops when it is gone.
        let until = if clicks == 0 {
            Instant::now() + FIND_WAIT
        } else {
            Instant::now()
        };
        let at = match find(d, "clickPoint", selector, until.min(deadline)).await {
            Ok(at) => at,
            Err(Failed::Action(_)) if clicks > 0 => break,
            Err(e) => return Err(e),
        };
        let before = d.navigations();
        click(d, at.x, at.y).await?;
        clicks += 1;
        if d.after_action(true, before).await? && clicks < times {
            // The click led to another page: the element it repeated is gone.
            break;
        }
        if Instant::now() >= deadline {
            break;
        }
    }
    Ok(repeat.map(|_| clicks))
}

/// `write`: `text` typed into the `selector` (or the focused element).
async fn write<D: Driver>(
    d: &mut D,
    text: &str,
    selector: Option<&str>,
    deadline: Instant,
) -> Result<Option<u32>, Failed> {
    match selector {
        Some(s) => {
            find(d, "focus", s, (Instant::now() + FIND_WAIT).min(deadline)).await?;
        }
        None => {
            let v = eval(d, &call("focused", &[])).await?;
            if let Some(why) = Answer::of(v).why {
                return Err(Failed::Action(why));
            }
        }
    }
    let before = d.navigations();
    send(d, "writing text", InsertTextParams::new(text.to_string())).await?;
    d.after_action(false, before).await?;
    Ok(None)
}

/// `press`: one named key or character.
async fn press_key<D: Driver>(d: &mut D, key: &str) -> Result<Option<u32>, Failed> {
    let k = Key::named(key).ok_or_else(|| {
        Failed::Action(format!(
            "unknown key `{key}` (a single character, or one of {})",
            Key::NAMES.join(", ")
        ))
    })?;
    let before = d.navigations();
    press(d, &k).await?;
    d.after_action(true, before).await?;
    Ok(None)
}

/// `scroll`: the page (or the `selector`'s box) one screen up or down, in front.
async fn scroll<D: Driver>(
    d: &mut D,
    direction: &ScrollDirection,
    selector: Option<&str>,
) -> Result<Option<u32>, Failed> {
    let dir = match direction {
        ScrollDirection::Down => "down",
        ScrollDirection::Up => "up",
    };
    let sel = selector.map(Value::from).unwrap_or(Value::Null);
    let _front = d.front().await;
    let v = eval(d, &call("scroll", &[sel, Value::from(dir)])).await?;
    if let Some(why) = Answer::of(v).why {
        return Err(Failed::Action(why));
    }
    let before = d.navigations();
    d.after_action(false, before).await?;
    Ok(None)
}

/// `executeJavascript`: the script run to its end (its promise awaited), within the page's
/// deadline.
async fn execute<D: Driver>(
    d: &mut D,
    script: &str,
    deadline: Instant,
) -> Result<Option<u32>, Failed> {
    let before = d.navigations();
    let params = EvaluateParams {
        await_promise: Some(true),
        user_gesture: Some(true),
        ..EvaluateParams::new(script.to_string())
    };
    let left = deadline
        .saturating_duration_since(Instant::now())
        .max(d.command_timeout());
    match cdp::evaluate(d.page(), d.input(), "running the script", left, params).await {
        Ok(Ok(_)) => {}
        Ok(Err(msg)) => return Err(Failed::Action(format!("the script threw {msg}"))),
        Err(Error::Timeout { .. }) => {
            return Err(Failed::Action(
                "the script did not end before the page's deadline".into(),
            ))
        }
        Err(e) => return Err(Failed::Action(format!("the script could not run: {e}"))),
    }
    d.after_action(true, before).await?;
    Ok(None)
}

/// Call helper `f` (`visible`, `clickPoint`, `focus`) on `selector` until it answers `ok`, or
/// `until` passes (its last reason is the failure; an invalid selector fails at once).
async fn find<D: Driver>(
    d: &mut D,
    f: &str,
    selector: &str,
    until: Instant,
) -> Result<Answer, Failed> {
    let js = call(f, &[Value::from(selector)]);
    loop {
        let a = Answer::of(eval(d, &js).await?);
        if a.ok {
            return Ok(a);
        }
        if let Some(bad) = a.bad {
            return Err(Failed::Action(bad));
        }
        if Instant::now() + FIND_POLL >= until {
            let why = a
                .why
                .unwrap_or_else(|| format!("no visible element matches `{selector}`"));
            return Err(Failed::Action(why));
        }
        tokio::time::sleep(FIND_POLL).await;
    }
}

/// A helper's value; a script exception fails the action.
async fn eval<D: Driver>(d: &D, js: &str) -> Result<Value, Failed> {
    match driver::eval(
        d.page(),
        d.input(),
        "running an action",
        js,
        d.command_timeout(),
    )
    .await?
    {
        Ok(v) => Ok(v),
        Err(e) => Err(Failed::Action(e)),
    }
}

/// Send one input command.
async fn send<D: Driver, C>(d: &D, doing: &str, c: C) -> Result<(), Failed>
where
    C: chromiumoxide::types::Command,
{
    cdp::execute(d.page(), d.input(), doing, d.command_timeout(), c)
        .await
        .map(drop)
        .map_err(Failed::Page)
}

/// A left click at (x, y) in the viewport: the mouse moved there, pressed and released.
async fn click<D: Driver>(d: &D, x: f64, y: f64) -> Result<(), Failed> {
    let ev = |t: DispatchMouseEventType, buttons: i64| {
        let moved = t == DispatchMouseEventType::MouseMoved;
        let mut p = DispatchMouseEventParams::new(t, x, y);
        if !moved {
            p.button = Some(MouseButton::Left);
            p.click_count = Some(1);
        }
        p.buttons = Some(buttons);
        p
    };
    send(d, "clicking", ev(DispatchMouseEventType::MouseMoved, 0)).await?;
    send(d, "clicking", ev(DispatchMouseEventType::MousePressed, 1)).await?;
    send(d, "clicking", ev(DispatchMouseEventType::MouseReleased, 0)).await?;
    Ok(())
}

/// A key pressed and released.
async fn press<D: Driver>(d: &D, k: &Key) -> Result<(), Failed> {
    let mut down = DispatchKeyEventParams::new(if k.text.is_some() {
        DispatchKeyEventType::KeyDown
    } else {
        DispatchKeyEventType::RawKeyDown
    });
    down.key = Some(k.key.clone());
    down.code = Some(k.code.clone());
    down.windows_virtual_key_code = Some(k.vk);
    down.native_virtual_key_code = Some(k.vk);
    down.text = k.text.clone();
    down.unmodified_text = k.text.clone();
    let mut up = down.clone();
    up.r#type = DispatchKeyEventType::KeyUp;
    up.text = None;
    up.unmodified_text = None;
    send(d, "pressing a key", down).await?;
    send(d, "pressing a key", up).await?;
    Ok(())
}

/// A key as `Input.dispatchKeyEvent` sends it (US layout).
#[derive(Debug, Clone, PartialEq)]
struct Key {
    key: String,
    code: String,
    vk: i64,
    /// The text it types (none for keys that type nothing).
    text: Option<String>,
}

impl Key {
    /// The named keys `press` knows, beside single characters.
    const NAMES: &'static [&'static str] = &[
        "Enter",
        "Tab",
        "Escape",
        "Backspace",
        "Delete",
        "Space",
        "ArrowUp",
        "ArrowDown",
        "ArrowLeft",
        "ArrowRight",
        "Home",
        "End",
        "PageUp",
        "PageDown",
    ];

    /// A key by its name (`Enter`, `ArrowDown`, Playwright's names) or its character.
    fn named(name: &str) -> Option<Key> {
        let k = |key: &str, code: &str, vk: i64, text: Option<&str>| Key {
            key: key.into(),
            code: code.into(),
            vk,
            text: text.map(Into::into),
        };
        Some(match name {
            "Enter" => k("Enter", "Enter", 13, Some("\r")),
            "Tab" => k("Tab", "Tab", 9, None),
            "Escape" => k("Escape", "Escape", 27, None),
            "Backspace" => k("Backspace", "Backspace", 8, None),
            "Delete" => k("Delete", "Delete", 46, None),
            "Space" | " " => k(" ", "Space", 32, Some(" ")),
            "ArrowUp" => k("ArrowUp", "ArrowUp", 38, None),
            "ArrowDown" => k("ArrowDown", "ArrowDown", 40, None),
            "ArrowLeft" => k("ArrowLeft", "ArrowLeft", 37, None),
            "ArrowRight" => k("ArrowRight", "ArrowRight", 39, None),
            "Home" => k("Home", "Home", 36, None),
            "End" => k("End", "End", 35, None),
            "PageUp" => k("PageUp", "PageUp", 33, None),
            "PageDown" => k("PageDown", "PageDown", 34, None),
            _ => {
                let mut chars = name.chars();
                let c = chars.next()?;
                if chars.next().is_some() {
                    return None;
                }
                let (code, vk) = if c.is_ascii_alphabetic() {
                    (
                        format!("Key{}", c.to_ascii_uppercase()),
                        c.to_ascii_uppercase() as i64,
                    )
                } else if c.is_ascii_digit() {
                    (format!("Digit{c}"), c as i64)
                } else {
                    (String::new(), 0)
                };
                Key {
                    key: c.to_string(),
                    code,
                    vk,
                    text: Some(c.to_string()),
                }
            }
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keys_are_named_as_playwright_names_them() {
        let enter = Key::named("Enter").unwrap();
        assert_eq!((enter.vk, enter.text.as_deref()), (13, Some("\r")));
        assert_eq!(Key::named("ArrowDown").unwrap().text, None);
        let a = Key::named("a").unwrap();
        assert_eq!(
            (a.code.as_str(), a.vk, a.text.as_deref()),
            ("KeyA", 65, Some("a"))
        );
        assert_eq!(Key::named("7").unwrap().code, "Digit7");
        assert!(Key::named("Hyper").is_none());
        assert!(Key::named("").is_none());
        for n in Key::NAMES {
            assert!(Key::named(n).is_some(), "{n}");
        }
    }
}
