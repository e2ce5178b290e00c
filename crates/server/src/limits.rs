//! Per-client rate limits: a token bucket per client address. Each client may make
//! `rate` requests a second on average and `2 × rate` at once; past that it is answered
//! 429 with `Retry-After`, and nothing it asked for is done. Buckets idle long enough to
//! be full again are forgotten, so memory stays bounded by the clients of the last few
//! seconds.

use std::collections::HashMap;
use std::net::IpAddr;
use std::sync::Mutex;
use std::time::{Duration, Instant};

/// Buckets kept before idle ones are swept.
const SWEEP_AT: usize = 10_000;

/// A client's bucket.
#[derive(Debug, Clone, Copy)]
struct Bucket {
    tokens: f64,
    at: Instant,
}

/// The limiter shared by every request.
#[derive(Debug)]
pub struct RateLimiter {
    rate: f64,
    burst: f64,
    buckets: Mutex<HashMap<Option<IpAddr>, Bucket>>,
}

impl RateLimiter {
    /// `rate` requests a second per client (`0`: no limit).
    pub fn new(rate: u32) -> Self {
        RateLimiter {
            rate: f64::from(rate),
            burst: 2.0 * f64::from(rate),
            buckets: Mutex::new(HashMap::new()),
        }
    }

    /// The limit, requests a second per client (`0`: none).
    pub fn rate(&self) -> u32 {
        // Built from a u32.
        self.rate as u32
    }

    /// Takes one request from `client`'s bucket at time `now`: `Ok` to serve it, or how
    /// long until it would be served.
    pub fn take(&self, client: Option<IpAddr>, now: Instant) -> Result<(), Duration> {
        if self.rate == 0.0 {
            return Ok(());
        }
        let mut buckets = self.buckets.lock().unwrap_or_else(|p| p.into_inner());
        if buckets.len() >= SWEEP_AT {
            let full_after = Duration::from_secs_f64(self.burst / self.rate);
            buckets.retain(|_, b| now.saturating_duration_since(b.at) < full_after);
        }
        let bucket = buckets.entry(client).or_insert(Bucket {
            tokens: self.burst,
            at: now,
        });
        let refill = now.saturating_duration_since(bucket.at).as_secs_f64() * self.rate;
        bucket.tokens = (bucket.tokens + refill).min(self.burst);
        bucket.at = now;
        if bucket.tokens >= 1.0 {
            bucket.tokens -= 1.0;
            Ok(())
        } else {
            Err(Duration::from_secs_f64((1.0 - bucket.tokens) / self.rate))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_client_gets_its_burst_then_its_rate_and_others_are_unaffected() {
        let limiter = RateLimiter::new(10);
        let (a, b) = (Some([10, 0, 0, 1].into()), Some([10, 0, 0, 2].into()));
        let t0 = Instant::now();
        for _ in 0..20 {
            assert!(limiter.take(a, t0).is_ok());
        }
        let wait = limiter.take(a, t0).expect_err("burst spent");
        assert!(wait <= Duration::from_millis(100), "{wait:?}");
        assert!(
            limiter.take(b, t0).is_ok(),
            "another client has its own bucket"
        );
        // A tenth of a second later, one more request.
        let t1 = t0 + Duration::from_millis(100);
        assert!(limiter.take(a, t1).is_ok());
        assert!(limiter.take(a, t1).is_err());
    }

    #[test]
    fn zero_means_no_limit() {
        let limiter = RateLimiter::new(0);
        let now = Instant::now();
        assert!((0..100_000).all(|_| limiter.take(None, now).is_ok()));
    }

    #[test]
    fn idle_buckets_are_forgotten() {
        let limiter = RateLimiter::new(1);
        let t0 = Instant::now();
        for i in 0..SWEEP_AT as u32 {
            let ip = IpAddr::from(i.to_be_bytes());
            assert!(limiter.take(Some(ip), t0).is_ok());
        }
        let later = t0 + Duration::from_secs(3);
        assert!(limiter.take(None, later).is_ok());
        let kept = limiter.buckets.lock().expect("lock").len();
        assert_eq!(kept, 1);
    }
}
