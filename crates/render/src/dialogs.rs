//! JavaScript dialogs (`alert`, `confirm`, `prompt`, `beforeunload`) are answered at once, as
//! Playwright does by default: a dialog blocks its page until someone answers it, so an
//! unanswered `alert()` would hold the page until the deadline.
//!
//! `alert` and `beforeunload` are accepted (the page goes on, a navigation away proceeds);
//! `confirm` and `prompt` are dismissed (the page's "cancel" path: nothing is confirmed, no
//! text is entered). The tab counts the dialogs for the output record.

use chromiumoxide::cdp::browser_protocol::page::{DialogType, HandleJavaScriptDialogParams};

/// Whether a dialog of this kind is accepted (`true`) or dismissed (`false`).
pub(crate) fn accepts(kind: &DialogType) -> bool {
    matches!(kind, DialogType::Alert | DialogType::Beforeunload)
}

/// The command answering a dialog of this kind.
pub(crate) fn answer(kind: &DialogType) -> HandleJavaScriptDialogParams {
    HandleJavaScriptDialogParams {
        accept: accepts(kind),
        prompt_text: None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn alert_and_beforeunload_accepted_confirm_and_prompt_dismissed() {
        assert!(answer(&DialogType::Alert).accept);
        assert!(answer(&DialogType::Beforeunload).accept);
        assert!(!answer(&DialogType::Confirm).accept);
        assert!(!answer(&DialogType::Prompt).accept);
    }
}
