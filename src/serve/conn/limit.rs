//! Slowing down token guessing without ever locking out a machine that has a valid token.
//!
//! Only guesses count: a token that matches nothing the server knows. A valid token is served
//! even from a blocked client (the handler checks it first), and a token the server knows as
//! expired or revoked is a stale pointer config, not a guess, so it is logged and not counted.
//! Clients are counted by address: IPv4 as is, IPv6 by /64 (one host owns a /64), the real
//! client behind a PROXY-protocol balancer rather than the balancer.

use std::collections::HashMap;
use std::net::IpAddr;
use std::sync::Mutex;
use std::time::{Duration, Instant};

/// Failed guesses per client; a client over the limit gets 429 for a while.
#[derive(Debug)]
pub struct RateLimiter {
    inner: Mutex<HashMap<IpAddr, Attempts>>,
    max_failures: u32,
    window: Duration,
    block: Duration,
}

#[derive(Debug)]
struct Attempts {
    window_start: Instant,
    failures: u32,
    blocked_until: Option<Instant>,
}

/// What rate limiting counts a client as: its address, or its /64 for IPv6.
pub fn client_key(ip: IpAddr) -> IpAddr {
    match ip.to_canonical() {
        IpAddr::V6(v6) => IpAddr::V6((u128::from(v6) & !((1u128 << 64) - 1)).into()),
        v4 => v4,
    }
}

impl RateLimiter {
    /// At most `max_failures` guesses per `window`; then blocked for `block`.
    pub fn new(max_failures: u32, window: Duration, block: Duration) -> RateLimiter {
        RateLimiter {
            inner: Mutex::new(HashMap::new()),
            max_failures: max_failures.max(1),
            window,
            block,
        }
    }

    /// Seconds until `ip`'s client may guess again, if it is blocked.
    pub fn blocked(&self, ip: IpAddr, now: Instant) -> Option<u64> {
        let m = self.inner.lock().unwrap_or_else(|p| p.into_inner());
        m.get(&client_key(ip))
            .and_then(|a| a.blocked_until)
            .filter(|until| *until > now)
            .map(|until| (until - now).as_secs().max(1))
    }

    /// Records a guess; returns how long the client is now blocked for when this guess is the
    /// one that blocks it (the caller logs that once).
    pub fn failure(&self, ip: IpAddr, now: Instant) -> Option<Duration> {
        let mut m = self.inner.lock().unwrap_or_else(|p| p.into_inner());
        if m.len() > 100_000 {
            // Bounded memory under a spray of addresses: forget the quiet ones.
            let (window, block) = (self.window, self.block);
            m.retain(|_, a| {
                now.duration_since(a.window_start) < window
                    || a.blocked_until.is_some_and(|u| u + block > now)
            });
        }
        let a = m.entry(client_key(ip)).or_insert(Attempts {
            window_start: now,
            failures: 0,
            blocked_until: None,
        });
        if now.duration_since(a.window_start) > self.window {
            a.window_start = now;
            a.failures = 0;
        }
        a.failures += 1;
        let already = a.blocked_until.is_some_and(|u| u > now);
        if a.failures >= self.max_failures && !already {
            a.blocked_until = Some(now + self.block);
            return Some(self.block);
        }
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn one_client_is_blocked_others_are_not() {
        let l = RateLimiter::new(3, Duration::from_secs(60), Duration::from_secs(300));
        let (a, b): (IpAddr, IpAddr) = ("127.0.0.1".parse().unwrap(), "127.0.0.2".parse().unwrap());
        let t = Instant::now();
        assert_eq!(l.failure(a, t), None);
        assert_eq!(l.failure(a, t), None);
        assert_eq!(
            l.failure(a, t),
            Some(Duration::from_secs(300)),
            "reported once"
        );
        assert_eq!(l.failure(a, t), None);
        assert!(l.blocked(a, t).is_some());
        assert!(l.blocked(b, t).is_none());
        assert!(l.blocked(a, t + Duration::from_secs(301)).is_none());
    }

    #[test]
    fn ipv6_counts_by_64_and_mapped_ipv4_as_ipv4() {
        let l = RateLimiter::new(2, Duration::from_secs(60), Duration::from_secs(300));
        let t = Instant::now();
        l.failure("2001:db8:1:2::1".parse().unwrap(), t);
        l.failure("2001:db8:1:2:ffff::9".parse().unwrap(), t);
        assert!(l.blocked("2001:db8:1:2::77".parse().unwrap(), t).is_some());
        assert!(l.blocked("2001:db8:1:3::1".parse().unwrap(), t).is_none());
        l.failure("::ffff:192.0.2.1".parse().unwrap(), t);
        l.failure("192.0.2.1".parse().unwrap(), t);
        assert!(l.blocked("192.0.2.1".parse().unwrap(), t).is_some());
    }
}
