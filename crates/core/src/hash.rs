//! The one stable hash of the crate: FNV-1a 64, optionally followed by the SplitMix64
//! finaliser. Both steps are fixed here, so a value is the same on every machine, platform,
//! run and Rust version (`std`'s `DefaultHasher` promises none of that). Users: VSSE's SimHash
//! keywords, the quality gate's page sample, and the file-name slugs and shards of the batch
//! runner.

/// FNV-1a 64's offset basis.
const FNV_OFFSET: u64 = 0xcbf2_9ce4_8422_2325;
/// FNV-1a 64's prime.
const FNV_PRIME: u64 = 0x0000_0100_0000_01b3;

/// FNV-1a 64 over the concatenation of `parts`. Plain FNV leaves the high bits of short
/// inputs poorly mixed; [`stable_hash64`] adds a finaliser.
#[inline]
pub fn fnv1a64(parts: &[&[u8]]) -> u64 {
    let mut h = FNV_OFFSET;
    for part in parts {
        for &b in *part {
            h ^= u64::from(b);
            h = h.wrapping_mul(FNV_PRIME);
        }
    }
    h
}

/// The SplitMix64 finaliser: every output bit depends on every input bit.
#[inline]
pub fn splitmix64_finalise(h: u64) -> u64 {
    let h = (h ^ (h >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    let h = (h ^ (h >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    h ^ (h >> 31)
}

/// FNV-1a 64 over the concatenation of `parts`, then the SplitMix64 finaliser.
#[inline]
pub fn stable_hash64(parts: &[&[u8]]) -> u64 {
    splitmix64_finalise(fnv1a64(parts))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Pinned from the three copies this module replaced (computed before the change): a
    /// change would silently move VSSE's fingerprints, the gate's sample and the batch's
    /// slugs and shards.
    #[test]
    fn values_are_pinned() {
        assert_eq!(stable_hash64(&[b"elbe"]), 0x15ab_89d8_b55b_b7f2);
        assert_eq!(stable_hash64(&[b"storm"]), 0x69a3_0025_d4f4_9393);
        assert_eq!(stable_hash64(&[]), 0xf52a_15e9_a9b5_e89b);
        assert_eq!(
            stable_hash64(&[&7u64.to_le_bytes(), b"dev-1"]),
            0x7233_88e1_aa05_f547
        );
        assert_eq!(stable_hash64(&[&0u64.to_le_bytes()]), 0x813f_0174_a236_7c13);
        assert_eq!(fnv1a64(&[b"https://example.com/a"]), 0x046a_4934_057f_51cf);
        assert_eq!(fnv1a64(&[b"elbe"]), 0x7ef2_7060_5303_1eb5);
        assert_eq!(fnv1a64(&[]), FNV_OFFSET);
    }

    #[test]
    fn parts_hash_as_their_concatenation() {
        assert_eq!(fnv1a64(&[b"el", b"", b"be"]), fnv1a64(&[b"elbe"]));
        assert_eq!(stable_hash64(&[b"el", b"be"]), stable_hash64(&[b"elbe"]));
    }
}
