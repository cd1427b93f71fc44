//! The open-list entry the searches share: `std`'s `BinaryHeap` is a max-heap, so the order is
//! reversed to pop the smallest `f` first; among equal `f`, the larger `g` (the node nearer the
//! goal, which finishes ties sooner), then the smaller id (for deterministic results).

use std::cmp::Ordering;

/// One entry of an A* / Dijkstra open list.
#[derive(Copy, Clone, Debug)]
pub(crate) struct Open {
    /// Cost so far plus the heuristic.
    pub f: f64,
    /// Cost so far.
    pub g: f64,
    /// The node (polygon, search node, graph vertex) in the search's own numbering.
    pub id: u32,
}

impl PartialEq for Open {
    fn eq(&self, o: &Self) -> bool {
        self.cmp(o) == Ordering::Equal
    }
}
impl Eq for Open {}
impl PartialOrd for Open {
    fn partial_cmp(&self, o: &Self) -> Option<Ordering> {
        Some(self.cmp(o))
    }
}
impl Ord for Open {
    fn cmp(&self, o: &Self) -> Ordering {
        o.f.total_cmp(&self.f)
            .then(self.g.total_cmp(&o.g))
            .then(o.id.cmp(&self.id))
    }
}

/// The exact search's open-list entry, 16 bytes where [`Open`] takes 24, in the same order:
/// the smallest `f` first, then the larger `g`, then the smaller id, as one integer compare.
/// `f` is kept to the bit (the search reads it back); `g` only orders ties of `f`, so it is kept
/// as the nearest `f32`, and ties of that fall to the id. Both must be ≥ 0 and not NaN (`f`
/// may be infinite), as a path length is: their bit patterns then order as the numbers do.
///
/// The search's expansions are mostly waits on memory, and its heap is the largest structure
/// it walks per node; BENCHMARKS.md (issue 15) has what the smaller entry saved.
#[derive(Copy, Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub(crate) struct OpenKey(u128);

impl OpenKey {
    /// The entry for node `id` with cost so far `g` and estimate `f`. Stored complemented, so
    /// that `std`'s max-heap pops the least key.
    #[inline]
    pub(crate) fn new(f: f64, g: f64, id: u32) -> OpenKey {
        debug_assert!(f >= 0.0 && g >= 0.0, "f {f}, g {g}");
        // `+ 0.0` turns a -0.0 into 0.0 (its bits would order it last).
        let f = u128::from((f + 0.0).to_bits());
        let g = u128::from(!((g + 0.0) as f32).to_bits());
        OpenKey(!(f << 64 | g << 32 | u128::from(id)))
    }
    /// The estimate `f`, to the bit.
    #[inline]
    pub(crate) fn f(self) -> f64 {
        f64::from_bits((!self.0 >> 64) as u64)
    }
    /// The node.
    #[inline]
    pub(crate) fn id(self) -> u32 {
        !self.0 as u32
    }
}

#[cfg(test)]
mod tests {
    use super::{Open, OpenKey};
    use std::collections::BinaryHeap;

    #[test]
    fn pops_smallest_f_then_largest_g_then_smallest_id() {
        let mut h: BinaryHeap<Open> = [
            Open {
                f: 2.0,
                g: 0.0,
                id: 0,
            },
            Open {
                f: 1.0,
                g: 0.5,
                id: 7,
            },
            Open {
                f: 1.0,
                g: 0.9,
                id: 9,
            },
            Open {
                f: 1.0,
                g: 0.9,
                id: 3,
            },
        ]
        .into_iter()
        .collect();
        let order: Vec<u32> = std::iter::from_fn(|| h.pop().map(|o| o.id)).collect();
        assert_eq!(order, vec![3, 9, 7, 0]);
    }

    /// The compact entry pops in the same order as [`Open`] (ties of `g` beyond `f32` aside),
    /// gives its `f` and id back to the bit, and orders infinite `f` and a -0.0 correctly.
    #[test]
    fn the_compact_entry_pops_in_the_same_order() {
        let entries = [
            (2.0, 0.0, 0),
            (1.0, 0.5, 7),
            (1.0, 0.9, 9),
            (1.0, 0.9, 3),
            (f64::INFINITY, 1.0, 4),
            (-0.0, -0.0, 5),
            (0.1 + 0.2, 0.3, u32::MAX),
            (1e300, 1e300, 1),
        ];
        let mut h: BinaryHeap<OpenKey> = entries
            .iter()
            .map(|&(f, g, id)| OpenKey::new(f, g, id))
            .collect();
        let mut popped = Vec::new();
        while let Some(k) = h.pop() {
            popped.push((k.f(), k.id()));
        }
        let mut reference: BinaryHeap<Open> = entries
            .iter()
            .map(|&(f, g, id)| Open { f: f + 0.0, g, id })
            .collect();
        let expected: Vec<(f64, u32)> =
            std::iter::from_fn(|| reference.pop().map(|o| (o.f, o.id))).collect();
        assert_eq!(popped, expected);
        assert_eq!(popped[0], (0.0, 5));
        assert_eq!(popped[1].0.to_bits(), (0.1f64 + 0.2).to_bits());
        assert_eq!(popped.last(), Some(&(f64::INFINITY, 4)));
    }
}
