//! The page's metadata as a YAML front matter block for Markdown (`--front-matter`), the
//! form static-site generators and note tools read. Every string is written as a
//! double-quoted JSON string, which YAML reads as the same string (no quoting pitfalls with
//! colons, `#` or leading dashes); lists are flow sequences of such strings.

use crate::extract::metadata::{Field, Metadata};

/// `---\n key: value ... \n---\n\n`, fields in a fixed order; empty for no metadata.
pub fn render(m: &Metadata) -> String {
    if m.is_empty() {
        return String::new();
    }
    let mut out = String::from("---\n");
    let s = |out: &mut String, k: &str, f: &Option<Field<String>>| {
        if let Some(f) = f {
            out.push_str(&format!("{k}: {}\n", quote(&f.value)));
        }
    };
    let l = |out: &mut String, k: &str, f: &Option<Field<Vec<String>>>| {
        if let Some(f) = f {
            let items: Vec<String> = f.value.iter().map(|v| quote(v)).collect();
            out.push_str(&format!("{k}: [{}]\n", items.join(", ")));
        }
    };
    s(&mut out, "title", &m.title);
    l(&mut out, "authors", &m.authors);
    s(&mut out, "published", &m.published);
    s(&mut out, "modified", &m.modified);
    s(&mut out, "site_name", &m.site_name);
    s(&mut out, "language", &m.language);
    s(&mut out, "description", &m.description);
    s(&mut out, "canonical_url", &m.canonical_url);
    s(&mut out, "image", &m.image);
    l(&mut out, "tags", &m.tags);
    l(&mut out, "categories", &m.categories);
    out.push_str("---\n\n");
    out
}

fn quote(s: &str) -> String {
    serde_json::to_string(s).unwrap_or_else(|_| "\"\"".into())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn field<T>(value: T) -> Option<Field<T>> {
        Some(Field {
            value,
            source: "test".into(),
        })
    }

    #[test]
    fn front_matter_quotes_what_yaml_would_misread() {
        let m = Metadata {
            title: field("Tides: a \"new\" era # 1".to_string()),
            authors: field(vec!["Ada Lovelace".into(), "- Grace".into()]),
            published: field("2024-03-05".to_string()),
            ..Metadata::default()
        };
        assert_eq!(
            render(&m),
            "---\ntitle: \"Tides: a \\\"new\\\" era # 1\"\nauthors: [\"Ada Lovelace\", \"- Grace\"]\npublished: \"2024-03-05\"\n---\n\n"
        );
        assert_eq!(render(&Metadata::default()), "");
    }
}
