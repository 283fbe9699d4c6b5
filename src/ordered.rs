//! A parallel map that hands its results over in input order, each as
//! soon as it and every one before it are done, with at most a window of
//! items taken and not yet handed over (so memory stays the same for any
//! length of input, and one slow item holds back no more than the window).
//!
//! ```
//! use xlsudoku::ordered::map_in_order;
//!
//! let mut out = Vec::new();
//! map_in_order((1..=100u64).rev(), 4, 8, |n| n * n, |sq| out.push(sq))?;
//! assert_eq!(out, (1..=100u64).rev().map(|n| n * n).collect::<Vec<_>>());
//! # Ok::<(), std::io::Error>(())
//! ```

use std::collections::BTreeMap;
use std::sync::mpsc;
use std::sync::{Condvar, Mutex};

/// What the workers share: the input, the next index to take, and how
/// many results were handed over (the window's start).
struct Shared<I> {
    input: I,
    taken: usize,
    handed: usize,
    done: bool,
}

/// Maps `f` over `input` on `threads` threads (at least one) and calls
/// `emit` with each result, in input order, on the calling thread. At most
/// `window` items (at least one) are taken and not yet handed over.
/// `emit` may end the process (a closed stdout); the workers then stop
/// with it. Fails only when a thread cannot be started.
pub fn map_in_order<I, T, R>(
    input: I,
    threads: usize,
    window: usize,
    f: impl Fn(T) -> R + Sync,
    mut emit: impl FnMut(R),
) -> std::io::Result<()>
where
    I: Iterator<Item = T> + Send,
    R: Send,
{
    let window = window.max(1);
    let shared = Mutex::new(Shared {
        input,
        taken: 0,
        handed: 0,
        done: false,
    });
    let room = Condvar::new();
    let (tx, rx) = mpsc::channel::<(usize, R)>();
    std::thread::scope(|s| {
        // However this ends (a thread that cannot start, a panic in
        // `emit`), the workers waiting for room are let go, so the scope
        // can end.
        let _release = Release(&shared, &room);
        for _ in 0..threads.max(1) {
            let tx = tx.clone();
            let (shared, room, f) = (&shared, &room, &f);
            std::thread::Builder::new().spawn_scoped(s, move || {
                while let Some((k, item)) = take(shared, room, window) {
                    if tx.send((k, f(item))).is_err() {
                        break;
                    }
                }
            })?;
        }
        drop(tx);
        let mut waiting = BTreeMap::new();
        let mut next = 0;
        for (k, r) in rx {
            waiting.insert(k, r);
            while let Some(r) = waiting.remove(&next) {
                emit(r);
                next += 1;
            }
            lock(&shared).handed = next;
            room.notify_all();
        }
        Ok(())
    })
}

/// Ends the input for the workers when dropped.
struct Release<'a, I>(&'a Mutex<Shared<I>>, &'a Condvar);

impl<I> Drop for Release<'_, I> {
    fn drop(&mut self) {
        lock(self.0).done = true;
        self.1.notify_all();
    }
}

/// The next item and its index, waiting while the window is full; `None`
/// once the input is spent.
fn take<I: Iterator>(
    shared: &Mutex<Shared<I>>,
    room: &Condvar,
    window: usize,
) -> Option<(usize, I::Item)> {
    let mut s = lock(shared);
    while !s.done && s.taken >= s.handed + window {
        s = room.wait(s).unwrap_or_else(|e| e.into_inner());
    }
    if s.done {
        return None;
    }
    match s.input.next() {
        Some(item) => {
            let k = s.taken;
            s.taken += 1;
            Some((k, item))
        }
        None => {
            s.done = true;
            room.notify_all();
            None
        }
    }
}

/// The lock, also after a worker panicked holding it (the state is a few
/// counters, whole at every step).
fn lock<T>(m: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|e| e.into_inner())
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::{Duration, Instant};

    #[test]
    fn results_come_in_input_order_whatever_the_threads() {
        for threads in [1, 2, 7] {
            let mut out = Vec::new();
            map_in_order(
                0..500u32,
                threads,
                16,
                |n| {
                    // Later items finish first now and then.
                    if n % 37 == 0 {
                        std::thread::sleep(Duration::from_millis(2));
                    }
                    n
                },
                |n| out.push(n),
            )
            .unwrap();
            assert_eq!(out, (0..500).collect::<Vec<_>>(), "{threads} threads");
        }
    }

    #[test]
    fn the_first_result_is_handed_over_before_the_rest_is_done() {
        let start = Instant::now();
        let mut first = None;
        map_in_order(
            0..8u32,
            2,
            2,
            |n| {
                if n > 0 {
                    std::thread::sleep(Duration::from_millis(100));
                }
                n
            },
            |n| {
                if n == 0 {
                    first = Some(start.elapsed());
                }
            },
        )
        .unwrap();
        // Eight items of 100 ms on two threads take about 350 ms; the
        // first is out long before.
        assert!(first.unwrap() < Duration::from_millis(200), "{first:?}");
    }

    #[test]
    fn a_panic_in_emit_lets_the_workers_go() {
        let caught = std::panic::catch_unwind(|| {
            let _ = map_in_order(0..1000u32, 2, 4, |n| n, |n| assert!(n < 3, "stop"));
        });
        assert!(caught.is_err(), "the panic comes through, the run ends");
    }

    #[test]
    fn no_more_than_the_window_is_taken_ahead() {
        let taken = std::sync::atomic::AtomicUsize::new(0);
        let mut handed = 0;
        let input = (0..200usize).inspect(|_| {
            taken.fetch_add(1, std::sync::atomic::Ordering::SeqCst);
        });
        map_in_order(
            input,
            3,
            5,
            |n| n,
            |_| {
                handed += 1;
                let ahead = taken.load(std::sync::atomic::Ordering::SeqCst) - handed;
                assert!(ahead <= 5, "{ahead} taken ahead");
            },
        )
        .unwrap();
        assert_eq!(handed, 200);
    }
}
