//! The writers of `sightline scores`: a [`NodeScores`] table as CSV (a header row, then one
//! row per node; absent values empty) or JSON Lines (one object per node; absent values
//! `null`). Numbers are written in their shortest exact form, so a reader gets the very f64
//! the library computed.

use crate::scores::{NodeScores, Values};

/// CSV (RFC 4180): fields holding a comma, quote or line break are quoted.
pub fn csv(s: &NodeScores) -> String {
    let mut out = String::new();
    let names: Vec<&str> = s.columns.iter().map(|c| c.name).collect();
    out.push_str(&names.join(","));
    out.push('\n');
    for i in 0..s.len() {
        let row: Vec<String> = s.columns.iter().map(|c| cell(&c.values, i)).collect();
        out.push_str(&row.join(","));
        out.push('\n');
    }
    out
}

fn cell(v: &Values, i: usize) -> String {
    match v {
        Values::F64(v) => v[i].map(|x| x.to_string()).unwrap_or_default(),
        Values::I64(v) => v[i].map(|x| x.to_string()).unwrap_or_default(),
        Values::Bool(v) => v[i].to_string(),
        Values::Str(v) => match &v[i] {
            None => String::new(),
            Some(t) if t.contains([',', '"', '\n', '\r']) => {
                format!("\"{}\"", t.replace('"', "\"\""))
            }
            Some(t) => t.clone(),
        },
    }
}

/// JSON Lines: one object per node, keys in column order.
pub fn jsonl(s: &NodeScores) -> String {
    let mut out = String::new();
    for i in 0..s.len() {
        // Written by hand: a serde_json map would sort the keys.
        out.push('{');
        for (k, c) in s.columns.iter().enumerate() {
            if k > 0 {
                out.push(',');
            }
            out.push_str(&serde_json::Value::from(c.name).to_string());
            out.push(':');
            out.push_str(&c.values.json(i).to_string());
        }
        out.push_str("}\n");
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::extract::Algorithm;
    use crate::scores::Column;

    #[test]
    fn csv_quotes_and_leaves_absent_values_empty() {
        let s = NodeScores {
            algorithm: Algorithm::Td,
            columns: vec![
                Column {
                    name: "id",
                    values: Values::I64(vec![Some(0), Some(1)]),
                },
                Column {
                    name: "x",
                    values: Values::F64(vec![Some(0.1), None]),
                },
                Column {
                    name: "t",
                    values: Values::Str(vec![Some("a,\"b\"".into()), None]),
                },
            ],
        };
        assert_eq!(csv(&s), "id,x,t\n0,0.1,\"a,\"\"b\"\"\"\n1,,\n");
        assert_eq!(
            jsonl(&s),
            "{\"id\":0,\"x\":0.1,\"t\":\"a,\\\"b\\\"\"}\n{\"id\":1,\"x\":null,\"t\":null}\n"
        );
    }
}
