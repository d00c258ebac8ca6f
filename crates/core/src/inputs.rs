//! Input lists: reading them (`--input FILE|-`), splitting them into shards for batch
//! schedulers (`--shard K/N`), and naming each input's files (`slug`). Which inputs a previous
//! run recorded (`--resume`) is read by the runtime's sink, which owns that file.

use std::fmt;
use std::str::FromStr;

/// Parse an input list: one URL or path per line; blank lines and `#` comments skipped.
pub fn parse_list(text: &str) -> Vec<String> {
    text.lines()
        .map(str::trim)
        .filter(|l| !l.is_empty() && !l.starts_with('#'))
        .map(str::to_string)
        .collect()
}

/// One shard of an input list: `K/N` keeps the inputs whose stable hash modulo N is K
/// (K counts from 0, like a Kubernetes Indexed Job's `JOB_COMPLETION_INDEX`; a Slurm array
/// gives `$SLURM_ARRAY_TASK_ID`). N machines given the same list split it with no
/// coordinator: the shards are disjoint and together hold every input, whatever order
/// each machine reads the list in.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Shard {
    pub index: u64,
    pub count: u64,
}

impl Shard {
    /// Does this shard own `input`?
    pub fn owns(&self, input: &str) -> bool {
        stable_hash(input) % self.count == self.index
    }
}

impl FromStr for Shard {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let err = || format!("--shard {s}: expected K/N with 0 <= K < N, such as 0/4");
        let (k, n) = s.split_once('/').ok_or_else(err)?;
        let index: u64 = k.trim().parse().map_err(|_| err())?;
        let count: u64 = n.trim().parse().map_err(|_| err())?;
        if count == 0 || index >= count {
            return Err(err());
        }
        Ok(Shard { index, count })
    }
}

impl fmt::Display for Shard {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}/{}", self.index, self.count)
    }
}

/// FNV-1a, 64 bits, over the input's bytes: the same on every machine, platform and run
/// (Rust's `DefaultHasher` is not promised to be).
pub fn stable_hash(input: &str) -> u64 {
    crate::hash::fnv1a64(&[input.as_bytes()])
}

/// A stable file-name slug for an input: a readable part plus a hash of the whole input, so
/// two inputs never share files and a resumed run names them the same.
pub fn slug(input: &str) -> String {
    let s = input.split_once("://").map(|x| x.1).unwrap_or(input);
    let mut out: String = s
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() {
                c.to_ascii_lowercase()
            } else {
                '-'
            }
        })
        .collect();
    while out.contains("--") {
        out = out.replace("--", "-");
    }
    let out: String = out.trim_matches('-').chars().take(60).collect();
    // FNV-1a, 32 bits (kept from earlier releases so resumed runs name files the same).
    let h = input.bytes().fold(0x811c_9dc5u32, |h, b| {
        (h ^ b as u32).wrapping_mul(0x0100_0193)
    });
    format!("{}-{h:08x}", if out.is_empty() { "page" } else { &out })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lists_skip_comments_and_blanks() {
        assert_eq!(
            parse_list("# urls\nhttps://a.example/\n\n  b.html  \n#x\n"),
            vec!["https://a.example/", "b.html"]
        );
    }

    #[test]
    fn shards_partition_the_inputs() {
        let inputs: Vec<String> = (0..1000)
            .map(|i| format!("https://e.example/{i}"))
            .collect();
        for n in [1u64, 2, 3, 7] {
            let mut seen = vec![0; inputs.len()];
            for k in 0..n {
                let s: Shard = format!("{k}/{n}").parse().unwrap();
                let mine = inputs.iter().enumerate().filter(|(_, i)| s.owns(i));
                for (j, _) in mine {
                    seen[j] += 1;
                }
            }
            assert!(
                seen.iter().all(|&c| c == 1),
                "N={n}: every input in exactly one shard"
            );
        }
        // Balanced enough to be useful: 1000 inputs over 4 shards, each within 20% of 250.
        for k in 0..4 {
            let s = Shard { index: k, count: 4 };
            let c = inputs.iter().filter(|i| s.owns(i)).count();
            assert!((200..=300).contains(&c), "shard {k} has {c}");
        }
    }

    #[test]
    fn shard_hash_is_stable() {
        // Pinned: a change would reshuffle every scheduled batch.
        assert_eq!(stable_hash(""), 0xcbf2_9ce4_8422_2325);
        assert_eq!(stable_hash("a"), 0xaf63_dc4c_8601_ec8c);
    }

    #[test]
    fn shard_syntax() {
        assert_eq!("2/5".parse::<Shard>(), Ok(Shard { index: 2, count: 5 }));
        for bad in ["5/5", "1/0", "x/2", "3", "-1/2"] {
            assert!(bad.parse::<Shard>().is_err(), "{bad}");
        }
    }

    #[test]
    fn slugs_are_stable_and_distinct() {
        assert_eq!(
            slug("https://example.com/a?b=1"),
            slug("https://example.com/a?b=1")
        );
        assert_ne!(
            slug("https://example.com/a?b=1"),
            slug("https://example.com/a?b=2")
        );
        assert!(slug("https://example.com/a").starts_with("example-com-a-"));
    }
}
