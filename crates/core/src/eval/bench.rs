//! The benchmark datasets under `shared/bench/<dataset>/`: manifest, page bytes (gunzipped and
//! decoded with the manifest's charset), gold text and peer tools' saved outputs.
//!
//! Layout of one dataset: `manifest.jsonl` (one record per page: `id`, `url`,
//! `suggested_charset`, `page_type` for wcxb-dev, ...), `html/<id>.html.gz` (gzip of the
//! original bytes), `gold/<id>.txt` (UTF-8) and `peers/<tool>/<id>.txt`. The pages are read in
//! place and never copied into the project.

use std::fs;
use std::io::Read;
use std::path::{Path, PathBuf};

use encoding_rs::Encoding;
use serde::{Deserialize, Serialize};

use crate::Error;

/// The datasets of `shared/bench`, in report order.
pub const DATASETS: [&str; 4] = ["cleaneval", "l3s-gn1", "readability", "wcxb-dev"];

/// The datasets whose gold keeps reader comments, measured from the gold by `sightline train`
/// (its log prints each dataset's share): of the tokens of units in a comment region outside
/// the article ([`crate::extract::learned::comment_candidate`]), CleanEval's gold holds 0.94,
/// WCXB's 0.17 (0.32 on forum pages, whose posts are the content), Readability's 0.02 and
/// L3S-GN1's 0.003. `eval` runs `learned` with `--comments` on these and says so in its report.
pub const GOLD_KEEPS_COMMENTS: [&str; 1] = ["cleaneval"];

/// The default dataset root, relative to the working directory (the project root sits beside
/// `shared/`).
pub const DEFAULT_ROOT: &str = "../shared/bench";

/// One record of `manifest.jsonl`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ManifestEntry {
    /// Page id: the file stem of `html/<id>.html.gz` and `gold/<id>.txt`.
    pub id: String,
    /// The page's original URL, when known.
    #[serde(default)]
    pub url: Option<String>,
    /// The WHATWG label to decode the page bytes with.
    #[serde(default)]
    pub suggested_charset: Option<String>,
    /// Page type (wcxb-dev only): article, service, product, collection, forum, listing,
    /// documentation.
    #[serde(default)]
    pub page_type: Option<String>,
    /// Every other field of the record, kept as is.
    #[serde(flatten)]
    pub extra: serde_json::Map<String, serde_json::Value>,
}

/// One dataset: its directory and manifest.
#[derive(Debug, Clone)]
pub struct Dataset {
    /// The dataset name (its directory name), e.g. `cleaneval`.
    pub name: String,
    /// `<root>/<name>`.
    pub dir: PathBuf,
    /// Manifest records in file order.
    pub entries: Vec<ManifestEntry>,
}

/// The dataset names under `root` (directories holding a `manifest.jsonl`), sorted.
pub fn list_datasets(root: &Path) -> Result<Vec<String>, Error> {
    let read = fs::read_dir(root).map_err(|e| missing_root(root, &e))?;
    let mut names = Vec::new();
    for entry in read.flatten() {
        if entry.path().join("manifest.jsonl").is_file() {
            names.push(entry.file_name().to_string_lossy().into_owned());
        }
    }
    names.sort();
    Ok(names)
}

fn missing_root(root: &Path, e: &std::io::Error) -> Error {
    Error::Input {
        input: root.display().to_string(),
        message: format!(
            "{e}: this is the benchmark root (shared/bench, holding cleaneval/, l3s-gn1/, ...); \
             run from the project root beside shared/ or pass the bench directory explicitly"
        ),
        source: None,
    }
}

fn input_error(path: &Path, message: impl Into<String>) -> Error {
    Error::Input {
        input: path.display().to_string(),
        message: message.into(),
        source: None,
    }
}

