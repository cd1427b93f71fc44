//! Cancelling a build: a [`CancelToken`] the caller keeps a clone of, set from another thread or
//! by a deadline, and checked by the builder between its stages and every so many steps of its
//! long loops (the overlay's pieces, the triangulation's constraint insertions, the merge, the
//! trapezoid sweep). A cancelled build returns [`BuildError::Cancelled`] and frees everything it
//! held; nothing else is left running.
//!
//! What is not interrupted: one call into `i_overlay` (an overlay) or spade's bulk load runs to
//! its end; both are `O(n log n)` in their input, so the gap between two checks is bounded by the
//! input's size.
//!
//! ```
//! use portolan::build::{build, BuildError, BuildOptions, CancelToken};
//! use portolan::Scene;
//! let token = CancelToken::new();
//! let options = BuildOptions::default().with_cancel(token.clone());
//! token.cancel(); // from anywhere: another thread, a timer, a dropped request
//! assert_eq!(build(&Scene::default_map(), &options).err(), Some(BuildError::Cancelled));
//! ```

use super::BuildError;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::Instant;

/// A cancellation signal for [`build`](super::build) (through [`BuildOptions::with_cancel`](super::BuildOptions::with_cancel)):
/// cancelled when [`CancelToken::cancel`] is called on any clone, or once its deadline (if it
/// has one, [`CancelToken::with_deadline`]) has passed. Clones share the flag; it is cheap to
/// clone and `Send + Sync`.
///
/// ```
/// use portolan::build::CancelToken;
/// let a = CancelToken::new();
/// let b = a.clone();
/// assert!(!b.is_cancelled());
/// a.cancel();
/// assert!(b.is_cancelled());
/// ```
#[derive(Clone, Debug, Default)]
pub struct CancelToken {
    flag: Arc<AtomicBool>,
    deadline: Option<Instant>,
    /// Unit tests: the number of checks still allowed before the token fires by itself, so
    /// that a test can stop a build at each of its checkpoints in turn.
    #[cfg(test)]
    countdown: Option<Arc<std::sync::atomic::AtomicUsize>>,
}

impl CancelToken {
    /// A token that is not cancelled and has no deadline.
    ///
    /// ```
    /// assert!(!portolan::build::CancelToken::new().is_cancelled());
    /// ```
    pub fn new() -> CancelToken {
        CancelToken::default()
    }

    /// The same token (sharing its flag) that also counts as cancelled from `deadline` on.
    ///
    /// ```
    /// use portolan::build::CancelToken;
    /// use std::time::Instant;
    /// let token = CancelToken::new().with_deadline(Instant::now());
    /// assert!(token.is_cancelled());
    /// ```
    pub fn with_deadline(mut self, deadline: Instant) -> CancelToken {
        self.deadline = Some(deadline);
        self
    }

    /// The same token (sharing its flag) that also counts as cancelled `limit` from now on,
    /// or at its own deadline if that comes first: a time limit on one stage of a build.
    pub(crate) fn within(&self, limit: std::time::Duration) -> CancelToken {
        let end = Instant::now() + limit;
        let deadline = self.deadline.map_or(end, |d| d.min(end));
        self.clone().with_deadline(deadline)
    }

    /// Cancels every clone of this token.
    ///
    /// ```
    /// let token = portolan::build::CancelToken::new();
    /// token.cancel();
    /// assert!(token.is_cancelled());
    /// ```
    pub fn cancel(&self) {
        self.flag.store(true, Ordering::Relaxed);
    }

    /// Whether [`CancelToken::cancel`] was called on a clone, or the deadline has passed.
    ///
    /// ```
    /// assert!(!portolan::build::CancelToken::new().is_cancelled());
    /// ```
    pub fn is_cancelled(&self) -> bool {
        self.flag.load(Ordering::Relaxed) || self.deadline.is_some_and(|d| Instant::now() >= d)
    }

    /// A token that fires at its `n + 1`-th check (unit tests).
    #[cfg(test)]
    pub(crate) fn after_checks(n: usize) -> CancelToken {
        CancelToken {
            countdown: Some(Arc::new(std::sync::atomic::AtomicUsize::new(n))),
            ..CancelToken::default()
        }
    }

    /// `Err(BuildError::Cancelled)` once cancelled: the builder's checkpoint.
    pub(crate) fn check(&self) -> Result<(), BuildError> {
        #[cfg(test)]
        if let Some(c) = &self.countdown {
            let left = c.load(Ordering::Relaxed);
            if left == 0 {
                self.cancel();
            } else {
                c.store(left - 1, Ordering::Relaxed);
            }
        }
        if self.is_cancelled() {
            Err(BuildError::Cancelled)
        } else {
            Ok(())
        }
    }
}

/// Two tokens are equal when they share their flag and have the same deadline.
impl PartialEq for CancelToken {
    fn eq(&self, other: &CancelToken) -> bool {
        Arc::ptr_eq(&self.flag, &other.flag) && self.deadline == other.deadline
    }
}

/// How many steps of a long loop run between two checks of the token (a check reads an atomic
/// and, with a deadline, the clock).
pub(crate) const CHECK_EVERY: usize = 1024;

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::Duration;

    /// A token within a limit fires at the limit or at its own earlier deadline, and with its
    /// parent's flag.
    #[test]
    fn within_takes_the_earlier_deadline_and_shares_the_flag() {
        let parent = CancelToken::new();
        assert!(parent.within(Duration::ZERO).is_cancelled());
        let long = parent.within(Duration::from_secs(3600));
        assert!(!long.is_cancelled());
        let early = CancelToken::new().with_deadline(Instant::now());
        assert!(early.within(Duration::from_secs(3600)).is_cancelled());
        parent.cancel();
        assert!(long.is_cancelled());
    }
}
