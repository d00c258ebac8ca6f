//! The vendor markers walls are recognised by: one row per marker, where it is looked for,
//! the kind and vendor it names, and whether it is certain on its own.
//!
//! A marker that is not `certain` counts only on a page that leaves little content (a short
//! visible text, see [`super::WallParams::small_text`]) or that answered with an HTTP error:
//! an article that quotes "Checking your browser" or embeds a reCAPTCHA in its comment form is
//! not a wall. Patterns are lower-case substrings (matched against lower-cased text) except
//! where a row says otherwise.
//!
//! Sources (what each vendor's wall page carries), checked against the vendors' own pages:
//! - Cloudflare: `cf-mitigated: challenge` on challenge responses
//!   (developers.cloudflare.com/cloudflare-challenges/challenge-types/challenge-pages/detect-response/),
//!   the challenge page's `window._cf_chl_opt` and `/cdn-cgi/challenge-platform/h/…/orchestrate/`
//!   script, its title "Just a moment...", the block page's "Sorry, you have been blocked"
//!   and "Cloudflare Ray ID", Turnstile's `challenges.cloudflare.com` frame.
//! - DataDome: the captcha and interstitial frames of `captcha-delivery.com`, the `datadome`
//!   cookie and `x-datadome` header (docs.datadome.co).
//! - HUMAN (PerimeterX): `window._pxAppId`, the `#px-captcha` box, "Press & Hold", the block
//!   page "Access to this page has been denied".
//! - Imperva (Incapsula): the `/_Incapsula_Resource` frame, "Incapsula incident ID", the
//!   `incap_ses_*` / `visid_incap_*` cookies, `x-iinfo`; its Advanced Bot Protection (once
//!   Distil Networks) interstitial "Pardon Our Interruption" ("something about your browser
//!   made us think you were a bot").
//! - Akamai: `server: AkamaiGHost`, the block page's "You don't have permission to access" and
//!   "Reference #", Bot Manager's `/_sec/cp_challenge/` and `sec-if-cpt-container`, the
//!   `_abck` / `bm_sz` / `ak_bmsc` cookies.
//! - AWS WAF: `x-amzn-waf-action`, `AwsWafIntegration`, `*.token.awswaf.com` and
//!   `*.captcha.awswaf.com` scripts (docs.aws.amazon.com/waf/latest/developerguide/).
//! - Kasada: `x-kpsdk-*` headers and `window.KPSDK` on its 429 challenge.
//! - Sucuri: `x-sucuri-id` / `x-sucuri-block`, "Sucuri WebSite Firewall - Access Denied".
//! - Vercel: `x-vercel-mitigated: challenge`, "Vercel Security Checkpoint".
//! - DDoS-Guard: `server: ddos-guard`, its `/.well-known/ddos-guard/` scripts.
//! - F5 BIG-IP ASM: "The requested URL was rejected. Please consult with your administrator."
//! - Wordfence: "Your access to this site has been limited by the site owner".
//! - Google: "Our systems have detected unusual traffic from your computer network" (`/sorry/`).
//! - Amazon: "Enter the characters you see below" and "make sure you're not a robot".
//! - Captcha widgets: reCAPTCHA (`google.com/recaptcha`, `recaptcha.net`), hCaptcha
//!   (`hcaptcha.com`), Arkose Labs (`arkoselabs.com`, `funcaptcha`), GeeTest (`geetest`).
//! - Consent platforms (the dialogs' root elements): OneTrust, Didomi, Sourcepoint,
//!   Quantcast Choice, Cookiebot, TrustArc, Usercentrics, consentmanager, Google Funding
//!   Choices, Yahoo's and Google's consent interstitials (`consent.yahoo.com`,
//!   `consent.google.com`).

use super::WallKind;

/// Where a marker is looked for.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Where {
    /// A response header, `name` and a value substring ("" for any value).
    Header(&'static str),
    /// A cookie name the response sets (prefix).
    Cookie,
    /// `document.title`.
    Title,
    /// The page's visible text.
    Text,
    /// A `<script src>`.
    Script,
    /// A frame's or image's `src`.
    Frame,
    /// A global the page's scripts defined (exact name).
    Global,
    /// An element's id or class (a word of it, as a substring).
    IdClass,
    /// The page's URL after redirects.
    Url,
}

