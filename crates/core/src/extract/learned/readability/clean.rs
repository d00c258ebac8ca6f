//! What `prepArticle` would clean out of the article, with `_cleanConditionally`'s tests.

use super::*;

/// What `prepArticle` removes from the article: `aside`, `footer` and form controls,
/// "share" boxes under 500 characters, `h1`/`h2` with a negative class weight, and the
/// `_cleanConditionally` tests on `form, fieldset, table, ul, ol, div`.
pub(super) fn clean(
    tree: &Tree,
    removed: &[bool],
    in_article: &[bool],
    counts: &Counts,
    class_weights: &[f64],
    weigh: bool,
    clean_conditionally: bool,
) -> Vec<bool> {
    let Counts {
        chars,
        link,
        commas,
        as_p,
        virtual_p,
    } = *counts;
    let n = tree.len();
    // Bottom-up element counts and text under headings / "textish" tags.
    let mut cnt_p = vec![0usize; n];
    let mut cnt_img = vec![0usize; n];
    let mut cnt_li = vec![0usize; n];
    let mut cnt_input = vec![0usize; n];
    let mut cnt_embed = vec![0usize; n];
    let mut heading = vec![0usize; n];
    let mut textish = vec![0usize; n];
    let mut list_text = vec![0usize; n];
    let mut data_table_below = vec![false; n];
    let mut rows = vec![0usize; n];
    let mut cells_max = vec![0usize; n];
    let mut table_marks = vec![false; n]; // th, caption, thead, tfoot, col(group) below
    let mut nested_table = vec![false; n];
    let mut data_table = vec![false; n];
    for i in (0..n).rev() {
        if removed[i] {
            continue;
        }
        let nd = tree.node(i);
        if nd.is_text() {
            continue;
        }
        let tag = nd.tag.as_str();
        // Direct phrasing text of a div with block children sits in made-up paragraphs.
        if virtual_p[i] > 0 {
            textish[i] += tree.children[i]
                .iter()
                .filter(|&&c| !removed[c] && (tree.node(c).is_text() || !tree.is_block(c)))
                .map(|&c| chars[c])
                .sum::<usize>();
        }
        if tag == "table" {
            data_table[i] = !nested_table[i]
                && (table_marks[i]
                    || rows[i] >= 10
                    || cells_max[i] > 4
                    || rows[i] * cells_max[i] > 10);
            data_table[i] |= table_marks[i];
        }
        if tag == "tr" {
            let cells = tree.children[i]
                .iter()
                .filter(|&&c| matches!(tree.node(c).tag.as_str(), "td" | "th"))
                .count();
            cells_max[i] = cells_max[i].max(cells);
            rows[i] += 1;
        }
        if let Some(p) = tree.parent(i) {
            let is_p = tag == "p" || as_p[i];
            cnt_p[p] += cnt_p[i] + usize::from(is_p) + virtual_p[i];
            cnt_img[p] += cnt_img[i] + usize::from(tag == "img");
            cnt_li[p] += cnt_li[i] + usize::from(tag == "li");
            cnt_input[p] += cnt_input[i] + usize::from(tag == "input");
            cnt_embed[p] +=
                cnt_embed[i] + usize::from(matches!(tag, "object" | "embed" | "iframe"));
            let is_h = matches!(tag, "h1" | "h2" | "h3" | "h4" | "h5" | "h6");
            heading[p] += if is_h { chars[i] } else { heading[i] };
            let is_textish =
                matches!(tag, "span" | "li" | "td") || DIV_TO_P_ELEMS.contains(&tag) || as_p[i];
            textish[p] += if is_textish { chars[i] } else { textish[i] };
            list_text[p] += if matches!(tag, "ul" | "ol") {
                chars[i]
            } else {
                list_text[i]
            };
            data_table_below[p] |= data_table_below[i] || data_table[i];
            if tag != "table" {
                rows[p] += rows[i];
                cells_max[p] = cells_max[p].max(cells_max[i]);
                table_marks[p] |= table_marks[i]
                    || matches!(
                        tag,
                        "th" | "caption" | "thead" | "tfoot" | "colgroup" | "col"
                    );
                nested_table[p] |= nested_table[i];
            } else {
                nested_table[p] = true;
            }
        }
    }
    let mut cleaned = vec![false; n];
    let mut in_data_table = vec![false; n];
    let mut in_figure = vec![false; n];
    let mut in_code = vec![false; n];
    for i in 0..n {
        if let Some(p) = tree.parent(i) {
            in_data_table[i] = in_data_table[p] || data_table[p];
            in_figure[i] = in_figure[p] || tree.node(p).tag == "figure";
            in_code[i] = in_code[p] || tree.node(p).tag == "code";
            if cleaned[p] {
                cleaned[i] = true;
                continue;
            }
        }
        let nd = tree.node(i);
        if !in_article[i] || removed[i] || nd.is_text() {
            continue;
        }
        let tag = nd.tag.as_str();
        let w = if weigh { class_weights[i] } else { 0.0 };
        let class_id = format!(
            "{} {}",
            nd.class.as_deref().unwrap_or(""),
            nd.id.as_deref().unwrap_or("")
        )
        .to_lowercase();
        let drop = match tag {
            "aside" | "footer" | "object" | "embed" | "iframe" | "input" | "textarea"
            | "select" | "button" | "link" => true,
            "h1" | "h2" => w < 0.0,
            _ if class_id.contains("share") && chars[i] < CHAR_THRESHOLD => true,
            "form" | "fieldset" | "table" | "ul" | "ol" | "div"
                if clean_conditionally && !as_p[i] =>
            {
                conditionally(ConditionalInput {
                    tag,
                    chars: chars[i],
                    link: link[i],
                    commas: commas[i],
                    p: cnt_p[i],
                    img: cnt_img[i],
                    li: cnt_li[i],
                    input: cnt_input[i],
                    embed: cnt_embed[i],
                    heading: heading[i],
                    textish: textish[i],
                    list_text: list_text[i],
                    weight: w,
                    data_table: data_table[i] || in_data_table[i] || data_table_below[i],
                    in_figure: in_figure[i],
                    in_code: in_code[i],
                    text: || tree.text(i),
                })
            }
            _ => false,
        };
        cleaned[i] = drop;
    }
    cleaned
}

