//! Who holds the open connections, so that no one client can hold them all. Each client (an
//! address; IPv6 by /64, as the rate limiter counts) may hold at most `per_client`
//! connections. When all `total` are taken, a newcomer is let in by closing an idle connection
//! (no request in flight) of the client holding the most: a client parking thousands of idle
//! connections loses them one by one to everyone else, and a booting machine gets in.
//! Connections arriving through a PROXY-protocol balancer are counted against the client the
//! header names, once it is read.

use std::collections::HashMap;
use std::net::IpAddr;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Instant;

use tokio::sync::Notify;

use crate::serve::conn::limit::client_key;

/// The open connections.
#[derive(Debug)]
pub struct Conns {
    total: usize,
    per_client: usize,
    /// Where idle times are counted from.
    epoch: Instant,
    inner: Mutex<Inner>,
}

#[derive(Debug, Default)]
struct Inner {
    next: u64,
    open: HashMap<u64, Entry>,
    by_client: HashMap<IpAddr, usize>,
}

#[derive(Debug)]
struct Entry {
    client: IpAddr,
    /// Exempt from the per-client count: a balancer before its PROXY header is read.
    exempt: bool,
    activity: Arc<Activity>,
    evict: Arc<Notify>,
}

/// Whether a connection has a request in flight and since when it is idle: set by its own
/// task at each request without the connections' lock (two atomic stores), read under the
/// lock only when a connection must be chosen for eviction.
#[derive(Debug)]
struct Activity {
    busy: AtomicBool,
    /// Nanoseconds from [`Conns`]'s epoch to the end of the last request.
    idle_since: AtomicU64,
}

/// Why a connection was not let in.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Refused {
    /// Its client already holds `per_client` connections.
    Client,
    /// All connections are taken and none is idle.
    Full,
}

/// A connection's place; dropping it gives the place back.
#[derive(Debug)]
pub struct Slot {
    id: u64,
    conns: Arc<Conns>,
    activity: Arc<Activity>,
    /// Notified when the connection must close to make room.
    pub evict: Arc<Notify>,
}

impl Conns {
    /// At most `total` connections, `per_client` of them from one client.
    pub fn new(total: usize, per_client: usize) -> Arc<Conns> {
        Arc::new(Conns {
            total,
            per_client,
            epoch: Instant::now(),
            inner: Mutex::default(),
        })
    }

    /// Nanoseconds since [`Conns::epoch`], the clock of idle times.
    fn elapsed_ns(&self) -> u64 {
        u64::try_from(self.epoch.elapsed().as_nanos()).unwrap_or(u64::MAX)
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, Inner> {
        self.inner.lock().unwrap_or_else(|p| p.into_inner())
    }

    /// Lets in a connection from `client` (`exempt`: a balancer whose PROXY header will name
    /// the client), closing another client's idle connection when all are taken. The second
    /// value is the client whose connection was closed to make room.
    pub fn admit(
        self: &Arc<Self>,
        client: IpAddr,
        exempt: bool,
    ) -> Result<(Slot, Option<IpAddr>), Refused> {
        let key = client_key(client);
        let mut g = self.lock();
        if !exempt && g.by_client.get(&key).copied().unwrap_or(0) >= self.per_client {
            return Err(Refused::Client);
        }
        let mut evicted = None;
        if g.open.len() >= self.total {
            evicted = Some(g.evict_one(key).ok_or(Refused::Full)?);
        }
        let id = g.next;
        g.next += 1;
        let evict = Arc::new(Notify::new());
        let activity = Arc::new(Activity {
            busy: AtomicBool::new(false),
            idle_since: AtomicU64::new(self.elapsed_ns()),
        });
        g.open.insert(
            id,
            Entry {
                client: key,
                exempt,
                activity: activity.clone(),
                evict: evict.clone(),
            },
        );
        if !exempt {
            *g.by_client.entry(key).or_default() += 1;
        }
        drop(g);
        Ok((
            Slot {
                id,
                conns: self.clone(),
                activity,
                evict,
            },
            evicted,
        ))
    }

    /// How many connections are open.
    pub fn open(&self) -> usize {
        self.lock().open.len()
    }
}

impl Inner {
    /// Closes the longest-idle connection of the client holding the most connections among
    /// those with an idle one (never `newcomer`'s own); returns that client.
    fn evict_one(&mut self, newcomer: IpAddr) -> Option<IpAddr> {
        let mut idle_by_client: HashMap<IpAddr, (usize, Option<(u64, u64)>)> = HashMap::new();
        for (id, e) in &self.open {
            if e.activity.busy.load(Ordering::Acquire) || e.exempt || e.client == newcomer {
                continue;
            }
            let slot = idle_by_client.entry(e.client).or_insert((0, None));
            slot.0 += 1;
            let since = e.activity.idle_since.load(Ordering::Relaxed);
            if slot.1.is_none_or(|(_, t)| since < t) {
                slot.1 = Some((*id, since));
            }
        }
        let (client, (_, oldest)) = idle_by_client
            .into_iter()
            .max_by_key(|(c, (idle, _))| (self.by_client.get(c).copied().unwrap_or(0), *idle))?;
        let (id, _) = oldest?;
        let e = self.open.remove(&id)?;
        if let Some(n) = self.by_client.get_mut(&client) {
            *n -= 1;
            if *n == 0 {
                self.by_client.remove(&client);
            }
        }
        // The task closes its connection; its place is counted free from now.
        e.evict.notify_one();
        Some(client)
    }

