//! A settings type's fields as a keyword table reads them (Python's keywords are made from
//! them): each field's JSON name, its default and its doc, read from the type's JSON schema,
//! so the settings types above (`RenderOptions`, `CrawlSettings`, `Scoring`) describe
//! themselves with one function.

use serde_json::Value;

/// Each property of `schema`, in name order: its name, its default and its doc (one line).
/// The default is the schema's; else the field's value in `defaults` (the type's `Default`
/// serialised, for a type whose schema carries none); else `false` for a boolean (an unset
/// flag is off); else `null` (the front end's default applies).
pub fn described(
    schema: &schemars::Schema,
    defaults: Option<Value>,
) -> Vec<(String, Value, String)> {
    let props = schema.get("properties").and_then(|p| p.as_object());
    props
        .into_iter()
        .flatten()
        .map(|(name, field)| {
            let flag = match field.get("type") {
                Some(Value::String(t)) => t == "boolean",
                Some(Value::Array(ts)) => ts.iter().any(|t| t == "boolean"),
                _ => false,
            };
            let default = field
                .get("default")
                .filter(|d| !d.is_null())
                .or_else(|| defaults.as_ref().and_then(|d| d.get(name)))
                .filter(|d| !d.is_null())
                .cloned()
                .unwrap_or(if flag {
                    Value::Bool(false)
                } else {
                    Value::Null
                });
            let doc = field
                .get("description")
                .and_then(|d| d.as_str())
                .unwrap_or_default()
                .replace('\n', " ");
            (name.clone(), default, doc)
        })
        .collect()
}
