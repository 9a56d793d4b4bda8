//! The limits on client sockets, counted from the moment a socket is accepted (before any byte of its
//! request is read): sockets in all (`--max-connections`), sockets per source address
//! (`--max-connections-per-address`), and new WebSocket connections a second per source address
//! (`--connect-rate-per-address`). Also the token bucket that every rate limit of the relay uses.

use std::collections::HashMap;
use std::net::IpAddr;
use std::sync::{Arc, Mutex};

use tokio::time::Instant;

use crate::hub::lock;

/// A token bucket: `rate` tokens a second, holding at most twice that (the burst).
#[derive(Debug)]
pub(crate) struct Bucket {
    tokens: f64,
    capacity: f64,
    rate: f64,
    at: Instant,
}

impl Bucket {
    pub(crate) fn new(rate: u32) -> Bucket {
        let rate = f64::from(rate);
        Bucket { tokens: 2.0 * rate, capacity: 2.0 * rate, rate, at: Instant::now() }
    }

    fn refill(&mut self, now: Instant) {
        self.tokens =
            (self.tokens + now.saturating_duration_since(self.at).as_secs_f64() * self.rate).min(self.capacity);
        self.at = now;
    }

    /// Takes one token; `false` when the bucket is empty.
    pub(crate) fn take(&mut self) -> bool {
        self.refill(Instant::now());
        if self.tokens >= 1.0 {
            self.tokens -= 1.0;
            true
        } else {
            false
        }
    }

    /// Whether the bucket has refilled completely (it then remembers nothing).
    fn is_full(&mut self, now: Instant) -> bool {
        self.refill(now);
        self.tokens >= self.capacity
    }
}

/// The source a per-address limit counts: an IPv4 address, or the /64 prefix of an IPv6 address (one
/// host usually has a whole /64). An IPv4 address mapped into IPv6 counts as the IPv4 address.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub(crate) struct Source(IpAddr);

impl Source {
    pub(crate) fn of(ip: IpAddr) -> Source {
        match ip {
            IpAddr::V4(_) => Source(ip),
            IpAddr::V6(v6) => match v6.to_ipv4_mapped() {
                Some(v4) => Source(IpAddr::V4(v4)),
                None => Source(IpAddr::V6((u128::from(v6) & !u128::from(u64::MAX)).into())),
            },
        }
    }
}

/// Why a socket was refused at once.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Refusal {
    /// `--max-connections` sockets are open.
    Full,
    /// Its address has `--max-connections-per-address` sockets open.
    AddressCap,
}

#[derive(Debug)]
struct PerSource {
    open: usize,
    upgrades: Bucket,
}

#[derive(Debug)]
struct Inner {
    open: usize,
    sources: HashMap<Source, PerSource>,
    /// The table is swept of forgotten sources when it reaches this size (then twice its live size).
    sweep_at: usize,
}

/// The socket counts and the per-address buckets.
#[derive(Debug)]
pub(crate) struct Limits {
    max_open: usize,
    max_per_source: usize,
    upgrade_rate: u32,
    inner: Mutex<Inner>,
}

/// An accepted socket's place in the counts, given back when dropped.
#[derive(Debug)]
pub(crate) struct Admitted {
    limits: Arc<Limits>,
    source: Source,
}

impl Drop for Admitted {
    fn drop(&mut self) {
        let mut inner = lock(&self.limits.inner);
        inner.open -= 1;
        if let Some(per) = inner.sources.get_mut(&self.source) {
            per.open -= 1;
        }
    }
}

/// The smallest table size that triggers a sweep.
const SWEEP_MIN: usize = 1024;

impl Limits {
    pub(crate) fn new(max_open: usize, max_per_source: usize, upgrade_rate: u32) -> Limits {
        let inner = Inner { open: 0, sources: HashMap::new(), sweep_at: SWEEP_MIN };
        Limits { max_open, max_per_source, upgrade_rate, inner: Mutex::new(inner) }
    }

