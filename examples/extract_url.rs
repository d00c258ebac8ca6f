//! Extract one page with the library's front door and print its Markdown.
//!
//! ```sh
//! cargo run --example extract_url -- https://example.com/article
//! cargo run --example extract_url -- fixtures/demo-news/page.html --offline
//! ```
use sightline::{Extractor, Options};

#[tokio::main]
async fn main() -> Result<(), sightline::Error> {
    let mut args = std::env::args().skip(1);
    let source = args
        .next()
        .unwrap_or_else(|| "fixtures/demo-news/page.html".into());
    let offline = args.any(|a| a == "--offline");
    let extractor = Extractor::new(Options::default().offline(offline)).await?;
    let page = extractor.extract(source.as_str()).await;
    extractor.shutdown().await;
    let page = page?;
    println!("# {}\n\n{}", page.title(), page.markdown());
    Ok(())
}
