//! WACZ 1.1 (webrecorder's packaging of WARCs): a zip whose WARCs are stored, not deflated
//! (`archive/data.warc.gz`), with a CDXJ index (`indexes/index.cdxj`), the pages
//! (`pages/pages.jsonl`, with their titles and extracted text), `datapackage.json` (each
//! file's SHA-256 and size) and `datapackage-digest.json` (the SHA-256 of
//! `datapackage.json`). The zip is written and read here (stored entries only, no ZIP64:
//! files up to 4 GiB).

use std::fs::File;
use std::io::{BufWriter, Read, Seek, SeekFrom, Write};
use std::path::Path;
use std::time::SystemTime;

use sha2::{Digest as _, Sha256};

use super::IndexEntry;

/// One page of `pages/pages.jsonl`.
#[derive(Debug, Clone, serde::Serialize)]
pub struct PageEntry {
    pub id: String,
    pub url: String,
    pub title: String,
    /// ISO 8601 UTC.
    pub ts: String,
    /// The extracted text (what ReplayWeb.page searches).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub text: Option<String>,
}

/// What a WACZ package is made of besides its WARC.
#[derive(Debug, Clone, Default)]
pub struct Wacz {
    pub pages: Vec<PageEntry>,
    /// Index entries, offsets from the start of `archive/data.warc.gz`.
    pub index: Vec<IndexEntry>,
}

/// The SURT form of a URL (host labels reversed with commas, `www.` dropped, lower case, then
/// `)` and the path and query), the sort key of CDXJ.
pub fn surt(url: &str) -> String {
    let Ok(u) = url::Url::parse(url) else {
        return url.to_ascii_lowercase();
    };
    let Some(host) = u.host_str() else {
        return url.to_ascii_lowercase();
    };
    let host = host.trim_start_matches("www.").to_ascii_lowercase();
    let mut s = if host.parse::<std::net::IpAddr>().is_ok() || host.starts_with('[') {
        host
    } else {
        host.split('.').rev().collect::<Vec<_>>().join(",")
    };
    if let Some(p) = u.port() {
        s.push_str(&format!(":{p}"));
    }
    s.push(')');
    s.push_str(&u.path().to_ascii_lowercase());
    if let Some(q) = u.query() {
        let mut args: Vec<&str> = q.split('&').collect();
        args.sort_unstable();
        s.push('?');
        s.push_str(&args.join("&").to_ascii_lowercase());
    }
    s
}

/// One CDXJ line: `<surt> <timestamp> {json}` for a record of `filename`.
pub fn cdxj_line(e: &IndexEntry, filename: &str) -> String {
    let q = |v: &str| serde_json::Value::from(v).to_string();
    let status = e
        .status
        .map(|s| format!(",\"status\":\"{s}\""))
        .unwrap_or_default();
    format!(
        "{} {} {{\"url\":{},\"mime\":{}{status},\"digest\":{},\"length\":\"{}\",\"offset\":\"{}\",\"filename\":{}}}",
        surt(&e.url),
        e.timestamp,
        q(&e.url),
        q(&e.mime),
        q(&e.digest),
        e.length,
        e.offset,
        q(filename)
    )
}

impl Wacz {
    /// Write the package to `out`, with `warc` (a `.warc.gz` file) as `archive/data.warc.gz`.
    pub fn write(
        &self,
        warc: &Path,
        out: &Path,
        software: &str,
        created: SystemTime,
    ) -> std::io::Result<()> {
        let filename = "data.warc.gz";
        let mut lines: Vec<String> = self.index.iter().map(|e| cdxj_line(e, filename)).collect();
        lines.sort();
        let mut cdxj = lines.join("\n");
        cdxj.push('\n');
        let mut pages = String::from(
            "{\"format\": \"json-pages-1.0\", \"id\": \"pages\", \"title\": \"All Pages\", \"hasText\": true}\n",
        );
        for p in &self.pages {
            pages.push_str(&serde_json::to_string(p).map_err(std::io::Error::other)?);
            pages.push('\n');
        }
        let mut zip = ZipWriter::create(out)?;
        let mut resources = Vec::new();
        let (hash, size) = zip.add_file(&format!("archive/{filename}"), warc)?;
        resources.push((
            filename.to_string(),
            format!("archive/{filename}"),
            hash,
            size,
        ));
        for (name, path, bytes) in [
            ("index.cdxj", "indexes/index.cdxj", cdxj.as_bytes()),
            ("pages.jsonl", "pages/pages.jsonl", pages.as_bytes()),
        ] {
            zip.add_bytes(path, bytes)?;
            resources.push((name.into(), path.into(), sha256(bytes), bytes.len() as u64));
        }
        let created = super::warc_date(created);
        let mut dp = serde_json::json!({
            "profile": "data-package",
            "resources": resources.iter().map(|(name, path, hash, bytes)| serde_json::json!({
                "name": name, "path": path, "hash": hash, "bytes": bytes,
            })).collect::<Vec<_>>(),
            "wacz_version": "1.1.1",
            "software": software,
            "created": created,
            "title": "sightline capture",
        });
        if let Some(p) = self.pages.first() {
            dp["mainPageURL"] = p.url.clone().into();
            dp["mainPageDate"] = p.ts.clone().into();
        }
        let dp = serde_json::to_vec_pretty(&dp).map_err(std::io::Error::other)?;
        zip.add_bytes("datapackage.json", &dp)?;
        let digest = serde_json::json!({"path": "datapackage.json", "hash": sha256(&dp)});
        zip.add_bytes(
            "datapackage-digest.json",
            &serde_json::to_vec_pretty(&digest).map_err(std::io::Error::other)?,
        )?;
        zip.finish()
    }
}