/// One marker.
#[derive(Debug, Clone, Copy)]
pub struct Marker {
    pub at: Where,
    pub pattern: &'static str,
    /// The wall it names, or None for a marker that only names the vendor of a wall found
    /// otherwise (a `server` header, a vendor's cookie).
    pub kind: Option<WallKind>,
    pub vendor: Option<&'static str>,
    /// Recognised on its own, whatever the page holds.
    pub certain: bool,
}

const fn m(
    at: Where,
    pattern: &'static str,
    kind: Option<WallKind>,
    vendor: Option<&'static str>,
    certain: bool,
) -> Marker {
    Marker {
        at,
        pattern,
        kind,
        vendor,
        certain,
    }
}

use WallKind::*;
use Where::*;

/// Every marker, strongest first: the first that matches gives the kind; the vendor is the
/// first vendor any matching marker names.
#[rustfmt::skip]
pub const MARKERS: &[Marker] = &[
    // Certain: a vendor says so in its answer, or a global only its wall page defines.
    m(Header("cf-mitigated"), "challenge", Some(Challenge), Some("cloudflare"), true),
    m(Header("x-vercel-mitigated"), "challenge", Some(Challenge), Some("vercel"), true),
    m(Header("x-amzn-waf-action"), "captcha", Some(Captcha), Some("aws-waf"), true),
    m(Header("x-amzn-waf-action"), "challenge", Some(Challenge), Some("aws-waf"), true),
    m(Header("x-sucuri-block"), "", Some(AccessDenied), Some("sucuri"), true),
    m(Global, "_cf_chl_opt", Some(Challenge), Some("cloudflare"), true),
    m(Script, "/cdn-cgi/challenge-platform/h/", Some(Challenge), Some("cloudflare"), false),
    m(Frame, "captcha-delivery.com/interstitial", Some(Challenge), Some("datadome"), false),
    m(Frame, "captcha-delivery.com", Some(Captcha), Some("datadome"), false),
    m(Script, "captcha-delivery.com", Some(Captcha), Some("datadome"), false),
    m(Frame, "/_incapsula_resource", Some(Challenge), Some("imperva"), false),
    m(Script, "/_sec/cp_challenge/", Some(Challenge), Some("akamai"), false),
    m(IdClass, "sec-if-cpt-container", Some(Challenge), Some("akamai"), false),
    m(Header("x-kpsdk-ct"), "", Some(Challenge), Some("kasada"), false),
    m(Global, "KPSDK", None, Some("kasada"), false),
    m(Script, "captcha.awswaf.com", Some(Captcha), Some("aws-waf"), false),
    m(Script, "token.awswaf.com", None, Some("aws-waf"), false),
    m(Global, "AwsWafIntegration", None, Some("aws-waf"), false),
    m(Script, "/.well-known/ddos-guard/", Some(Challenge), Some("ddos-guard"), false),
    m(IdClass, "px-captcha", Some(Captcha), Some("perimeterx"), false),
    m(Global, "_pxAppId", None, Some("perimeterx"), false),
    // The wall pages' own words (a short page, or an HTTP error).
    m(Title, "just a moment...", Some(Challenge), Some("cloudflare"), false),
    m(Title, "attention required! | cloudflare", Some(AccessDenied), Some("cloudflare"), false),
    m(Title, "vercel security checkpoint", Some(Challenge), Some("vercel"), false),
    m(Title, "ddos-guard", Some(Challenge), Some("ddos-guard"), false),
    m(Title, "pardon our interruption", Some(Challenge), Some("imperva"), false),
    m(Title, "incapsula incident id", Some(AccessDenied), Some("imperva"), false),
    m(Title, "are you a robot", Some(Captcha), None, false),
    m(Text, "checking your browser before accessing", Some(Challenge), None, false),
    m(Text, "enable javascript and cookies to continue", Some(Challenge), Some("cloudflare"), false),
    m(Text, "this process is automatic. your browser will redirect", Some(Challenge), Some("cloudflare"), false),
    m(Text, "made us think you were a bot", Some(Challenge), Some("imperva"), false),
    m(Text, "while we verify your browser", Some(Challenge), None, false),
    m(Text, "ddos protection by", Some(Challenge), None, false),
    m(Text, "checking if the site connection is secure", Some(Challenge), Some("cloudflare"), false),
    m(Text, "needs to review the security of your connection", Some(Challenge), Some("cloudflare"), false),
    m(Text, "verifying you are human", Some(Challenge), None, false),
    m(Text, "verify you are human", Some(Captcha), None, false),
    m(Text, "please verify you are a human", Some(Captcha), None, false),
    m(Text, "press & hold", Some(Captcha), Some("perimeterx"), false),
    m(Text, "unusual traffic from your computer network", Some(Captcha), Some("google"), false),
    m(Text, "enter the characters you see below", Some(Captcha), Some("amazon"), false),
    m(Text, "make sure you're not a robot", Some(Captcha), None, false),
    m(Text, "confirm you are not a robot", Some(Captcha), None, false),
    m(Text, "please enable js and disable any ad blocker", Some(Captcha), Some("datadome"), false),
    m(Text, "complete the security check to access", Some(Captcha), None, false),
    m(Text, "sorry, you have been blocked", Some(AccessDenied), Some("cloudflare"), false),
    m(Text, "used cloudflare to restrict access", Some(AccessDenied), Some("cloudflare"), false),
    m(Text, "access to this page has been denied", Some(AccessDenied), Some("perimeterx"), false),
    m(Text, "incapsula incident id", Some(AccessDenied), Some("imperva"), false),
    m(Text, "request unsuccessful. incapsula", Some(AccessDenied), Some("imperva"), false),
    m(Text, "sucuri website firewall", Some(AccessDenied), Some("sucuri"), false),
    m(Text, "the requested url was rejected. please consult with your administrator", Some(AccessDenied), Some("f5"), false),
    m(Text, "your access to this site has been limited by the site owner", Some(AccessDenied), Some("wordfence"), false),
    m(Text, "you don't have permission to access", Some(AccessDenied), None, false),
    m(Text, "you have been blocked by network security", Some(AccessDenied), None, false),
    m(Text, "request blocked", Some(AccessDenied), None, false),
    m(Text, "your access has been blocked", Some(AccessDenied), None, false),
    m(Text, "too many requests", Some(RateLimited), None, false),
    m(Text, "rate limit exceeded", Some(RateLimited), None, false),
    m(Text, "you have sent too many requests", Some(RateLimited), None, false),
    // Consent interstitials that are whole pages.
    m(Url, "://consent.yahoo.com/", Some(Consent), Some("yahoo"), true),
    m(Url, "://consent.google.", Some(Consent), Some("google"), true),
    m(Url, "://consent.youtube.com/", Some(Consent), Some("google"), true),
    // Captcha widgets name the vendor of a captcha the layout found (a short page whose
    // content is a small centred box holding the widget): a contact form's reCAPTCHA on a
    // short page is no wall.
    m(Frame, "challenges.cloudflare.com", None, Some("cloudflare"), false),
    m(Script, "challenges.cloudflare.com/turnstile", None, Some("cloudflare"), false),
    m(Frame, "hcaptcha.com", None, Some("hcaptcha"), false),
    m(Frame, "google.com/recaptcha", None, Some("recaptcha"), false),
    m(Frame, "recaptcha.net/recaptcha", None, Some("recaptcha"), false),
    m(Frame, "arkoselabs.com", None, Some("arkose"), false),
    m(Frame, "funcaptcha", None, Some("arkose"), false),
    m(Script, "geetest", None, Some("geetest"), false),
    m(IdClass, "g-recaptcha", None, Some("recaptcha"), false),
    m(IdClass, "h-captcha", None, Some("hcaptcha"), false),
    m(IdClass, "cf-turnstile", None, Some("cloudflare"), false),
    // Vendor only: who stands in front of a wall found otherwise. The sensor scripts of HUMAN,
    // Kasada and AWS WAF run on every page a site protects, not only on its wall.
    m(Header("server"), "cloudflare", None, Some("cloudflare"), false),
    m(Header("server"), "akamaighost", None, Some("akamai"), false),
    m(Header("server"), "ddos-guard", None, Some("ddos-guard"), false),
    m(Header("server"), "sucuri", None, Some("sucuri"), false),
    m(Header("x-sucuri-id"), "", None, Some("sucuri"), false),
    m(Header("x-datadome"), "", None, Some("datadome"), false),
    m(Header("x-iinfo"), "", None, Some("imperva"), false),
    m(Header("cf-ray"), "", None, Some("cloudflare"), false),
    m(Cookie, "datadome", None, Some("datadome"), false),
    m(Cookie, "_px", None, Some("perimeterx"), false),
    m(Cookie, "incap_ses_", None, Some("imperva"), false),
    m(Cookie, "visid_incap_", None, Some("imperva"), false),
    m(Cookie, "_abck", None, Some("akamai"), false),
    m(Cookie, "bm_sz", None, Some("akamai"), false),
    m(Cookie, "aws-waf-token", None, Some("aws-waf"), false),
    m(Cookie, "__cf_bm", None, Some("cloudflare"), false),
];

