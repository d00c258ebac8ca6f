//! Phrase lists of the lines around an article that are not part of it, in the benchmark's
//! languages: short edge lines (related headings, photo credits, bylines with roles, post
//! footers; [`EDGE_PHRASES`]), a shop's chrome ([`SHOP_PHRASES`]), and the heading a unit is
//! under ([`HeadingScope`]).

/// The kinds of short edge lines next to an article that are not part of it, in the languages
/// of the benchmark (English, German, French, Spanish, Polish, Italian, Dutch, Portuguese):
/// headings of related sections, photo credits, bylines with roles, and post footers with
/// share or rating prompts. Each list is matched on the lower-cased text of a unit of at most
/// [`EDGE_MAX_WORDS`] words.
pub const EDGE_PHRASES: [(&str, &[&str]); 4] = [
    (
        "related",
        &[
            "related",
            "read more",
            "read next",
            "more from",
            "more on",
            "more stories",
            "you may also",
            "you might also",
            "recommended",
            "most popular",
            "most read",
            "trending",
            "mehr zu",
            "mehr zum",
            "weitere artikel",
            "meistgelesen",
            "meistdiskutiert",
            "auch interessant",
            "das könnte",
            "lesen sie auch",
            "dans la même rubrique",
            "à lire aussi",
            "lire aussi",
            "sur le même sujet",
            "les plus lus",
            "te puede interesar",
            "más noticias",
            "lo más leído",
            "czytaj także",
            "czytaj też",
            "zobacz także",
            "najczęściej czytane",
            "leggi anche",
            "potrebbe interessarti",
            "lees ook",
            "leia também",
        ],
    ),
    (
        "credit",
        &[
            "getty images",
            "photo:",
            "photo by",
            "photograph:",
            "image:",
            "image credit",
            "credit:",
            "foto:",
            "bild:",
            "fotó:",
            "zdjęcie:",
            "crédit",
            "reuters/",
            "ap photo",
            "afp",
            "shutterstock",
            "istock",
            "via instagram",
            "©",
        ],
    ),
    (
        "role",
        &[
            "staff writer",
            "staff reporter",
            "reporter",
            "correspondent",
            "contributor",
            "editor",
            "redakteur",
            "redaktion",
            "journaliste",
            "rédaction",
            "redakcja",
            "redattore",
            "redactor",
            "follow on",
            "follow him",
            "follow her",
        ],
    ),
    (
        "footer",
        &[
            "this entry was posted",
            "posted in",
            "filed under",
            "tagged",
            "tags:",
            "share this",
            "share on",
            "share:",
            "teilen",
            "partager",
            "compartir",
            "udostępnij",
            "condividi",
            "was this article helpful",
            "war der artikel",
            "war dieser artikel",
            "cet article vous a",
            "rate this",
            "bewerten",
            "print this",
            "report an error",
            "fehler melden",
            "signaler une erreur",
        ],
    ),
];

/// The index of the "related" kind in [`EDGE_PHRASES`].
const EDGE_RELATED: usize = 0;

/// The longest unit (in words) [`EDGE_PHRASES`] are looked for in.
pub const EDGE_MAX_WORDS: usize = 12;

/// Has `text` more than [`EDGE_MAX_WORDS`] words? (Reads no further than that.)
fn is_long(text: &str) -> bool {
    text.split_whitespace().nth(EDGE_MAX_WORDS).is_some()
}

/// For each kind of [`EDGE_PHRASES`], then for [`SHOP_PHRASES`], 1 when `text` is short and
/// holds one of its phrases (the features `edge_related` … `edge_footer`, `edge_shop`).
pub fn edge_kinds(text: &str) -> [f64; 5] {
    let mut out = [0.0; 5];
    if is_long(text) {
        return out;
    }
    let lower = text.to_lowercase();
    for (k, (_, phrases)) in EDGE_PHRASES.iter().enumerate() {
        if phrases.iter().any(|p| lower.contains(p)) {
            out[k] = 1.0;
        }
    }
    if SHOP_PHRASES.iter().any(|p| lower.contains(p)) {
        out[4] = 1.0;
    }
    out
}

