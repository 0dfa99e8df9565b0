//! The real client behind a TCP load balancer: the PROXY protocol, versions 1 (text) and 2
//! (binary), as haproxy sends it with `send-proxy` / `send-proxy-v2`. UPI puts such a balancer
//! in front of :22623; without it every machine shares the balancer's address, and rate
//! limiting per address would block them all together.
//!
//! Only connections from listed balancer addresses are read this way, and they must start
//! with a header (a listed address without one is refused: it could otherwise speak for anyone).
//! Other connections are never parsed for a header, so a client cannot claim another address.

use std::net::{IpAddr, Ipv4Addr, Ipv6Addr, SocketAddr};

pub use crate::cidr::Cidr;
use std::time::Duration;

use tokio::io::AsyncReadExt;

const V2_SIG: [u8; 12] = *b"\r\n\r\n\0\r\nQUIT\n";

/// Reads the PROXY header at the start of a connection from a balancer, consuming exactly
/// the header. Returns the client's address, or `None` when the balancer says it has none
/// (v1 `UNKNOWN`, v2 `LOCAL`: its own health checks).
pub async fn read_header<R: AsyncReadExt + Unpin>(
    r: &mut R,
    timeout: Duration,
) -> Result<Option<SocketAddr>, String> {
    tokio::time::timeout(timeout, read(r))
        .await
        .map_err(|_| "no PROXY header in time".to_string())?
}

async fn read<R: AsyncReadExt + Unpin>(r: &mut R) -> Result<Option<SocketAddr>, String> {
    let io = |e: std::io::Error| format!("reading the PROXY header: {e}");
    let mut head = [0u8; 5];
    r.read_exact(&mut head).await.map_err(io)?;
    if &head == b"PROXY" {
        // v1: at most 107 bytes, ending in CRLF.
        let mut line = head.to_vec();
        while !line.ends_with(b"\r\n") {
            if line.len() >= 107 {
                return Err("a PROXY v1 header longer than 107 bytes".into());
            }
            let mut b = [0u8; 1];
            r.read_exact(&mut b).await.map_err(io)?;
            line.push(b[0]);
        }
        return parse_v1(&line);
    }
    if head != V2_SIG[..5] {
        return Err("the connection does not start with a PROXY header".into());
    }
    let mut rest = [0u8; 11];
    r.read_exact(&mut rest).await.map_err(io)?;
    let mut fixed = head.to_vec();
    fixed.extend_from_slice(&rest);
    if fixed[..12] != V2_SIG {
        return Err("the connection does not start with a PROXY header".into());
    }
    let len = usize::from(u16::from_be_bytes([fixed[14], fixed[15]]));
    let mut body = vec![0u8; len];
    r.read_exact(&mut body).await.map_err(io)?;
    parse_v2(fixed[12], fixed[13], &body)
}

/// `PROXY TCP4 SRC DST SPORT DPORT\r\n`, `PROXY TCP6 …`, `PROXY UNKNOWN …`.
fn parse_v1(line: &[u8]) -> Result<Option<SocketAddr>, String> {
    let text = std::str::from_utf8(line).map_err(|_| "a PROXY v1 header that is not ASCII")?;
    let parts: Vec<&str> = text.trim_end_matches("\r\n").split(' ').collect();
    match parts.as_slice() {
        ["PROXY", "UNKNOWN", ..] => Ok(None),
        ["PROXY", fam @ ("TCP4" | "TCP6"), src, _dst, sport, _dport] => {
            let ip: IpAddr = src
                .parse()
                .map_err(|_| format!("PROXY v1: bad source address {src:?}"))?;
            if (*fam == "TCP4") != ip.is_ipv4() {
                return Err(format!("PROXY v1: {src} is not a {fam} address"));
            }
            let port: u16 = sport
                .parse()
                .map_err(|_| format!("PROXY v1: bad source port {sport:?}"))?;
            Ok(Some(SocketAddr::new(ip, port)))
        }
        _ => Err("a malformed PROXY v1 header".into()),
    }
}

