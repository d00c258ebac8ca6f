//! Metrics and benchmark runner (issue 4).
