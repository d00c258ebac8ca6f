//! Embedded videos as links: `[Video: title](url)`, from YouTube, Vimeo, Dailymotion and
//! Loom player iframes (linked as the video's page, not the player) and `<video>` elements
//! (their `src`, or their first `<source>`). The title is the element's `title` or
//! `aria-label`, unless it is a player's generic one ("YouTube video player").

use super::syntax::{destination, escape_text};
use super::{Block, BlockKind, Writer};
use crate::snapshot::{Node, NodeId};

/// Titles embed codes give every player.
const GENERIC_TITLES: [&str; 6] = [
    "youtube video player",
    "vimeo video player",
    "youtube",
    "vimeo",
    "video",
    "embedded video",
];

/// The page of a player URL, if it is a known video player.
fn video_page(src: &str) -> Option<String> {
    let (_, rest) = src.split_once("://")?;
    let (host, path) = rest.split_once('/').unwrap_or((rest, ""));
    let host = host.trim_start_matches("www.");
    let path_only = path.split(['?', '#']).next().unwrap_or("");
    let id_after = |prefix: &str| {
        path_only
            .strip_prefix(prefix)
            .map(|id| id.trim_end_matches('/'))
            .filter(|id| !id.is_empty() && !id.contains('/'))
    };
    match host {
        "youtube.com" | "youtube-nocookie.com" | "m.youtube.com" => {
            id_after("embed/").map(|id| format!("https://www.youtube.com/watch?v={id}"))
        }
        "player.vimeo.com" => id_after("video/").map(|id| format!("https://vimeo.com/{id}")),
        "dailymotion.com" => {
            id_after("embed/video/").map(|id| format!("https://www.dailymotion.com/video/{id}"))
        }
        "loom.com" => id_after("embed/").map(|id| format!("https://www.loom.com/share/{id}")),
        _ => None,
    }
}

/// Is this element an embedded video?
pub(super) fn is_video(n: &Node) -> bool {
    match n.tag.as_str() {
        "video" => n
            .src
            .as_deref()
            .is_some_and(|s| !s.is_empty() && !s.starts_with("blob:")),
        "iframe" | "embed" | "object" => n.src.as_deref().and_then(video_page).is_some(),
        _ => false,
    }
}

impl Writer<'_, '_> {
    /// `[Video: title](url)`.
    pub(super) fn video(&self, id: NodeId, blocks: &mut Vec<Block>) {
        let n = self.tree.node(id);
        let Some(src) = n.src.as_deref() else { return };
        let url = if n.tag == "video" {
            src.to_string()
        } else {
            match video_page(src) {
                Some(u) => u,
                None => return,
            }
        };
        let title = ["title", "aria-label"]
            .iter()
            .filter_map(|a| n.attrs.get(*a))
            .map(|t| crate::snapshot::collapse_ws(t))
            .find(|t| !t.is_empty() && !GENERIC_TITLES.contains(&t.to_lowercase().as_str()));
        let mut label = String::from("Video");
        if let Some(t) = title {
            label.push_str(": ");
            escape_text(&mut label, &t, Some(' '), false);
        }
        blocks.push(Block {
            kind: BlockKind::Para,
            text: format!("[{label}]({})", destination(&url)),
        });
    }
}
