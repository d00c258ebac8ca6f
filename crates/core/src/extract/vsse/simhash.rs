//! VSSE §4.4: summarizing content semantics. Keywords of each paragraph, their TF-IDF weights
//! (eq. 4), a SimHash fingerprint per paragraph (Charikar's SimHash, the paper's ref. 31) and the
//! Hamming distance between fingerprints.

use std::collections::{HashMap, HashSet};

use super::super::params::VsseParams;
use super::super::text::words;

#[cfg(test)]
/// The keywords of `text`: its words (Unicode word segmentation, one CJK character per word,
/// standing in for the NLPIR segmenter), lower-cased, without stop words and without words
/// that hold no letter (numbers are not keywords).
pub fn keywords(text: &str, p: &VsseParams) -> Vec<String> {
    keywords_with(text, &stop_set(p))
}

/// The stop words of `p` as a set, for [`keywords_with`].
pub fn stop_set(p: &VsseParams) -> HashSet<&str> {
    p.stop_words.iter().map(String::as_str).collect()
}

/// [`keywords`] with the stop words already in a set (one set for a page's paragraphs).
pub fn keywords_with(text: &str, stop: &HashSet<&str>) -> Vec<String> {
    words(text)
        .into_iter()
        .filter(|w| w.chars().any(char::is_alphabetic))
        .map(str::to_lowercase)
        .filter(|w| !stop.contains(w.as_str()))
        .collect()
}

/// Eq. 4 over a "text area" of paragraphs: weight(k) = TF_k · [ln(N/N_k) + L] for every
/// keyword of every paragraph, where TF_k counts k in that paragraph, N is the number of
/// paragraphs and N_k the number holding k. Each paragraph's (keyword, weight) pairs come out
/// in first-occurrence order.
pub fn tf_idf(paragraphs: &[Vec<String>], l: f64) -> Vec<Vec<(String, f64)>> {
    let df = document_frequencies(paragraphs);
    paragraphs
        .iter()
        .map(|para| weights(para, &df, paragraphs.len(), l))
        .collect()
}

/// N_k of eq. 4: the number of paragraphs holding each keyword.
pub fn document_frequencies(paragraphs: &[Vec<String>]) -> HashMap<&str, usize> {
    let mut df: HashMap<&str, usize> = HashMap::new();
    for para in paragraphs {
        let mut seen: Vec<&str> = para.iter().map(String::as_str).collect();
        seen.sort_unstable();
        seen.dedup();
        for k in seen {
            *df.entry(k).or_default() += 1;
        }
    }
    df
}

/// Eq. 4 for one paragraph of an area of `n` paragraphs with document frequencies `df`:
/// its (keyword, weight) pairs in first-occurrence order.
pub fn weights(para: &[String], df: &HashMap<&str, usize>, n: usize, l: f64) -> Vec<(String, f64)> {
    let n = n as f64;
    let mut tf: Vec<(String, f64)> = Vec::new();
    let mut at: HashMap<&str, usize> = HashMap::new();
    for k in para {
        match at.get(k.as_str()) {
            Some(&e) => tf[e].1 += 1.0,
            None => {
                at.insert(k, tf.len());
                tf.push((k.clone(), 1.0));
            }
        }
    }
    for (k, w) in &mut tf {
        *w *= (n / df[k.as_str()] as f64).ln() + l;
    }
    tf
}

/// A stable 64-bit hash of a keyword: FNV-1a, then the SplitMix64 finalizer so that every
/// output bit depends on every input byte (plain FNV leaves the high bits of short strings
/// poorly mixed, and SimHash reads every bit).
pub fn hash64(s: &str) -> u64 {
    crate::hash::stable_hash64(&[s.as_bytes()])
}

/// SimHash of weighted keywords, steps (b)-(d) of §4.4: hash each keyword; for each of the
/// low `bits` bits add +weight where the bit is 1 and −weight where it is 0; the fingerprint
/// has a 1 where the sum is greater than 0. None when there is no keyword.
pub fn fingerprint(weighted: &[(String, f64)], bits: u32) -> Option<u64> {
    if weighted.is_empty() {
        return None;
    }
    let bits = bits.min(64) as usize;
    let mut v = vec![0.0f64; bits];
    for (k, w) in weighted {
        let h = hash64(k);
        for (b, acc) in v.iter_mut().enumerate() {
            if h >> b & 1 == 1 {
                *acc += w;
            } else {
                *acc -= w;
            }
        }
    }
    Some(
        v.iter()
            .enumerate()
            .filter(|(_, &s)| s > 0.0)
            .fold(0u64, |f, (b, _)| f | 1 << b),
    )
}

/// Number of bits in which two fingerprints differ.
pub fn hamming(a: u64, b: u64) -> u32 {
    (a ^ b).count_ones()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn kw(s: &str) -> Vec<String> {
        keywords(s, &VsseParams::default())
    }

    #[test]
    fn eq4_weights() {
        // Three paragraphs; "river" twice in the first and in no other: TF 2, N/N_k = 3.
        // "city" in all three: IDF = ln(1) + L = L.
        let paras = vec![kw("River city river"), kw("City hall"), kw("City park")];
        let w = tf_idf(&paras, 1.0);
        let get = |i: usize, k: &str| w[i].iter().find(|(x, _)| x == k).unwrap().1;
        assert!((get(0, "river") - 2.0 * (3f64.ln() + 1.0)).abs() < 1e-12);
        assert!((get(0, "city") - 1.0).abs() < 1e-12);
        assert!((get(1, "hall") - (3f64.ln() + 1.0)).abs() < 1e-12);
        // A one-paragraph area (the title text): every keyword weighs TF·L.
        let t = tf_idf(&[kw("Floods floods in the city")], 1.0);
        assert_eq!(
            t[0],
            vec![("floods".to_string(), 2.0), ("city".to_string(), 1.0)]
        );
    }

    #[test]
    fn keywords_drop_stop_words_and_numbers() {
        assert_eq!(
            kw("The 2024 floods in Dresden, and the Elbe."),
            vec!["floods", "dresden", "elbe"]
        );
        assert_eq!(kw("洪水的影响"), vec!["洪", "水", "影", "响"]);
    }

    #[test]
    fn simhash_is_stable_and_separates() {
        let title = tf_idf(&[kw("Elbe floods reach Dresden old town")], 1.0);
        let same = tf_idf(&[kw("Elbe floods reach Dresden old town")], 1.0);
        let other = tf_idf(
            &[kw("Subscribe newsletter privacy cookies settings login")],
            1.0,
        );
        let ft = fingerprint(&title[0], 64).unwrap();
        assert_eq!(hamming(ft, fingerprint(&same[0], 64).unwrap()), 0);
        assert!(hamming(ft, fingerprint(&other[0], 64).unwrap()) > 3);
        assert_eq!(fingerprint(&[], 64), None);
        // A single keyword's fingerprint is its hash (+w on 1 bits, −w on 0 bits).
        assert_eq!(
            fingerprint(&[("elbe".into(), 2.5)], 64),
            Some(hash64("elbe"))
        );
        assert_eq!(
            fingerprint(&[("elbe".into(), 2.5)], 16),
            Some(hash64("elbe") & 0xffff)
        );
        // The stable hash is pinned: a change would move every fingerprint.
        assert_eq!(hash64("elbe"), 0x15ab_89d8_b55b_b7f2);
        assert_ne!(hash64("elbe"), hash64("elba"));
    }
}
