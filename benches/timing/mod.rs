//! The measuring loop the benchmarks share: run for a few seconds, report the median.

use std::hint::black_box;
use std::time::{Duration, Instant};

/// Runs `f` repeatedly for at least `budget` (and at least five times); returns the median
/// time of one run and how many runs were made.
pub fn median<R>(budget: Duration, mut f: impl FnMut() -> R) -> (Duration, usize) {
    let mut times = Vec::new();
    let start = Instant::now();
    while start.elapsed() < budget || times.len() < 5 {
        let t = Instant::now();
        black_box(f());
        times.push(t.elapsed());
    }
    times.sort();
    (times[times.len() / 2], times.len())
}