/// Phrases of a shop's chrome around a product's description, in the benchmark's languages:
/// the buy box, stock, sizes, shipping and returns, reviews and the "also viewed" carousels.
/// Matched like [`EDGE_PHRASES`]: on short units ([`edge_kinds`]) and on the heading a unit is
/// under ([`HeadingScope`]).
pub const SHOP_PHRASES: &[&str] = &[
    "add to cart",
    "add to bag",
    "add to basket",
    "add to wish",
    "add to list",
    "buy now",
    "in stock",
    "out of stock",
    "select a size",
    "select size",
    "size guide",
    "size chart",
    "quantity",
    "free shipping",
    "free delivery",
    "shipping",
    "delivery",
    "returns",
    "checkout",
    "sold by",
    "seller",
    "customers also",
    "also viewed",
    "also bought",
    "also like",
    "recently viewed",
    "frequently bought",
    "similar items",
    "similar products",
    "sponsored",
    "notify me",
    "write a review",
    "reviews",
    "ratings",
    "questions & answers",
    "warenkorb",
    "lieferung",
    "versand",
    "rückgabe",
    "auf lager",
    "bewertungen",
    "panier",
    "livraison",
    "retours",
    "en stock",
    "avis clients",
    "carrito",
    "envío",
    "devoluciones",
    "opiniones",
    "koszyk",
    "dostawa",
    "opinie",
    "carrello",
    "spedizione",
    "recensioni",
    "winkelwagen",
    "verzending",
    "carrinho",
    "frete",
];

/// The heading a unit is under, in reading order: a heading (`h1`–`h6`) of level L holds
/// until the next heading of level L or above; a sub-heading inherits its section's flags.
/// Each flag says the heading (or one above it) holds a [`SHOP_PHRASES`] or an
/// [`EDGE_PHRASES`] "related" phrase.
#[derive(Default)]
pub(super) struct HeadingScope {
    /// (level, shop, related) of the open headings, outermost first.
    open: Vec<(u8, bool, bool)>,
}

impl HeadingScope {
    /// Read one unit (`level`: the heading it is in, if any); returns its (shop, related)
    /// flags.
    pub(super) fn read(&mut self, level: Option<u8>, text: &str) -> (bool, bool) {
        if let Some(level) = level {
            while self.open.last().is_some_and(|o| o.0 >= level) {
                self.open.pop();
            }
            let (outer_shop, outer_related) = self.flags();
            let lower = text.to_lowercase();
            let shop = SHOP_PHRASES.iter().any(|p| lower.contains(p));
            let related = EDGE_PHRASES[EDGE_RELATED]
                .1
                .iter()
                .any(|p| lower.contains(p));
            self.open
                .push((level, shop || outer_shop, related || outer_related));
        }
        self.flags()
    }

    fn flags(&self) -> (bool, bool) {
        self.open.last().map_or((false, false), |o| (o.1, o.2))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn edge_lines_and_shop_chrome() {
        for (text, kind) in [
            ("Related Coverage", 0),
            ("Mehr zu Klima und Konsum", 0),
            ("Dans la même rubrique", 0),
            ("Foto: Instagram", 1),
            ("Getty Images", 1),
            ("Jane Doe, Staff Writer", 2),
            ("This entry was posted in News.", 3),
            ("War der Artikel nützlich?", 3),
        ] {
            let mut want = [0.0; 5];
            want[kind] = 1.0;
            assert_eq!(edge_kinds(text), want, "{text}");
        }
        assert_eq!(EDGE_PHRASES[EDGE_RELATED].0, "related");
        assert_eq!(edge_kinds("Add to bag")[4], 1.0);
        assert_eq!(edge_kinds("Delivery & Returns")[4], 1.0);
        assert_eq!(edge_kinds("In den Warenkorb")[4], 1.0);
        assert_eq!(edge_kinds("Arrival T-Shirt"), [0.0; 5]);
        // A paragraph that mentions a phrase is not an edge line.
        let long = "The reporter said the related findings were shared on Monday with every member of the board.";
        assert_eq!(edge_kinds(long), [0.0; 5]);
    }

    #[test]
    fn a_heading_scopes_the_units_under_it() {
        let mut s = HeadingScope::default();
        assert_eq!(s.read(None, "Intro"), (false, false));
        assert_eq!(s.read(Some(2), "Description"), (false, false));
        assert_eq!(s.read(None, "Soft wool."), (false, false));
        assert_eq!(s.read(Some(2), "Delivery & Returns"), (true, false));
        assert_eq!(s.read(None, "Standard shipping is free."), (true, false));
        // A sub-heading keeps its section's flag.
        assert_eq!(s.read(Some(3), "Express"), (true, false));
        assert_eq!(s.read(None, "Three days."), (true, false));
        // A heading of the same level ends the section.
        assert_eq!(s.read(Some(2), "Specifications"), (false, false));
        assert_eq!(s.read(Some(2), "More stories"), (false, true));
        // A carousel's heading can be both.
        assert_eq!(s.read(Some(2), "You may also like"), (true, true));
        assert_eq!(s.read(Some(1), "Another title"), (false, false));
    }
}
