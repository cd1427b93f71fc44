//! The funnel with two chains: the shortest path through a sleeve in one pass over its portals.
//!
//! The chapter's funnel ([`Funnel`](super::funnel::Funnel), Mononen's *simple stupid funnel*)
//! keeps only the two rays from the apex to the last accepted portal ends. When one side
//! crosses the other it turns at that side's end and scans again from the portal after it, so a
//! portal can be read many times: on a 512 × 512 maze it reads 1.91 portals per portal, and a
//! spiral of n portals costs O(n²).
//!
//! This one keeps the whole funnel (D. T. Lee, F. P. Preparata, *Euclidean shortest paths in
//! the presence of rectilinear barriers*, Networks 14, 1984; J. Hershberger, J. Snoeyink,
//! *Computing minimum length paths of a given homotopy class*, CGTA 4, 1994): the apex and the
//! two convex chains from it, the shortest paths from the apex to the last left and right
//! portal ends, in one deque. A new right end pops the right chain's points it sees past (the
//! chain straightens); when it pops the whole chain it is tested against the left chain's
//! first segment, and while it lies beyond it the apex walks along the left chain, each point
//! passed becoming a corner of the path. The left end is symmetric.
//!
//! ```text
//!   left chain     l3 ·                 each point enters the deque once and leaves it once:
//!              l2 ·                     O(n) for n portals, an amortised one or two exact
//!        l1 ·                           orientation tests per portal end
//!   apex ●                      r2 ·
//!           r1 ·      ·    ·
//!   right chain
//! ```
//!
//! It returns the path of [`string_pull`](super::funnel::string_pull) (the simple funnel, then
//! [`simplify_collinear`](super::funnel::simplify_collinear)): the shortest path through the
//! portals is unique, the side decisions use the same exact predicates and the same rule for
//! points on a side's line (the simple funnel's `beyond`), and points where the path goes
//! straight on are dropped as they come, by the same greedy rule. A test compares the two,
//! point for point, on the channels of ~5,000 queries on random scenes, grid maps, mazes and
//! spirals (`tests/chain_funnel.rs`). The exact search uses this one for its forced channels
//! and the funnel search for its paths; the chapter's funnel stays for the step trace (the
//! demo's figure). Figures: the repository's `BENCHMARKS.md`, section "Session 15".

use super::funnel::{beyond, Portal};
use crate::geom::{orient, Orientation, Vec2};

/// The funnel with two chains, reusable across queries (it keeps its deque's buffer).
///
/// ```
/// use portolan::geom::Vec2;
/// use portolan::search::chain_funnel::ChainFunnel;
/// use portolan::search::funnel::{string_pull, Portal};
///
/// // A corridor turning around the corner (1, 1).
/// let portals = vec![
///     Portal::point(Vec2::new(0.0, 0.0)),
///     Portal { left: Vec2::new(1.0, 1.0), right: Vec2::new(1.0, -1.0) },
///     Portal { left: Vec2::new(1.0, 1.0), right: Vec2::new(3.0, 1.0) },
///     Portal::point(Vec2::new(2.0, 4.0)),
/// ];
/// let mut funnel = ChainFunnel::new();
/// let mut path = Vec::new();
/// funnel.pull(&portals, &mut path);
/// assert_eq!(path, vec![Vec2::new(0.0, 0.0), Vec2::new(1.0, 1.0), Vec2::new(2.0, 4.0)]);
/// assert_eq!(path, string_pull(&portals));
/// ```
#[derive(Clone, Debug, Default)]
pub struct ChainFunnel {
    /// The deque: the left chain's points at lower indices than the apex, read from the apex
    /// outward toward `lo`; the right chain's at higher ones, outward toward `hi`.
    deque: Vec<Vec2>,
}

/// The deque's ends and apex, as indices into [`ChainFunnel::deque`].
struct Ends {
    lo: usize,
    apex: usize,
    hi: usize,
}

