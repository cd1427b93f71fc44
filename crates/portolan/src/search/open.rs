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

#[cfg(test)]
mod tests {
    use super::Open;
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
}