/// Visible phrases (or title words) of a login wall (lower case): a short page with a
/// password field is a login wall only when it says the content needs a login. A sidebar's
/// login form on a short "page not found" is not one.
pub const LOGIN_PHRASES: &[&str] = &[
    "sign in to continue",
    "log in to continue",
    "login to continue",
    "sign in to view",
    "log in to view",
    "sign in to see",
    "log in to see",
    "sign in to read",
    "log in to read",
    "please log in",
    "please login",
    "please sign in",
    "you must be logged in",
    "you need to log in",
    "you need to be logged in",
    "must be signed in",
    "login required",
    "sign in required",
    "members only",
    "bitte melden sie sich an",
    "connectez-vous pour",
    "inicia sesión para",
    "请登录",
    "ログインしてください",
];

/// Visible phrases of a subscription wall (lower case).
pub const PAYWALL_PHRASES: &[&str] = &[
    "subscribe to continue reading",
    "subscribe to keep reading",
    "to continue reading, subscribe",
    "this article is for subscribers",
    "this content is for subscribers",
    "this article is reserved for subscribers",
    "already a subscriber? sign in",
    "already a subscriber? log in",
    "already a subscriber? login",
    "become a subscriber to read",
    "subscribe now to read",
    "create a free account to continue reading",
    "register to continue reading",
];