    fn remove(&mut self, id: u64) {
        if let Some(e) = self.open.remove(&id)
            && !e.exempt
            && let Some(n) = self.by_client.get_mut(&e.client)
        {
            *n -= 1;
            if *n == 0 {
                self.by_client.remove(&e.client);
            }
        }
    }
}

impl Slot {
    /// Marks a request in flight (`true`) or none (`false`).
    pub fn busy(&self, busy: bool) {
        if !busy {
            let ns = self.conns.elapsed_ns();
            self.activity.idle_since.store(ns, Ordering::Relaxed);
        }
        self.activity.busy.store(busy, Ordering::Release);
    }

    /// Counts the connection against `client`, the address a balancer's PROXY header gave;
    /// `Err` when that client already holds its share (the caller closes the connection).
    pub fn rekey(&self, client: IpAddr) -> Result<(), Refused> {
        let key = client_key(client);
        let mut g = self.conns.lock();
        if g.by_client.get(&key).copied().unwrap_or(0) >= self.conns.per_client {
            return Err(Refused::Client);
        }
        let Some(e) = g.open.get_mut(&self.id) else {
            return Ok(());
        };
        let (old, was_exempt) = (e.client, e.exempt);
        e.client = key;
        e.exempt = false;
        if !was_exempt && let Some(n) = g.by_client.get_mut(&old) {
            *n -= 1;
        }
        *g.by_client.entry(key).or_default() += 1;
        g.by_client.retain(|_, n| *n > 0);
        Ok(())
    }
}

impl Drop for Slot {
    fn drop(&mut self) {
        self.conns.lock().remove(self.id);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ip(s: &str) -> IpAddr {
        s.parse().unwrap()
    }

    #[test]
    fn one_client_gets_its_share_and_the_heaviest_idle_one_makes_room() {
        let c = Conns::new(10, 6);
        let mut a: Vec<Slot> = (0..6)
            .map(|_| c.admit(ip("10.0.0.1"), false).unwrap().0)
            .collect();
        assert_eq!(c.admit(ip("10.0.0.1"), false).unwrap_err(), Refused::Client);
        let b: Vec<Slot> = (0..4)
            .map(|_| c.admit(ip("10.0.0.2"), false).unwrap().0)
            .collect();
        assert_eq!(c.open(), 10);
        // Full: a newcomer closes an idle connection of 10.0.0.1, which holds the most.
        let (n, evicted) = c.admit(ip("10.0.0.3"), false).unwrap();
        assert_eq!(evicted, Some(ip("10.0.0.1")));
        assert_eq!(c.open(), 10);
        // Busy connections are never closed: with all of them busy, the newcomer is refused.
        for s in a.iter().chain(&b) {
            s.busy(true);
        }
        n.busy(true);
        assert_eq!(c.admit(ip("10.0.0.4"), false).unwrap_err(), Refused::Full);
        // Places come back when connections end.
        a.truncate(2);
        assert!(c.admit(ip("10.0.0.4"), false).is_ok());
    }

    #[test]
    fn a_balancer_is_counted_by_the_clients_it_relays() {
        let c = Conns::new(100, 2);
        let relayed: Vec<Slot> = (0..5)
            .map(|_| c.admit(ip("10.0.0.9"), true).unwrap().0)
            .collect();
        relayed[0].rekey(ip("192.0.2.1")).unwrap();
        relayed[1].rekey(ip("192.0.2.1")).unwrap();
        assert_eq!(relayed[2].rekey(ip("192.0.2.1")), Err(Refused::Client));
        relayed[2].rekey(ip("192.0.2.2")).unwrap();
        // IPv6 clients count by /64.
        let v6: Vec<Slot> = ["2001:db8::1", "2001:db8::2"]
            .iter()
            .map(|a| c.admit(ip(a), false).unwrap().0)
            .collect();
        assert_eq!(
            c.admit(ip("2001:db8::3"), false).unwrap_err(),
            Refused::Client
        );
        drop(v6);
        assert!(c.admit(ip("2001:db8::3"), false).is_ok());
    }
}