impl Dataset {
    /// Opens `<root>/<name>` and parses its manifest.
    pub fn open(root: &Path, name: &str) -> Result<Dataset, Error> {
        if !root.is_dir() {
            return Err(missing_root(
                root,
                &std::io::Error::from(std::io::ErrorKind::NotFound),
            ));
        }
        let dir = root.join(name);
        let manifest = dir.join("manifest.jsonl");
        let text = fs::read_to_string(&manifest).map_err(|e| {
            input_error(
                &manifest,
                format!(
                    "{e}: is `{name}` a dataset of {}? (datasets: {})",
                    root.display(),
                    DATASETS.join(", ")
                ),
            )
        })?;
        let entries = parse_manifest(&text).map_err(|(line, e)| {
            input_error(
                &manifest,
                format!("line {line}: {e} (each line must be a JSON object with a string `id`)"),
            )
        })?;
        Ok(Dataset {
            name: name.to_string(),
            dir,
            entries,
        })
    }

    /// Page ids in manifest order.
    pub fn ids(&self) -> impl Iterator<Item = &str> {
        self.entries.iter().map(|e| e.id.as_str())
    }

    /// The manifest record of `id`.
    pub fn entry(&self, id: &str) -> Option<&ManifestEntry> {
        self.entries.iter().find(|e| e.id == id)
    }

    /// `html/<id>.html.gz`.
    pub fn html_path(&self, id: &str) -> PathBuf {
        self.dir.join("html").join(format!("{id}.html.gz"))
    }

    /// `gold/<id>.txt`.
    pub fn gold_path(&self, id: &str) -> PathBuf {
        self.dir.join("gold").join(format!("{id}.txt"))
    }

    /// `peers/<tool>/<id>.txt`.
    pub fn peer_path(&self, tool: &str, id: &str) -> PathBuf {
        self.dir.join("peers").join(tool).join(format!("{id}.txt"))
    }

    /// The page's original bytes (gunzipped, not decoded).
    pub fn html_bytes(&self, id: &str) -> Result<Vec<u8>, Error> {
        let path = self.html_path(id);
        let file = fs::File::open(&path).map_err(|e| {
            input_error(
                &path,
                format!("{e}: the dataset is incomplete; restore shared/bench"),
            )
        })?;
        let mut bytes = Vec::new();
        flate2::read::GzDecoder::new(file)
            .read_to_end(&mut bytes)
            .map_err(|e| {
                input_error(
                    &path,
                    format!("not a valid gzip file ({e}); restore it from shared/bench"),
                )
            })?;
        Ok(bytes)
    }

    /// The page's bytes and the charset they are served with ([`serve_charset`]).
    pub fn served(&self, id: &str) -> Result<(Vec<u8>, String), Error> {
        let bytes = self.html_bytes(id)?;
        let charset = serve_charset(self.suggested_charset(id), &bytes);
        Ok((bytes, charset))
    }

    /// The page decoded to text with the charset it is served with ([`Dataset::served`]).
    pub fn html(&self, id: &str) -> Result<String, Error> {
        let (bytes, charset) = self.served(id)?;
        decode(&bytes, &charset, &format!("{}/{id}", self.name))
    }

    /// The manifest's `suggested_charset` of a page.
    pub fn suggested_charset(&self, id: &str) -> Option<&str> {
        self.entry(id).and_then(|e| e.suggested_charset.as_deref())
    }

    /// The gold text (UTF-8).
    pub fn gold(&self, id: &str) -> Result<String, Error> {
        read_utf8(&self.gold_path(id))
    }

    /// A peer tool's saved output for `id`, `None` when the tool wrote none.
    pub fn peer_output(&self, tool: &str, id: &str) -> Result<Option<String>, Error> {
        read_optional_utf8(&self.peer_path(tool, id))
    }
}

/// Parses `manifest.jsonl`; blank lines are skipped. Errors carry the 1-based line number.
pub fn parse_manifest(text: &str) -> Result<Vec<ManifestEntry>, (usize, String)> {
    let mut entries = Vec::new();
    for (i, line) in text.lines().enumerate() {
        if line.trim().is_empty() {
            continue;
        }
        entries.push(serde_json::from_str(line).map_err(|e| (i + 1, e.to_string()))?);
    }
    Ok(entries)
}