/// The binary header's address block (TLVs after it are skipped).
fn parse_v2(ver_cmd: u8, family: u8, body: &[u8]) -> Result<Option<SocketAddr>, String> {
    if ver_cmd >> 4 != 2 {
        return Err(format!("PROXY v2: unknown version {}", ver_cmd >> 4));
    }
    match ver_cmd & 0x0f {
        0 => return Ok(None), // LOCAL: the balancer's own connection.
        1 => {}
        c => return Err(format!("PROXY v2: unknown command {c}")),
    }
    let short = || "PROXY v2: the address block is too short".to_string();
    match family >> 4 {
        1 => {
            let b = body.get(..12).ok_or_else(short)?;
            let ip = Ipv4Addr::new(b[0], b[1], b[2], b[3]);
            Ok(Some(SocketAddr::new(
                ip.into(),
                u16::from_be_bytes([b[8], b[9]]),
            )))
        }
        2 => {
            let b = body.get(..36).ok_or_else(short)?;
            let mut a = [0u8; 16];
            a.copy_from_slice(&b[..16]);
            Ok(Some(SocketAddr::new(
                Ipv6Addr::from(a).into(),
                u16::from_be_bytes([b[32], b[33]]),
            )))
        }
        // UNSPEC (and UNIX sockets): no client address to use.
        _ => Ok(None),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    async fn header(bytes: &[u8]) -> (Result<Option<SocketAddr>, String>, Vec<u8>) {
        let mut r = bytes;
        let out = read_header(&mut r, Duration::from_secs(1)).await;
        (out, r.to_vec())
    }

    #[tokio::test(flavor = "current_thread")]
    async fn v1_and_v2_headers_consume_exactly_the_header() {
        let (a, rest) =
            header(b"PROXY TCP4 198.51.100.7 10.0.0.1 40000 22623\r\n\x16\x03\x01").await;
        assert_eq!(a.unwrap(), Some("198.51.100.7:40000".parse().unwrap()));
        assert_eq!(
            rest, b"\x16\x03\x01",
            "the TLS ClientHello is left in place"
        );
        let (a, _) = header(b"PROXY TCP6 2001:db8::7 2001:db8::1 40000 22623\r\n").await;
        assert_eq!(a.unwrap(), Some("[2001:db8::7]:40000".parse().unwrap()));
        assert_eq!(header(b"PROXY UNKNOWN\r\n").await.0.unwrap(), None);
        let mut v2 = V2_SIG.to_vec();
        v2.extend_from_slice(&[0x21, 0x11, 0, 12 + 3]);
        v2.extend_from_slice(&[198, 51, 100, 8, 10, 0, 0, 1, 0x9c, 0x41, 0x58, 0x5f]);
        v2.extend_from_slice(&[0x03, 0, 0]); // a TLV, skipped
        v2.extend_from_slice(b"\x16\x03");
        let (a, rest) = header(&v2).await;
        assert_eq!(a.unwrap(), Some("198.51.100.8:40001".parse().unwrap()));
        assert_eq!(rest, b"\x16\x03");
        let mut local = V2_SIG.to_vec();
        local.extend_from_slice(&[0x20, 0x00, 0, 0]);
        assert_eq!(header(&local).await.0.unwrap(), None);
        for bad in [
            &b"\x16\x03\x01\x02\x00 TLS straight away"[..],
            b"PROXY TCP4 not-an-ip 10.0.0.1 1 2\r\n",
            b"PROXY TCP4 2001:db8::7 10.0.0.1 1 2\r\n",
            b"PROXY TCP4 198.51.100.7 10.0.0.1 1\r\n",
            b"PROXY TCP4",
        ] {
            assert!(
                header(bad).await.0.is_err(),
                "{:?}",
                String::from_utf8_lossy(bad)
            );
        }
        let long = format!("PROXY TCP4 {}\r\n", "1".repeat(200));
        assert!(header(long.as_bytes()).await.0.is_err());
    }
}
