//! The one declaration of the writers' settings ([`WriterOptions`]: how images and links are
//! written, and the site a saved page's links belong to): the CLI flattens it (the `clap`
//! feature), `serve` and MCP deserialize it inside their page request, Python's keywords are
//! read from its schema ([`WriterOptions::described`]), and the library's options carry it.

use serde::{Deserialize, Serialize};

/// How the writers write images, links and a saved page's URLs. The markdown writer reads
/// every field; the JSON record's `markdown` and `sections` are written with it too.
#[derive(Debug, Default, Clone, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
#[cfg_attr(feature = "clap", derive(clap::Args))]
pub struct WriterOptions {
    /// How images are written in markdown: keep (`![alt](src)`, the default), alt (the alt
    /// text as plain text, nothing when it is empty) or none (dropped).
    #[serde(default)]
    #[cfg_attr(
        feature = "clap",
        arg(long, value_enum, default_value = "keep", value_name = "MODE")
    )]
    pub images: ImagesMode,
    /// How links are written in markdown: inline (`[text](url)`, the default), references
    /// (`[text][n]` with a numbered list of `[n]: url` at the end, one number a URL, as
    /// language-model pipelines prefer) or none (the text only).
    #[serde(default)]
    #[cfg_attr(
        feature = "clap",
        arg(long, value_enum, default_value = "inline", value_name = "MODE")
    )]
    pub links: LinksMode,
    /// The page's address on its site, for a saved page (an absolute http or https URL): the
    /// links and image sources that point next to the page (a saved file's `file://` URLs, or
    /// the page's own origin) are resolved against it instead, so that the markdown gives the
    /// site's links. In-page anchors stay `#id` either way.
    #[serde(default)]
    #[cfg_attr(feature = "clap", arg(long, value_name = "URL"))]
    pub base_url: Option<String>,
}

/// How images are written ([`WriterOptions::images`]).
#[derive(
    Debug, Default, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema,
)]
#[cfg_attr(feature = "clap", derive(clap::ValueEnum))]
#[serde(rename_all = "lowercase")]
pub enum ImagesMode {
    /// `![alt](src)`.
    #[default]
    Keep,
    /// The alt text as plain text (nothing when it is empty).
    Alt,
    /// Dropped.
    None,
}

/// How links are written ([`WriterOptions::links`]).
#[derive(
    Debug, Default, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema,
)]
#[cfg_attr(feature = "clap", derive(clap::ValueEnum))]
#[serde(rename_all = "lowercase")]
pub enum LinksMode {
    /// `[text](url)`.
    #[default]
    Inline,
    /// `[text][n]`, with `[n]: url` listed at the end.
    References,
    /// The text only.
    None,
}

/// A writer setting whose value cannot be used: which one, the value, and what to give.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{setting} `{value}`: {message}")]
#[non_exhaustive]
pub struct WriterOptionsError {
    /// The setting as JSON and Python spell it (`base_url`); the flag is
    /// [`WriterOptionsError::flag`].
    pub setting: &'static str,
    /// The value given.
    pub value: String,
    /// What is wrong and what to give instead.
    pub message: String,
}

impl WriterOptionsError {
    /// The setting's command-line flag (`--base-url`).
    pub fn flag(&self) -> String {
        format!("--{}", self.setting.replace('_', "-"))
    }
}

impl From<WriterOptionsError> for crate::Error {
    fn from(e: WriterOptionsError) -> crate::Error {
        crate::Error::Input {
            input: e.setting.to_string(),
            message: format!("`{}`: {}", e.value, e.message),
            source: None,
        }
    }
}

impl WriterOptions {
    /// What the types cannot check: `base_url` is an absolute http or https URL.
    pub fn validate(&self) -> Result<(), WriterOptionsError> {
        self.base().map(|_| ())
    }

    /// `base_url` parsed (None when not given).
    pub fn base(&self) -> Result<Option<url::Url>, WriterOptionsError> {
        let Some(b) = &self.base_url else {
            return Ok(None);
        };
        let bad = |message: &str| WriterOptionsError {
            setting: "base_url",
            value: b.clone(),
            message: message.to_string(),
        };
        match url::Url::parse(b.trim()) {
            Ok(u) if matches!(u.scheme(), "http" | "https") && u.host().is_some() => Ok(Some(u)),
            Ok(_) => Err(bad(
                "not an http or https URL: give the page's address on its site, such as https://example.org/blog/post.html",
            )),
            Err(e) => Err(bad(&format!(
                "not an absolute URL ({e}): give the page's address on its site, such as https://example.org/blog/post.html",
            ))),
        }
    }

    /// Each field as a keyword table reads it: its JSON name, its default and its doc (from
    /// the JSON schema), in name order. Python's writer keywords are made from it.
    pub fn described() -> Vec<(String, serde_json::Value, String)> {
        let defaults = serde_json::to_value(WriterOptions::default()).ok();
        crate::described::described(&schemars::schema_for!(WriterOptions), defaults)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn the_json_form_names_the_modes_and_defaults_every_field() {
        let o: WriterOptions = serde_json::from_value(json!({})).unwrap();
        assert_eq!(o, WriterOptions::default());
        let o: WriterOptions = serde_json::from_value(
            json!({"images": "alt", "links": "references", "base_url": "https://example.org/a/"}),
        )
        .unwrap();
        assert_eq!(o.images, ImagesMode::Alt);
        assert_eq!(o.links, LinksMode::References);
        assert!(serde_json::from_value::<WriterOptions>(json!({"links": "footnotes"})).is_err());
    }

    #[test]
    fn base_url_must_be_an_absolute_web_url() {
        let with = |b: &str| WriterOptions {
            base_url: Some(b.into()),
            ..Default::default()
        };
        assert!(with("https://example.org/a/").validate().is_ok());
        assert!(WriterOptions::default().validate().is_ok());
        for bad in [
            "example.org/a",
            "/a/b.html",
            "file:///home/a.html",
            "ftp://x.org/",
        ] {
            let e = with(bad).validate().unwrap_err();
            assert_eq!(e.setting, "base_url");
            assert_eq!(e.value, bad);
            assert_eq!(e.flag(), "--base-url");
            assert!(e.to_string().contains("such as https://"), "{e}");
        }
    }

    #[test]
    fn every_field_is_described_with_its_default() {
        let d = WriterOptions::described();
        let names: Vec<&str> = d.iter().map(|f| f.0.as_str()).collect();
        assert_eq!(names, ["base_url", "images", "links"]);
        assert_eq!(d[1].1, json!("keep"));
        assert_eq!(d[2].1, json!("inline"));
        assert!(d.iter().all(|f| !f.2.is_empty()), "{d:?}");
    }
}
