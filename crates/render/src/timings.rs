//! Per-phase wall-clock timings of one page, filled in by the render phases and completed
//! by scoring (`score`). Written in the record as `timings_ms`.

use serde::Serialize;

/// Wall-clock time of each phase in milliseconds; absent phases are omitted.
#[derive(Debug, Clone, Default, Serialize, schemars::JsonSchema)]
pub struct Timings {
    #[serde(skip_serializing_if = "Option::is_none")]
    pub launch: Option<f64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub navigate: Option<f64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub settle: Option<f64>,
    /// The steering phase: wait conditions and actions (present when the page had some).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub steer: Option<f64>,
    /// The scroll phase (present when it scrolled).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub scroll: Option<f64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub snapshot: Option<f64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub score: Option<f64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub screenshot: Option<f64>,
}