/// `sha256:<hex>`, the form of WACZ's hashes.
fn sha256(bytes: &[u8]) -> String {
    format!("sha256:{}", hex(&Sha256::digest(bytes)))
}

fn hex(b: &[u8]) -> String {
    b.iter().map(|x| format!("{x:02x}")).collect()
}

/// A zip written entry by entry, every entry stored (method 0).
struct ZipWriter {
    out: BufWriter<File>,
    pos: u64,
    central: Vec<u8>,
    count: u16,
}

/// DOS date 1980-01-01 00:00 (the entries' time: the records hold the real ones).
const DOS_DATE: u16 = (1 << 5) | 1;

impl ZipWriter {
    fn create(path: &Path) -> std::io::Result<ZipWriter> {
        Ok(ZipWriter {
            out: BufWriter::new(File::create(path)?),
            pos: 0,
            central: Vec::new(),
            count: 0,
        })
    }

    /// Add a file's bytes as an entry; its SHA-256 and size.
    fn add_file(&mut self, name: &str, path: &Path) -> std::io::Result<(String, u64)> {
        // Two passes over the file: its CRC and hash, then its bytes.
        let mut crc = flate2::Crc::new();
        let mut h = Sha256::new();
        let mut f = File::open(path)?;
        let mut buf = vec![0u8; 1 << 16];
        loop {
            let n = f.read(&mut buf)?;
            if n == 0 {
                break;
            }
            crc.update(&buf[..n]);
            h.update(&buf[..n]);
        }
        let size = crc.amount() as u64;
        if size >= u32::MAX as u64 {
            return Err(std::io::Error::other(
                "the WARC is 4 GiB or more: WACZ packages over 4 GiB (ZIP64) are not written",
            ));
        }
        self.header(name, crc.sum(), size as u32)?;
        f.seek(SeekFrom::Start(0))?;
        let copied = std::io::copy(&mut f, &mut self.out)?;
        self.pos += copied;
        Ok((format!("sha256:{}", hex(&h.finalize())), size))
    }

    fn add_bytes(&mut self, name: &str, bytes: &[u8]) -> std::io::Result<()> {
        let mut crc = flate2::Crc::new();
        crc.update(bytes);
        self.header(name, crc.sum(), bytes.len() as u32)?;
        self.out.write_all(bytes)?;
        self.pos += bytes.len() as u64;
        Ok(())
    }

    /// The local header of an entry, and its central directory record.
    fn header(&mut self, name: &str, crc: u32, size: u32) -> std::io::Result<()> {
        let offset = u32::try_from(self.pos)
            .map_err(|_| std::io::Error::other("a WACZ over 4 GiB (ZIP64) is not written"))?;
        let n = name.as_bytes();
        let mut local = Vec::with_capacity(30 + n.len());
        local.extend_from_slice(&0x0403_4b50u32.to_le_bytes());
        local.extend_from_slice(&20u16.to_le_bytes()); // version needed
        local.extend_from_slice(&0x0800u16.to_le_bytes()); // UTF-8 names
        local.extend_from_slice(&0u16.to_le_bytes()); // stored
        local.extend_from_slice(&0u16.to_le_bytes()); // time
        local.extend_from_slice(&DOS_DATE.to_le_bytes());
        local.extend_from_slice(&crc.to_le_bytes());
        local.extend_from_slice(&size.to_le_bytes());
        local.extend_from_slice(&size.to_le_bytes());
        local.extend_from_slice(&(n.len() as u16).to_le_bytes());
        local.extend_from_slice(&0u16.to_le_bytes());
        local.extend_from_slice(n);
        self.out.write_all(&local)?;
        self.pos += local.len() as u64;
        let c = &mut self.central;
        c.extend_from_slice(&0x0201_4b50u32.to_le_bytes());
        c.extend_from_slice(&20u16.to_le_bytes()); // made by
        c.extend_from_slice(&20u16.to_le_bytes()); // needed
        c.extend_from_slice(&0x0800u16.to_le_bytes());
        c.extend_from_slice(&0u16.to_le_bytes());
        c.extend_from_slice(&0u16.to_le_bytes());
        c.extend_from_slice(&DOS_DATE.to_le_bytes());
        c.extend_from_slice(&crc.to_le_bytes());
        c.extend_from_slice(&size.to_le_bytes());
        c.extend_from_slice(&size.to_le_bytes());
        c.extend_from_slice(&(n.len() as u16).to_le_bytes());
        c.extend_from_slice(&[0u8; 8]); // extra, comment, disk, internal attributes
        c.extend_from_slice(&0u32.to_le_bytes()); // external attributes
        c.extend_from_slice(&offset.to_le_bytes());
        c.extend_from_slice(n);
        self.count += 1;
        Ok(())
    }