    /// Counts a socket just accepted from `source`, or says why it is refused.
    pub(crate) fn admit(self: &Arc<Self>, source: Source) -> Result<Admitted, Refusal> {
        let mut inner = lock(&self.inner);
        if inner.open >= self.max_open {
            return Err(Refusal::Full);
        }
        if inner.sources.len() >= inner.sweep_at {
            let now = Instant::now();
            inner.sources.retain(|_, per| per.open > 0 || !per.upgrades.is_full(now));
            inner.sweep_at = (2 * inner.sources.len()).max(SWEEP_MIN);
        }
        let rate = self.upgrade_rate;
        let per = inner.sources.entry(source).or_insert_with(|| PerSource { open: 0, upgrades: Bucket::new(rate) });
        if per.open >= self.max_per_source {
            return Err(Refusal::AddressCap);
        }
        per.open += 1;
        inner.open += 1;
        Ok(Admitted { limits: self.clone(), source })
    }

    /// Takes a token of `admitted`'s source for a WebSocket upgrade; `false` when its address is over
    /// `--connect-rate-per-address`.
    pub(crate) fn allow_upgrade(&self, admitted: &Admitted) -> bool {
        let mut inner = lock(&self.inner);
        inner.sources.get_mut(&admitted.source).is_some_and(|per| per.upgrades.take())
    }

    /// The sockets open (HTTP and WebSocket).
    pub(crate) fn open(&self) -> usize {
        lock(&self.inner).open
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ipv6_counts_by_its_64_prefix_and_mapped_ipv4_as_ipv4() {
        let a: IpAddr = "2001:db8:1:2:aaaa::1".parse().unwrap();
        let b: IpAddr = "2001:db8:1:2:bbbb::9".parse().unwrap();
        let c: IpAddr = "2001:db8:1:3::1".parse().unwrap();
        assert_eq!(Source::of(a), Source::of(b));
        assert_ne!(Source::of(a), Source::of(c));
        let mapped: IpAddr = "::ffff:192.0.2.7".parse().unwrap();
        assert_eq!(Source::of(mapped), Source::of("192.0.2.7".parse().unwrap()));
        assert_ne!(Source::of("192.0.2.7".parse().unwrap()), Source::of("192.0.2.8".parse().unwrap()));
    }

    #[tokio::test]
    async fn counts_in_all_and_per_source_and_gives_back_on_drop() {
        let limits = Arc::new(Limits::new(3, 2, 1));
        let one = Source::of("192.0.2.1".parse().unwrap());
        let two = Source::of("192.0.2.2".parse().unwrap());
        let a = limits.admit(one).unwrap();
        let _b = limits.admit(one).unwrap();
        assert_eq!(limits.admit(one).unwrap_err(), Refusal::AddressCap);
        let c = limits.admit(two).unwrap();
        assert_eq!(limits.admit(two).unwrap_err(), Refusal::Full);
        assert_eq!(limits.open(), 3);
        drop(a);
        drop(c);
        assert_eq!(limits.open(), 1);
        let a = limits.admit(one).unwrap();
        // A rate of 1: a burst of 2 upgrades, then none until a token comes back.
        assert!(limits.allow_upgrade(&a));
        assert!(limits.allow_upgrade(&a));
        assert!(!limits.allow_upgrade(&a));
    }

    #[tokio::test(start_paused = true)]
    async fn forgotten_sources_are_swept() {
        let limits = Arc::new(Limits::new(usize::MAX, 1, 1));
        for n in 0..SWEEP_MIN as u32 {
            let admitted = limits.admit(Source::of(IpAddr::V4(n.into()))).unwrap();
            assert!(limits.allow_upgrade(&admitted));
        }
        // Every bucket refills within two seconds; the next admission sweeps them all.
        tokio::time::advance(std::time::Duration::from_secs(3)).await;
        let _last = limits.admit(Source::of("198.51.100.1".parse().unwrap())).unwrap();
        assert_eq!(lock(&limits.inner).sources.len(), 1);
    }
}
