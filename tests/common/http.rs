//! A loopback HTTP/1.1 server for the integration tests that need answers a fixture folder
//! cannot give (a status, a header, a cookie, a body held back, a connection reset): one
//! accept / read-the-request / answer loop in its own thread, the answer left to the test.

use std::future::Future;
use std::sync::Arc;
use std::time::Duration;

use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;

/// A request as the server read it.
pub struct Request {
    pub method: String,
    /// The path with its query string.
    pub path: String,
    /// The request line and headers, as sent.
    pub head: String,
    /// The body (by `Content-Length`), as text.
    pub body: String,
}

impl Request {
    /// The value of header `name` (any case).
    pub fn header(&self, name: &str) -> Option<&str> {
        self.head.lines().find_map(|l| {
            let (k, v) = l.split_once(':')?;
            k.trim().eq_ignore_ascii_case(name).then(|| v.trim())
        })
    }
}

/// An answer: status, headers and body.
pub struct Answer {
    pub status: u16,
    pub headers: Vec<(String, String)>,
    pub body: Vec<u8>,
}

impl Answer {
    /// An HTML answer in UTF-8.
    pub fn html(status: u16, body: impl Into<Vec<u8>>) -> Answer {
        Answer {
            status,
            headers: vec![("Content-Type".into(), "text/html; charset=utf-8".into())],
            body: body.into(),
        }
    }

    /// An answer with no header but those the server adds.
    pub fn bare(status: u16, body: impl Into<Vec<u8>>) -> Answer {
        Answer {
            status,
            headers: Vec::new(),
            body: body.into(),
        }
    }

    /// The same answer with one more header.
    pub fn with(mut self, name: &str, value: &str) -> Answer {
        self.headers.push((name.into(), value.into()));
        self
    }

    /// The status line and headers (with `Content-Length` and `Connection: close`).
    pub fn head(&self) -> String {
        let mut h = format!(
            "HTTP/1.1 {} X\r\nContent-Length: {}\r\nConnection: close\r\n",
            self.status,
            self.body.len()
        );
        for (k, v) in &self.headers {
            h.push_str(&format!("{k}: {v}\r\n"));
        }
        h.push_str("\r\n");
        h
    }

    /// Write the whole answer and close the connection.
    pub async fn send(&self, s: &mut TcpStream) {
        let _ = s.write_all(self.head().as_bytes()).await;
        let _ = s.write_all(&self.body).await;
        let _ = s.shutdown().await;
    }
}

/// Start a server on 127.0.0.1 in its own thread that reads each request and hands it, with
/// the connection, to `handle`; returns its base URL (`http://127.0.0.1:PORT`).
pub fn serve<F, Fut>(handle: F) -> String
where
    F: Fn(Request, TcpStream) -> Fut + Send + Sync + 'static,
    Fut: Future<Output = ()> + Send + 'static,
{
    let handle = Arc::new(handle);
    let (tx, rx) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        let rt = tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
            .unwrap();
        rt.block_on(async move {
            let l = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
            tx.send(l.local_addr().unwrap().port()).unwrap();
            loop {
                let Ok((mut s, _)) = l.accept().await else {
                    continue;
                };
                let handle = handle.clone();
                tokio::spawn(async move {
                    if let Some(req) = read_request(&mut s).await {
                        handle(req, s).await;
                    }
                });
            }
        });
    });
    let port = rx.recv_timeout(Duration::from_secs(10)).unwrap();
    format!("http://127.0.0.1:{port}")
}

/// Start a server that answers each request with `route`'s answer.
pub fn answering(route: impl Fn(&Request) -> Answer + Send + Sync + 'static) -> String {
    let route = Arc::new(route);
    serve(move |req, mut s| {
        let answer = route(&req);
        async move { answer.send(&mut s).await }
    })
}

/// Read one request: its head, then as much body as `Content-Length` says.
async fn read_request(s: &mut TcpStream) -> Option<Request> {
    let mut buf = Vec::new();
    let mut chunk = [0u8; 4096];
    let head_end = loop {
        if let Some(i) = buf.windows(4).position(|w| w == b"\r\n\r\n") {
            break i + 4;
        }
        match s.read(&mut chunk).await {
            Ok(0) | Err(_) => return None,
            Ok(n) => buf.extend_from_slice(&chunk[..n]),
        }
    };
    let head = String::from_utf8_lossy(&buf[..head_end]).to_string();
    let mut req = Request {
        method: String::new(),
        path: String::new(),
        head,
        body: String::new(),
    };
    let length: usize = req
        .header("content-length")
        .and_then(|v| v.parse().ok())
        .unwrap_or(0);
    while buf.len() < head_end + length {
        match s.read(&mut chunk).await {
            Ok(0) | Err(_) => return None,
            Ok(n) => buf.extend_from_slice(&chunk[..n]),
        }
    }
    req.body = String::from_utf8_lossy(&buf[head_end..]).to_string();
    let mut words = req.head.split_whitespace();
    req.method = words.next().unwrap_or("GET").to_string();
    req.path = words.next().unwrap_or("/").to_string();
    Some(req)
}