/// The charset a benchmark page's bytes are served (and decoded) with: the manifest's
/// `suggested_charset` when it names a WHATWG encoding (Python's `iso8859_1` spelling read as
/// `iso8859-1`), else UTF-8 (cleaneval has the labels `iso-1252` and `0`, on pages whose bytes
/// are valid UTF-8). When the bytes are valid UTF-8 and hold non-ASCII text, UTF-8 whatever
/// the manifest says: such a page was converted to UTF-8 and kept its old declaration (the
/// manifest's label comes from its `<meta>`), and served as declared it shows mojibake
/// ("Ã©" for "é", "鏂扮數鑴" for "DeepMind新电脑"). 122 bench pages are so: 112 of l3s-gn1,
/// 7 of cleaneval and 2 of wcxb-dev declare ISO-8859-1 or windows-1252, Readability's `qq`
/// declares gb2312. Legacy bytes are practically never valid UTF-8 once they hold non-ASCII
/// text, so the rule does not misread a page really in the declared charset.
pub fn serve_charset(suggested: Option<&str>, bytes: &[u8]) -> String {
    let label = suggested.map(str::trim).unwrap_or("utf-8");
    let encoding = Encoding::for_label(label.as_bytes())
        .or_else(|| Encoding::for_label(label.replace('_', "-").as_bytes()));
    match encoding {
        Some(e) if e == encoding_rs::UTF_8 => "utf-8".into(),
        Some(e) if !crate::charset::is_utf8_text(bytes) => e.name().to_ascii_lowercase(),
        _ => "utf-8".into(),
    }
}

/// Decodes page bytes with a WHATWG encoding label (`windows-1252`, `gb2312`, `utf-8`, ...), as
/// a browser does: a byte-order mark wins over the label, malformed bytes become U+FFFD.
/// Python codec spellings with `_` (`iso8859_1`, `euc_kr`, found in the manifests) are read as
/// their `-` labels. An unknown label is [`Error::Charset`] naming `input`.
pub fn decode(bytes: &[u8], charset: &str, input: &str) -> Result<String, Error> {
    let label = charset.trim();
    let encoding = Encoding::for_label(label.as_bytes())
        .or_else(|| Encoding::for_label(label.replace('_', "-").as_bytes()))
        .ok_or_else(|| Error::Charset {
            input: input.to_string(),
            charset: charset.to_string(),
        })?;
    let (text, _, _) = encoding.decode(bytes);
    Ok(text.into_owned())
}

/// Reads a UTF-8 text file.
pub fn read_utf8(path: &Path) -> Result<String, Error> {
    let bytes = fs::read(path).map_err(|e| input_error(path, e.to_string()))?;
    String::from_utf8(bytes)
        .map_err(|e| input_error(path, format!("not UTF-8 ({e}); save it as UTF-8")))
}

