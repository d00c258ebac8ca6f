//! The feature schema of `learned`: the names of the pass-1 and pass-2 features in row order
//! (the model file stores them and refuses a mismatch). A leaf: it names columns and imports
//! nothing from the rest of `extract`.

macro_rules! names {
    ($($n:expr),* $(,)?) => { &[$($n),*] };
}

/// The column of the pass-1 feature `name` in a unit's row (`PageFeatures::row`). Panics on a
/// name that is not in [`FEATURES`] (a programming error, not an input one).
pub fn feature_index(name: &str) -> usize {
    FEATURES
        .iter()
        .position(|f| *f == name)
        .unwrap_or_else(|| panic!("{name:?} is not a pass-1 feature"))
}

/// Names of the pass-1 features, in row order (the model file stores them and refuses a
/// mismatch): the unit's own (`features`), then [`CONTEXT_FEATURES`].
pub const FEATURES: &[&str] =
    &concat::<{ OWN_FEATURES.len() + CONTEXT_FEATURES.len() }>(OWN_FEATURES, &CONTEXT_FEATURES);

/// The pass-1 features `features` computes from the unit, its ancestors and neighbours.
const OWN_FEATURES: &[&str] = names![
    // text
    "ln_chars",
    "ln_words",
    "link_ratio",
    "punct_ratio",
    "sentence_ends",
    "words_per_sentence",
    "stopword_share",
    "ends_with_stop",
    "digit_ratio",
    "upper_ratio",
    "starts_upper",
    "mean_word_len",
    "separator_ratio",
    "copyright",
    "ln_text_nodes",
    "title_overlap",
    // DOM
    "depth",
    "depth_rel",
    "tag_p",
    "tag_div",
    "tag_li",
    "tag_td",
    "tag_th",
    "tag_h1",
    "tag_h2",
    "tag_h3",
    "tag_h4",
    "tag_dd",
    "tag_dt",
    "tag_pre",
    "tag_blockquote",
    "tag_figcaption",
    "tag_span",
    "tag_section",
    "tag_h5_h6",
    "in_a",
    "in_nav",
    "in_header",
    "in_footer",
    "in_aside",
    "in_article",
    "in_main",
    "in_form",
    "in_li",
    "in_table",
    "in_h",
    "in_figure",
    "in_blockquote",
    "in_button",
    "in_label",
    "in_time",
    "in_address",
    "in_select",
    "own_comment",
    "own_nav",
    "own_footer",
    "own_share",
    "own_related",
    "own_cookie",
    "own_newsletter",
    "own_sidebar",
    "own_breadcrumb",
    "own_byline",
    "own_meta",
    "own_caption",
    "own_tags",
    "own_ad",
    "own_content",
    "own_header",
    "own_title",
    "own_hidden",
    "own_list",
    "own_product",
    "anc_comment",
    "anc_nav",
    "anc_footer",
    "anc_share",
    "anc_related",
    "anc_cookie",
    "anc_newsletter",
    "anc_sidebar",
    "anc_breadcrumb",
    "anc_byline",
    "anc_meta",
    "anc_caption",
    "anc_tags",
    "anc_ad",
    "anc_content",
    "anc_header",
    "anc_title",
    "anc_hidden",
    "anc_list",
    "anc_product",
    "same_tag_siblings",
    "ln_siblings",
    // geometry
    "x_rel",
    "right_rel",
    "w_rel",
    "y_fold",
    "y_page",
    "h_rel",
    "center_offset",
    "above_fold",
    "area_rel",
    "zero_area",
    "rendered",
    "fixed",
    "sticky",
    "absolute",
    "transparent",
    "font_rel",
    "bold",
    "main_overlap",
    "in_main_node",
    "main_vertical",
    // paper scores
    "ln_td",
    "ln_ctd",
    "htd",
    "vi",
    "ln_td_parent",
    "ln_ctd_parent",
    "htd_parent",
    "ln_ctd_grand",
    "htd_grand",
    "density_sum_rel",
    "density_sum_rel_parent",
    "above_threshold",
    "above_threshold_parent",
    "htd_kept",
    "wang_kept",
    "vsse_kept",
    "crunch_kept",
    "ln_vvtc",
    "ln_vvtc_parent",
    // neighbourhood
    "position",
    "chars_before",
    "ln_chars_prev",
    "ln_chars_next",
    "link_ratio_prev",
    "link_ratio_next",
    "ln_chars_prev2",
    "ln_chars_next2",
    "parent_share",
    "grand_share",
    "parent_link_ratio",
    "grand_link_ratio",
    "ln_parent_units",
    "after_h1",
    "units_from_h1",
    "page_ln_units",
    "page_link_ratio",
    // Readability.js's article detection (readability.rs)
    "rd_in_top",
    "rd_in_article",
    "rd_output",
    "rd_removed",
    "rd_cleaned",
    "rd_nearest_rel",
    "rd_parent_rel",
    "rd_class_weight_path",
    "rd_top_share",
    "rd_article_share",
    "rd_attempt",
];