/// The counts `_cleanConditionally` reads for one element.
struct ConditionalInput<'a, F: Fn() -> String> {
    tag: &'a str,
    chars: usize,
    link: usize,
    commas: usize,
    p: usize,
    img: usize,
    li: usize,
    input: usize,
    embed: usize,
    heading: usize,
    textish: usize,
    list_text: usize,
    weight: f64,
    data_table: bool,
    in_figure: bool,
    in_code: bool,
    text: F,
}

/// `_cleanConditionally`'s decision for one element.
fn conditionally<F: Fn() -> String>(c: ConditionalInput<'_, F>) -> bool {
    if c.data_table || c.in_code {
        return false;
    }
    let is_list =
        matches!(c.tag, "ul" | "ol") || (c.chars > 0 && c.list_text as f64 / c.chars as f64 > 0.9);
    if c.weight < 0.0 {
        return true;
    }
    if c.commas >= 10 {
        return false;
    }
    if c.chars < 20 {
        let t = (c.text)().to_lowercase();
        let t = t.trim().trim_end_matches("...").trim_end_matches('…');
        if matches!(
            t,
            "ad" | "advertising"
                | "advertisement"
                | "pub"
                | "publicité"
                | "werb"
                | "werbung"
                | "广告"
                | "реклама"
                | "anuncio"
                | "loading"
                | "正在加载"
                | "загрузка"
                | "chargement"
                | "cargando"
        ) {
            return true;
        }
    }
    let len = c.chars as f64;
    let ld = c.link as f64 / len.max(1.0);
    let heading_density = if c.chars == 0 {
        0.0
    } else {
        c.heading as f64 / len
    };
    let text_density = if c.chars == 0 {
        0.0
    } else {
        c.textish as f64 / len
    };
    let li = c.li as f64 - 100.0;
    let p = c.p as f64;
    let img = c.img as f64;
    let remove = (!c.in_figure && img > 1.0 && p / img < 0.5)
        || (!is_list && li > p)
        || (c.input as f64 > (p / 3.0).floor())
        || (!is_list
            && !c.in_figure
            && heading_density < 0.9
            && c.chars < 25
            && (c.img == 0 || c.img > 2)
            && ld > 0.0)
        || (!is_list && c.weight < 25.0 && ld > 0.2)
        || (c.weight >= 25.0 && ld > 0.5)
        || ((c.embed == 1 && c.chars < 75) || c.embed > 1)
        || (c.img == 0 && text_density == 0.0);
    if is_list && remove && c.img > 0 && c.img == c.li {
        return false;
    }
    remove
}