/// Reads a UTF-8 text file, `None` if it does not exist.
pub fn read_optional_utf8(path: &Path) -> Result<Option<String>, Error> {
    match fs::metadata(path) {
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(None),
        _ => read_utf8(path).map(Some),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::Write;

    #[test]
    fn pages_converted_to_utf8_are_served_as_utf8_whatever_they_declare() {
        use super::serve_charset;
        let utf8 = "<meta charset=gb2312><p>DeepMind新电脑 café</p>".as_bytes();
        assert_eq!(serve_charset(Some("gb2312"), utf8), "utf-8");
        assert_eq!(serve_charset(Some("iso-8859-1"), utf8), "utf-8");
        // Bytes really in the declared charset are not valid UTF-8: served as declared (by
        // the encoding's WHATWG name: ISO-8859-1 is windows-1252 in browsers).
        assert_eq!(
            serve_charset(Some("iso-8859-1"), b"caf\xe9"),
            "windows-1252"
        );
        assert_eq!(serve_charset(Some("iso8859_1"), b"caf\xe9"), "windows-1252");
        assert_eq!(serve_charset(Some("gb2312"), b"\xd0\xc2\xb5\xe7"), "gbk");
        // ASCII only: the declaration stands (nothing to misread either way).
        assert_eq!(
            serve_charset(Some("windows-1252"), b"<p>plain</p>"),
            "windows-1252"
        );
        // No label, or one that is no encoding: UTF-8.
        assert_eq!(serve_charset(None, b"caf\xe9"), "utf-8");
        assert_eq!(serve_charset(Some("iso-1252"), b"caf\xe9"), "utf-8");
        assert_eq!(serve_charset(Some("0"), utf8), "utf-8");
    }

    #[test]
    fn manifest_keeps_known_and_extra_fields() {
        let text = concat!(
            r#"{"id": "dev-1", "url": "http://x/", "suggested_charset": "windows-1252", "gold_chars": 1363}"#,
            "\n\n",
            r#"{"id": "a", "page_type": "forum"}"#,
            "\n"
        );
        let m = parse_manifest(text).unwrap();
        assert_eq!(m.len(), 2);
        assert_eq!(m[0].suggested_charset.as_deref(), Some("windows-1252"));
        assert_eq!(m[0].extra["gold_chars"], 1363);
        assert_eq!(
            (m[1].page_type.as_deref(), m[1].url.as_deref()),
            (Some("forum"), None)
        );
        assert_eq!(parse_manifest("{\"id\": 1}\n").unwrap_err().0, 1);
    }

    #[test]
    fn decodes_with_label_and_names_unknown_charsets() {
        assert_eq!(
            decode(b"caf\xe9 \x93q\x94", "windows-1252", "p").unwrap(),
            "café “q”"
        );
        // WHATWG maps iso-8859-1 to windows-1252, as browsers do.
        assert_eq!(decode(b"\x93", "ISO-8859-1", "p").unwrap(), "“");
        assert_eq!(decode("中文".as_bytes(), "utf-8", "p").unwrap(), "中文");
        assert_eq!(decode(b"\xd6\xd0", "gb2312", "p").unwrap(), "中");
        assert_eq!(decode(b"\xe9", "iso8859_1", "p").unwrap(), "é");
        assert_eq!(decode(b"\xc7\xd1", "euc_kr", "p").unwrap(), "한");
        let e = decode(b"x", "klingon-8", "cleaneval/dev-1").unwrap_err();
        assert!(matches!(e, Error::Charset { .. }));
        let msg = e.to_string();
        assert!(
            msg.contains("cleaneval/dev-1") && msg.contains("klingon-8"),
            "{msg}"
        );
    }

    #[test]
    fn dataset_reads_pages_gold_and_peers() {
        let root = tempfile::tempdir().unwrap();
        let dir = root.path().join("mini");
        for sub in ["html", "gold", "peers/tool"] {
            fs::create_dir_all(dir.join(sub)).unwrap();
        }
        fs::write(dir.join("manifest.jsonl"), "{\"id\": \"p1\", \"suggested_charset\": \"windows-1252\"}\n{\"id\": \"p2\", \"suggested_charset\": \"bogus\"}\n").unwrap();
        let mut gz = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::default());
        gz.write_all(b"<p>caf\xe9</p>").unwrap();
        fs::write(dir.join("html/p1.html.gz"), gz.finish().unwrap()).unwrap();
        fs::write(dir.join("html/p2.html.gz"), b"not gzip").unwrap();
        fs::write(dir.join("gold/p1.txt"), "café").unwrap();
        fs::write(dir.join("gold/p2.txt"), b"\xff").unwrap();
        fs::write(dir.join("peers/tool/p1.txt"), "out").unwrap();

        assert_eq!(list_datasets(root.path()).unwrap(), vec!["mini"]);
        let d = Dataset::open(root.path(), "mini").unwrap();
        assert_eq!(d.ids().collect::<Vec<_>>(), vec!["p1", "p2"]);
        assert_eq!(d.html("p1").unwrap(), "<p>café</p>");
        assert_eq!(d.gold("p1").unwrap(), "café");
        assert_eq!(d.peer_output("tool", "p1").unwrap().as_deref(), Some("out"));
        assert_eq!(d.peer_output("tool", "p2").unwrap(), None);
        let e = d.html("p2").unwrap_err().to_string();
        assert!(e.contains("p2.html.gz") && e.contains("gzip"), "{e}");
        assert!(d.gold("p2").unwrap_err().to_string().contains("not UTF-8"));

        let missing = Dataset::open(root.path(), "nope").unwrap_err().to_string();
        assert!(
            missing.contains("manifest.jsonl") && missing.contains("cleaneval"),
            "{missing}"
        );
        let no_root = Dataset::open(&root.path().join("absent"), "mini")
            .unwrap_err()
            .to_string();
        assert!(no_root.contains("benchmark root"), "{no_root}");
    }
}
