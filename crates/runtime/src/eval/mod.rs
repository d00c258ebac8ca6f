//! Measurement: everything of the core's [`sightline_core::eval`] (metrics, datasets, the
//! quality gate, training), and [`run`], the runner that renders the benchmark pages.

pub use sightline_core::eval::*;

pub mod run;
