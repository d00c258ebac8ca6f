//! Name lookups of the egress proxy: the system resolver, or one DNS server asked over UDP
//! ([`EgressPolicy::resolver`](super::EgressPolicy::resolver)). Every lookup asks anew (no
//! cache): the addresses checked are the ones just given, and the proxy connects to them.
//! The DNS-server path speaks plain UDP: a truncated answer is used as it is (no retry over
//! TCP), which is enough for the names a test or an internal resolver serves.

use std::collections::hash_map::RandomState;
use std::hash::BuildHasher;
use std::net::{IpAddr, SocketAddr};
use std::time::Duration;

use hickory_proto::op::{Message, MessageType, OpCode, Query, ResponseCode};
use hickory_proto::rr::{Name, RData, RecordType};

/// How long one DNS question may take (it is asked twice before the lookup fails).
const DNS_TIMEOUT: Duration = Duration::from_secs(2);

/// The addresses of `host` (a name, not a literal), in the resolver's order.
pub(super) async fn lookup(
    resolver: Option<SocketAddr>,
    host: &str,
    port: u16,
) -> Result<Vec<IpAddr>, String> {
    match resolver {
        None => tokio::net::lookup_host((host, port))
            .await
            .map(|a| {
                let mut v: Vec<IpAddr> = Vec::new();
                for ip in a.map(|a| a.ip()) {
                    if !v.contains(&ip) {
                        v.push(ip);
                    }
                }
                v
            })
            .map_err(|e| e.to_string()),
        Some(server) => {
            let mut out = Vec::new();
            let mut last_err = None;
            for rt in [RecordType::A, RecordType::AAAA] {
                match ask(server, host, rt).await {
                    Ok(v) => out.extend(v),
                    Err(e) => last_err = Some(e),
                }
            }
            match (out.is_empty(), last_err) {
                (true, Some(e)) => Err(e),
                _ => Ok(out),
            }
        }
    }
}

/// One question to `server`, asked at most twice; the A or AAAA records of its answer.
async fn ask(server: SocketAddr, host: &str, rt: RecordType) -> Result<Vec<IpAddr>, String> {
    let name = Name::from_ascii(host).map_err(|e| format!("{host}: not a DNS name: {e}"))?;
    let bind: SocketAddr = if server.is_ipv4() {
        "0.0.0.0:0".parse().expect("address")
    } else {
        "[::]:0".parse().expect("address")
    };
    let sock = tokio::net::UdpSocket::bind(bind)
        .await
        .map_err(|e| format!("DNS socket: {e}"))?;
    sock.connect(server)
        .await
        .map_err(|e| format!("DNS server {server}: {e}"))?;
    for _ in 0..2 {
        let id = (RandomState::new().hash_one(host) & 0xffff) as u16;
        let mut q = Message::new();
        q.set_id(id)
            .set_message_type(MessageType::Query)
            .set_op_code(OpCode::Query)
            .set_recursion_desired(true)
            .add_query(Query::query(name.clone(), rt));
        let bytes = q.to_vec().map_err(|e| format!("DNS query: {e}"))?;
        sock.send(&bytes)
            .await
            .map_err(|e| format!("DNS server {server}: {e}"))?;
        let mut buf = vec![0u8; 4096];
        let answer = tokio::time::timeout(DNS_TIMEOUT, async {
            loop {
                let n = sock.recv(&mut buf).await?;
                // Answers to another question (a late one, a forged one) are skipped.
                match Message::from_vec(&buf[..n]) {
                    Ok(m) if m.id() == id && m.message_type() == MessageType::Response => {
                        return Ok::<_, std::io::Error>(m)
                    }
                    _ => continue,
                }
            }
        })
        .await;
        let m = match answer {
            Err(_) => continue,
            Ok(Err(e)) => return Err(format!("DNS server {server}: {e}")),
            Ok(Ok(m)) => m,
        };
        return match m.response_code() {
            ResponseCode::NoError => Ok(m
                .answers()
                .iter()
                .filter_map(|r| match r.data() {
                    RData::A(a) if rt == RecordType::A => Some(IpAddr::V4(a.0)),
                    RData::AAAA(a) if rt == RecordType::AAAA => Some(IpAddr::V6(a.0)),
                    _ => None,
                })
                .collect()),
            ResponseCode::NXDomain => Err(format!("{host}: no such name")),
            c => Err(format!("DNS server {server} answered {c}")),
        };
    }
    Err(format!(
        "DNS server {server}: no answer within {} s",
        DNS_TIMEOUT.as_secs()
    ))
}
