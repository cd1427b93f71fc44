//! The open-list entry the searches share, 16 bytes compared as one integer.
//!
//! `std`'s `BinaryHeap` is a max-heap; the entry is stored complemented so that it pops the
//! smallest `f` first; among equal `f`, the larger `g` (the node nearer the goal, which finishes
//! ties sooner), then the smaller id (for deterministic results).
//!
//! `f` is kept to the bit (searches read it back, and Dijkstra's `f` is its distance); `g` only
//! orders ties of `f`, so it is kept as the nearest `f32`, and ties of that fall to the id. A
//! search that must tell a stale entry from the latest one for its node compares the whole key
//! with the latest one's (the channel search) or its `f` with the distance (Dijkstra). The
//! searches' expansions are mostly waits on memory and their heap is the largest structure they
//! walk per node; BENCHMARKS.md (session 13) has what this entry saved against a 24-byte one
//! compared field by field.

/// One entry of an A* / Dijkstra open list; see the [module docs](self).
#[derive(Copy, Clone, PartialEq, Eq, PartialOrd, Ord)]
pub(crate) struct Open(u128);

impl std::fmt::Debug for Open {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Open")
            .field("f", &self.f())
            .field("g_f32", &self.g_f32())
            .field("id", &self.id())
            .finish()
    }
}

impl Open {
    /// The entry for node `id` (polygon, search node, graph vertex, in the search's own
    /// numbering) with cost so far `g` and estimate `f`. Both must be ≥ 0 and not NaN (`f` may be
    /// infinite), as lengths are: their bit patterns then order as the numbers do.
    #[inline]
    pub(crate) fn new(f: f64, g: f64, id: u32) -> Open {
        debug_assert!(f >= 0.0 && g >= 0.0, "f {f}, g {g}");
        // `+ 0.0` turns a -0.0 into 0.0 (its bits would order it last).
        let f = u128::from((f + 0.0).to_bits());
        let g = u128::from(!((g + 0.0) as f32).to_bits());
        Open(!(f << 64 | g << 32 | u128::from(id)))
    }
    /// The estimate `f`, to the bit.
    #[inline]
    pub(crate) fn f(self) -> f64 {
        f64::from_bits((!self.0 >> 64) as u64)
    }
    /// The cost so far, to the nearest `f32` (as ordered).
    #[inline]
    pub(crate) fn g_f32(self) -> f32 {
        f32::from_bits(!((!self.0 >> 32) as u32))
    }
    /// The node.
    #[inline]
    pub(crate) fn id(self) -> u32 {
        !self.0 as u32
    }
}

#[cfg(test)]
mod tests {
    use super::Open;
    use std::collections::BinaryHeap;

    /// Pops the smallest `f`, then the largest `g`, then the smallest id; gives `f` and the id
    /// back to the bit; orders an infinite `f` last and a -0.0 as 0.
    #[test]
    fn pops_smallest_f_then_largest_g_then_smallest_id() {
        let entries = [
            (2.0, 0.0, 0),
            (1.0, 0.5, 7),
            (1.0, 0.9, 9),
            (1.0, 0.9, 3),
            (f64::INFINITY, 1.0, 4),
            (-0.0, -0.0, 5),
            (0.1 + 0.2, 0.3, u32::MAX),
            (1e300, 1e300, 1),
            (1e300, 1e-300, 2),
        ];
        let mut h: BinaryHeap<Open> = entries
            .iter()
            .map(|&(f, g, id)| Open::new(f, g, id))
            .collect();
        let popped: Vec<(f64, u32)> =
            std::iter::from_fn(|| h.pop().map(|o| (o.f(), o.id()))).collect();
        let mut expected = entries.to_vec();
        expected.sort_by(|a, b| {
            (a.0 + 0.0)
                .total_cmp(&(b.0 + 0.0))
                .then(b.1.total_cmp(&a.1))
                .then(a.2.cmp(&b.2))
        });
        let expected: Vec<(f64, u32)> = expected.iter().map(|&(f, _, id)| (f + 0.0, id)).collect();
        assert_eq!(popped, expected);
        assert_eq!(popped[0], (0.0, 5));
        assert_eq!(popped[1].0.to_bits(), (0.1f64 + 0.2).to_bits());
        assert_eq!(popped.last(), Some(&(f64::INFINITY, 4)));
        assert_eq!(Open::new(3.0, 0.1, 7).g_f32(), 0.1f32);
        assert_eq!(Open::new(3.0, 0.0, 7).g_f32(), 0.0f32);
        assert_eq!(
            format!("{:?}", Open::new(3.0, 0.5, 7)),
            "Open { f: 3.0, g_f32: 0.5, id: 7 }"
        );
    }
}