/// Words of the id or class of a subscription wall's box.
pub const PAYWALL_CLASSES: &[&str] = &["paywall", "regwall", "tp-modal", "piano-offer"];

/// The page globals a consent platform defines (own properties of `window`), and the platform
/// each names. `js/snapshot.js` reads each of them into the snapshot's `signals.globals`.
pub const CONSENT_GLOBALS: &[(&str, &str)] = &[
    ("OneTrust", "onetrust"),
    ("Optanon", "onetrust"),
    ("Didomi", "didomi"),
    ("_sp_", "sourcepoint"),
    ("googlefc", "google"),
    ("__tcfapi", "tcf"),
    ("__cmp", "tcf"),
];

/// The root elements of consent dialogs (id or class, a substring, lower case).
pub const CONSENT_ROOTS: &[(&str, &str)] = &[
    ("onetrust-banner-sdk", "onetrust"),
    ("onetrust-consent-sdk", "onetrust"),
    ("didomi-popup", "didomi"),
    ("didomi-notice", "didomi"),
    ("sp_message_container", "sourcepoint"),
    ("qc-cmp2-container", "quantcast"),
    ("cybotcookiebotdialog", "cookiebot"),
    ("truste-consent", "trustarc"),
    ("usercentrics-root", "usercentrics"),
    ("cmpbox", "consentmanager"),
    ("fc-consent-root", "google"),
];

/// Visible phrases of a soft error page a script put in place of the article, in the bench's
/// languages (lower case).
pub const SOFT_ERROR_PHRASES: &[&str] = &[
    "page not found",
    "404 not found",
    "something went wrong",
    "this page doesn't exist",
    "this page does not exist",
    "the page you requested could not be found",
    "seite nicht gefunden",
    "page introuvable",
    "página no encontrada",
    "pagina non trovata",
    "страница не найдена",
    "页面不存在",
    "您所访问的页面不存在",
    "页面找不到",
    "ページが見つかりません",
    // More of the wordings error pages use, and more of the bench's languages.
    "page cannot be found",
    "page can't be found",
    "page could not be found",
    "we couldn't find that page",
    "we can't find that page",
    "the page you are looking for",
    "an error occurred while loading",
    "seite wurde nicht gefunden",
    "seite existiert nicht",
    "página não encontrada",
    "pagina niet gevonden",
    "strona nie została znaleziona",
    "nie znaleziono strony",
    "stránka nebyla nalezena",
    "sidan kunde inte hittas",
    "siden blev ikke fundet",
    "sayfa bulunamadı",
    "halaman tidak ditemukan",
    "không tìm thấy trang",
    "페이지를 찾을 수 없습니다",
    "お探しのページは見つかりませんでした",
    "頁面不存在",
    "找不到頁面",
    "找不到该页面",
    "الصفحة غير موجودة",
    "страница не существует",
];