/// Names of the context features, in the order `context` writes them: the unit compared with
/// the rest of its page, repeated records, text patterns. They close [`FEATURES`].
pub const CONTEXT_FEATURES: [&str; 30] = [
    // page-relative (`context::relative`)
    "chars_rank",
    "chars_share",
    "chars_z",
    "link_ratio_z",
    "font_rank",
    "width_rel_widest",
    "x_rel_text",
    // repetition (`context::records`)
    "rep_ln_same",
    "rep_level",
    "in_record",
    "record_share",
    "rep_ln_same_parent_path",
    "page_record_share",
    // the records' layout: cards in a row, the page's main repeated group, its width
    "grid_cols",
    "group_largest",
    "group_w_rel",
    // patterns (`context::patterns`)
    "has_price",
    "has_rating",
    "has_date",
    "has_time_ago",
    "forum_words",
    "short_label",
    // short edge lines (`context::phrases`, `EDGE_PHRASES`)
    "edge_related",
    "edge_credit",
    "edge_role",
    "edge_footer",
    // shop chrome (`SHOP_PHRASES`) and machine ids (product pages: buy box, shipping,
    // reviews, carousels)
    "edge_shop",
    "under_shop_heading",
    "under_related_heading",
    "machine_tokens",
];

/// `a` then `b`, as one array of `N` names (`N` must be the sum of their lengths).
const fn concat<const N: usize>(a: &[&'static str], b: &[&'static str]) -> [&'static str; N] {
    assert!(a.len() + b.len() == N, "N is the sum of the lengths");
    let mut out = [""; N];
    let mut i = 0;
    while i < N {
        out[i] = if i < a.len() { a[i] } else { b[i - a.len()] };
        i += 1;
    }
    out
}

/// Names of the pass-2 (smoothing) features: the pass-1 probabilities around the unit, then
/// a few pass-1 features.
pub const PASS2_FEATURES: &[&str] = names![
    "p1",
    "p1_prev1",
    "p1_next1",
    "p1_prev2",
    "p1_next2",
    "p1_prev3",
    "p1_next3",
    "p1_window5",
    "p1_window15",
    "p1_parent",
    "p1_grand",
    "p1_great",
    "p1_page_max",
    "p1_page_kept_share",
    "p1_rank",
    "p1_before_max",
    "p1_after_max",
    "ln_chars",
    "link_ratio",
    "tag_h1",
    "tag_h2",
    "in_h",
    "fixed",
    "sticky",
    "own_cookie",
    "anc_cookie",
    "anc_newsletter",
    "anc_comment",
    "title_overlap",
    "position",
    "rd_output",
    "rd_nearest_rel",
    "in_record",
];

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn feature_index_finds_the_column() {
        assert_eq!(feature_index("ln_chars"), 0);
        assert_eq!(FEATURES[feature_index("in_record")], "in_record");
        assert!(PASS2_FEATURES[17..].iter().all(|f| FEATURES.contains(f)));
    }

    /// The row order: the context features close the list, and no name is there twice. (The
    /// shipped model stores every name in order: `model`'s tests load it.)
    #[test]
    fn context_names_close_the_feature_list() {
        let (n, m) = (FEATURES.len(), CONTEXT_FEATURES.len());
        assert_eq!(&FEATURES[..n - m], OWN_FEATURES);
        assert_eq!(&FEATURES[n - m..], &CONTEXT_FEATURES[..]);
        let mut seen = std::collections::HashSet::new();
        assert!(
            FEATURES.iter().all(|f| seen.insert(*f)),
            "feature names are unique"
        );
    }

    #[test]
    #[should_panic(expected = "is not a pass-1 feature")]
    fn feature_index_panics_on_an_unknown_name() {
        feature_index("p1");
    }
}
