//! A tiny HTTP/1.1 server on 127.0.0.1 for pages that have no URL of their own: HTML read from
//! stdin, benchmark pages served with their charset in `Content-Type`, and test fixtures served
//! from a directory. Loopback only; one request per connection.

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;

use parking_lot::Mutex;
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpListener;

#[derive(Default)]
struct Shared {
    entries: HashMap<String, (Vec<u8>, String)>,
    root: Option<PathBuf>,
}

/// A running loopback server. Dropping it stops accepting connections.
pub struct Server {
    port: u16,
    shared: Arc<Mutex<Shared>>,
    task: tokio::task::JoinHandle<()>,
    /// The number of the next page [`Server::publish`] serves.
    next_page: AtomicUsize,
}

impl Drop for Server {
    fn drop(&mut self) {
        self.task.abort();
    }
}

fn content_type(path: &Path) -> &'static str {
    match path.extension().and_then(|e| e.to_str()).unwrap_or("") {
        "html" | "htm" => "text/html",
        "css" => "text/css",
        "js" => "text/javascript",
        "json" => "application/json",
        "png" => "image/png",
        "jpg" | "jpeg" => "image/jpeg",
        "gif" => "image/gif",
        "svg" => "image/svg+xml",
        _ => "application/octet-stream",
    }
}

impl Server {
    /// Start on an ephemeral port of 127.0.0.1, optionally serving files under `root`.
    pub async fn start(root: Option<PathBuf>) -> std::io::Result<Server> {
        let listener = TcpListener::bind("127.0.0.1:0").await?;
        let port = listener.local_addr()?.port();
        let shared = Arc::new(Mutex::new(Shared {
            entries: HashMap::new(),
            root,
        }));
        let s2 = shared.clone();
        let task = tokio::spawn(async move {
            while let Ok((mut sock, _)) = listener.accept().await {
                let shared = s2.clone();
                tokio::spawn(async move {
                    let mut buf = vec![0u8; 8192];
                    let mut got = 0;
                    while got < buf.len() {
                        match sock.read(&mut buf[got..]).await {
                            Ok(0) | Err(_) => break,
                            Ok(n) => got += n,
                        }
                        if buf[..got].windows(4).any(|w| w == b"\r\n\r\n") {
                            break;
                        }
                    }
                    let head = String::from_utf8_lossy(&buf[..got]);
                    let path = head
                        .split_whitespace()
                        .nth(1)
                        .unwrap_or("/")
                        .split('?')
                        .next()
                        .unwrap_or("/")
                        .to_string();
                    let found = {
                        let sh = shared.lock();
                        sh.entries.get(&path).cloned().or_else(|| {
                            let root = sh.root.as_ref()?;
                            let rel = path.trim_start_matches('/');
                            if rel.split('/').any(|c| c == "..") {
                                return None;
                            }
                            let p = root.join(rel);
                            std::fs::read(&p)
                                .ok()
                                .map(|b| (b, content_type(&p).to_string()))
                        })
                    };
                    let resp = match found {
                        Some((body, ct)) => {
                            let mut r = format!(
                                "HTTP/1.1 200 OK\r\nContent-Type: {ct}\r\nContent-Length: {}\r\nConnection: close\r\nCache-Control: no-store\r\n\r\n",
                                body.len()
                            )
                            .into_bytes();
                            r.extend_from_slice(&body);
                            r
                        }
                        None => b"HTTP/1.1 404 Not Found\r\nContent-Length: 9\r\nConnection: close\r\n\r\nnot found".to_vec(),
                    };
                    let _ = sock.write_all(&resp).await;
                    let _ = sock.shutdown().await;
                });
            }
        });
        Ok(Server {
            port,
            shared,
            task,
            next_page: AtomicUsize::new(0),
        })
    }

    /// Serve `body` at `path` (starting with `/`) with this `Content-Type`; returns its URL.
    /// Private: [`Server::publish`] numbers the paths, so two pages never share one.
    fn insert(&self, path: &str, body: Vec<u8>, content_type: &str) -> String {
        self.shared
            .lock()
            .entries
            .insert(path.to_string(), (body, content_type.to_string()));
        self.url(path)
    }

    /// Serve a page's `body` at a path of its own (`/page-N.html`) with this `Content-Type`;
    /// returns its URL and the path to [`Server::remove`] when the page is done.
    pub fn publish(&self, body: Vec<u8>, content_type: &str) -> (String, String) {
        let n = self.next_page.fetch_add(1, Ordering::SeqCst);
        let path = format!("/page-{n}.html");
        (self.insert(&path, body, content_type), path)
    }

    /// Stop serving `path`.
    pub fn remove(&self, path: &str) {
        self.shared.lock().entries.remove(path);
    }

    /// The server's port on 127.0.0.1.
    pub fn port(&self) -> u16 {
        self.port
    }

    /// The URL of `path` on this server.
    pub fn url(&self, path: &str) -> String {
        format!("http://127.0.0.1:{}{}", self.port, path)
    }
}