    fn finish(mut self) -> std::io::Result<()> {
        let at = u32::try_from(self.pos)
            .map_err(|_| std::io::Error::other("a WACZ over 4 GiB (ZIP64) is not written"))?;
        self.out.write_all(&self.central)?;
        let mut end = Vec::new();
        end.extend_from_slice(&0x0605_4b50u32.to_le_bytes());
        end.extend_from_slice(&[0u8; 4]);
        end.extend_from_slice(&self.count.to_le_bytes());
        end.extend_from_slice(&self.count.to_le_bytes());
        end.extend_from_slice(&(self.central.len() as u32).to_le_bytes());
        end.extend_from_slice(&at.to_le_bytes());
        end.extend_from_slice(&0u16.to_le_bytes());
        self.out.write_all(&end)?;
        self.out.flush()
    }
}

/// One entry of a zip's central directory.
#[derive(Debug, Clone)]
pub(super) struct ZipEntry {
    pub name: String,
    pub stored: bool,
    /// Where the entry's data starts in the file.
    pub data_offset: u64,
    /// Its compressed size.
    pub size: u64,
}

/// The entries of a zip (no ZIP64), from its central directory.
pub(super) fn zip_entries(path: &Path) -> Result<Vec<ZipEntry>, String> {
    let bad = |m: &str| format!("{}: {m}", path.display());
    let mut f = File::open(path).map_err(|e| bad(&e.to_string()))?;
    let len = f.metadata().map_err(|e| bad(&e.to_string()))?.len();
    let tail_len = len.min(65_557);
    f.seek(SeekFrom::Start(len - tail_len))
        .map_err(|e| bad(&e.to_string()))?;
    let mut tail = vec![0u8; tail_len as usize];
    f.read_exact(&mut tail).map_err(|e| bad(&e.to_string()))?;
    let eocd = tail
        .windows(4)
        .rposition(|w| w == b"PK\x05\x06")
        .ok_or_else(|| bad("no zip end record (a broken or ZIP64 zip)"))?;
    let le16 = |b: &[u8], at: usize| u16::from_le_bytes([b[at], b[at + 1]]) as u64;
    let le32 =
        |b: &[u8], at: usize| u32::from_le_bytes([b[at], b[at + 1], b[at + 2], b[at + 3]]) as u64;
    if tail.len() < eocd + 22 {
        return Err(bad("a zip end record cut short"));
    }
    let count = le16(&tail, eocd + 10);
    let cd_size = le32(&tail, eocd + 12);
    let cd_at = le32(&tail, eocd + 16);
    let mut cd = vec![0u8; cd_size as usize];
    f.seek(SeekFrom::Start(cd_at))
        .map_err(|e| bad(&e.to_string()))?;
    f.read_exact(&mut cd).map_err(|e| bad(&e.to_string()))?;
    let mut out = Vec::new();
    let mut p = 0usize;
    for _ in 0..count {
        if cd.len() < p + 46 || cd[p..p + 4] != *b"PK\x01\x02" {
            return Err(bad("a broken zip central directory"));
        }
        let method = le16(&cd, p + 10);
        let size = le32(&cd, p + 20);
        let nlen = le16(&cd, p + 28) as usize;
        let xlen = le16(&cd, p + 30) as usize;
        let clen = le16(&cd, p + 32) as usize;
        let local = le32(&cd, p + 42);
        let name =
            String::from_utf8_lossy(cd.get(p + 46..p + 46 + nlen).unwrap_or_default()).into_owned();
        p += 46 + nlen + xlen + clen;
        // The data follows the local header, whose name and extra lengths may differ.
        let mut lh = [0u8; 30];
        f.seek(SeekFrom::Start(local))
            .map_err(|e| bad(&e.to_string()))?;
        f.read_exact(&mut lh).map_err(|e| bad(&e.to_string()))?;
        let data_offset = local + 30 + le16(&lh, 26) + le16(&lh, 28);
        out.push(ZipEntry {
            name,
            stored: method == 0,
            data_offset,
            size,
        });
    }
    Ok(out)
}