impl ChainFunnel {
    /// A funnel with an empty buffer.
    pub fn new() -> ChainFunnel {
        ChainFunnel::default()
    }

    /// Writes into `path` (cleared first) the shortest polyline through `portals`: the first
    /// portal's left point is the start, the last one's the goal (as for
    /// [`Funnel`](super::funnel::Funnel)). No repeated points and no points where the path
    /// goes straight on: [`string_pull`](super::funnel::string_pull)'s result.
    pub fn pull(&mut self, portals: &[Portal], path: &mut Vec<Vec2>) {
        path.clear();
        let Some(first) = portals.first() else {
            return;
        };
        let start = first.left;
        path.push(start);
        let n = portals.len();
        self.deque.clear();
        self.deque.resize(2 * n + 1, start);
        let mut e = Ends {
            lo: n,
            apex: n,
            hi: n,
        };
        let d = &mut self.deque[..];
        for p in &portals[1..] {
            add_right(d, &mut e, p.right, path);
            add_left(d, &mut e, p.left, path);
        }
        // The last portal is the goal: both chains end there; the left one is the taut path
        // from the apex to it (empty for a lone start portal).
        for i in (e.lo..e.apex).rev() {
            push_new(path, d[i]);
        }
    }
}

/// Adds `p` to the path unless it is the path's last point, and drops the last point where
/// the path goes straight on through it (exactly collinear, same direction): what
/// [`simplify_collinear`](super::funnel::simplify_collinear) does after the simple funnel,
/// point by point, with the same greedy rule.
#[inline]
fn push_new(path: &mut Vec<Vec2>, p: Vec2) {
    match path[..] {
        [.., b] if b == p => return,
        [.., a, b] if orient(a, b, p) == Orientation::Collinear && (b - a).dot(p - b) > 0.0 => {
            path.pop();
        }
        _ => {}
    }
    path.push(p);
}

/// Adds a portal's right end `r` to the right chain (see the [module docs](self)).
#[inline]
fn add_right(d: &mut [Vec2], e: &mut Ends, r: Vec2, path: &mut Vec<Vec2>) {
    if d[e.hi] == r {
        return;
    }
    let empty = e.hi == e.apex;
    // Pop the points `r` sees past: `r` not strictly right of the chain's last segment.
    while e.hi > e.apex && orient(d[e.hi - 1], d[e.hi], r) != Orientation::Clockwise {
        e.hi -= 1;
    }
    if e.hi == e.apex && !empty {
        // `r` swept the whole right side: while it lies beyond the left chain's first
        // segment, the path turns there and the apex moves along the left chain. (A right side
        // that was empty, the apex itself, takes `r` as it is: the simple funnel's
        // `apex == right` rule, for fans of portals around the apex.)
        while e.apex > e.lo && beyond(d[e.apex], d[e.apex - 1], r, Orientation::Clockwise) {
            e.apex -= 1;
            push_new(path, d[e.apex]);
        }
        e.hi = e.apex;
    }
    e.hi += 1;
    d[e.hi] = r;
}

/// [`add_right`] mirrored: a portal's left end `l` to the left chain.
#[inline]
fn add_left(d: &mut [Vec2], e: &mut Ends, l: Vec2, path: &mut Vec<Vec2>) {
    if d[e.lo] == l {
        return;
    }
    let empty = e.lo == e.apex;
    while e.lo < e.apex && orient(d[e.lo + 1], d[e.lo], l) != Orientation::CounterClockwise {
        e.lo += 1;
    }
    if e.lo == e.apex && !empty {
        while e.apex < e.hi && beyond(d[e.apex], d[e.apex + 1], l, Orientation::CounterClockwise) {
            e.apex += 1;
            push_new(path, d[e.apex]);
        }
        e.lo = e.apex;
    }
    e.lo -= 1;
    d[e.lo] = l;
}
