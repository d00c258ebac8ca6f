//! What the settings types ([`crate::Steer`], [`crate::RenderOptions`]) share: the typed
//! error of their `validate()`, naming the setting as JSON spells it (each front end turns
//! the name into its own: `--max-retry-after`, `max_retry_after=`, `"max_retry_after"`),
//! and durations in the units the front ends write them (seconds, milliseconds).

use std::time::Duration;

/// A setting whose value cannot be used: which one, and why.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{setting}: {message}")]
#[non_exhaustive]
pub struct SettingsError {
    /// The setting as JSON and Python spell it (`max_retry_after`); the command line's flag
    /// is [`SettingsError::flag`].
    pub setting: String,
    /// What is wrong and what to give instead.
    pub message: String,
}

impl SettingsError {
    pub fn new(setting: &str, message: impl Into<String>) -> SettingsError {
        SettingsError {
            setting: setting.into(),
            message: message.into(),
        }
    }

    /// The setting's command-line flag (`--max-retry-after`).
    pub fn flag(&self) -> String {
        format!("--{}", self.setting.replace('_', "-"))
    }
}

impl From<SettingsError> for crate::Error {
    fn from(e: SettingsError) -> crate::Error {
        crate::Error::Input {
            input: e.setting.clone(),
            message: e.message,
            source: None,
        }
    }
}

/// A `Duration` as seconds (a number) in JSON.
pub(crate) mod secs {
    use serde::{Deserialize, Deserializer, Serializer};
    use std::time::Duration;

    pub(crate) fn serialize<S: Serializer>(d: &Duration, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_f64(d.as_secs_f64())
    }
    pub(crate) fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<Duration, D::Error> {
        let v = f64::deserialize(d)?;
        Duration::try_from_secs_f64(v).map_err(serde::de::Error::custom)
    }
}

/// A `Duration` as whole milliseconds in JSON.
pub(crate) mod millis {
    use serde::{Deserialize, Deserializer, Serializer};
    use std::time::Duration;

    pub(crate) fn serialize<S: Serializer>(d: &Duration, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_u64(d.as_millis() as u64)
    }
    pub(crate) fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<Duration, D::Error> {
        Ok(Duration::from_millis(u64::deserialize(d)?))
    }
}

/// Seconds as the command line writes them (`--timeout 2.5`): a number, 0 or more.
pub fn seconds(arg: &str) -> Result<Duration, String> {
    arg.trim()
        .parse::<f64>()
        .ok()
        .and_then(|s| Duration::try_from_secs_f64(s).ok())
        .ok_or_else(|| "must be a number of seconds, 0 or more".to_string())
}

/// Whole milliseconds as the command line writes them (`--quiet-ms 100`).
pub fn millis_arg(arg: &str) -> Result<Duration, String> {
    arg.trim()
        .parse::<u64>()
        .map(Duration::from_millis)
        .map_err(|_| "must be a whole number of milliseconds".to_string())
}
