//! Rows of variable length over shared item arrays, each row one contiguous span, that can be
//! rewritten one at a time: the layout of a mesh's per-polygon, per-vertex and per-cell lists.
//!
//! A mesh built at once lays its rows end to end (the compressed-row layout, no gaps). A mesh
//! patched between snapshots ([`dynamic`](crate::dynamic)) rewrites a few rows per update: a row
//! that keeps its length is rewritten where it is; one that changes length gives its span back to
//! a free list of spans of that length and takes one of the new length from its free list, or
//! from the end of the items. Spans freed and not taken again are *slack*; a mesh compacts its
//! rows when the slack outgrows the rows in use ([`Rows::needs_compaction`]), so memory stays
//! linear in the mesh and each update costs what it rewrites, amortised.
//!
//! Reading a row costs what the compressed layout costs: one 8-byte load for its span.

use std::ops::Range;

/// Items grouped by slot without sorting (a counting sort): `each` pushes every `(slot, item)`,
/// slots below `slots`, and is called twice (to count, then to place), so items keep their
/// order within a slot; `fill` is any value of `T`, overwritten. Returns each slot's start (and
/// the end, at `slots`) and the items: the compressed-row layout. O(slots + items); fewer than
/// 2³² items.
pub(crate) fn bucket<T: Copy>(
    slots: usize,
    fill: T,
    each: impl Fn(&mut dyn FnMut(usize, T)),
) -> (Vec<u32>, Vec<T>) {
    let mut start = vec![0u32; slots + 1];
    each(&mut |i, _| start[i + 1] += 1);
    for i in 0..slots {
        start[i + 1] += start[i];
    }
    let mut next = start.clone();
    let mut items = vec![fill; start[slots] as usize];
    each(&mut |i, x| {
        items[next[i] as usize] = x;
        next[i] += 1;
    });
    (start, items)
}

/// Slack below which a mesh never compacts: small meshes would otherwise compact every few
/// updates for a few hundred bytes. Low enough that the dynamic tests' small maps compact.
pub(crate) const MIN_SLACK: usize = 256;

/// The spans of the rows over the item arrays, and the free spans by length.
#[derive(Clone, Debug, Default)]
pub(super) struct Rows {
    /// Row `i` holds items `spans[i][0]..spans[i][1]`.
    spans: Vec<[u32; 2]>,
    /// `free[n]`: starts of free spans of `n` items.
    free: Vec<Vec<u32>>,
    /// Items in free spans.
    slack: usize,
    /// Items laid out so far (in use or free): the item arrays' length.
    end: u32,
}

impl Rows {
    /// Rows laid end to end: row `i` is `offsets[i]..offsets[i + 1]` (compressed rows).
    pub(super) fn from_offsets(offsets: &[u32]) -> Rows {
        Rows {
            spans: offsets.windows(2).map(|w| [w[0], w[1]]).collect(),
            free: Vec::new(),
            slack: 0,
            end: offsets.last().copied().unwrap_or(0),
        }
    }

    /// The number of rows.
    #[inline]
    pub(super) fn len(&self) -> usize {
        self.spans.len()
    }

    /// The items of row `i`.
    #[inline]
    pub(super) fn get(&self, i: usize) -> Range<usize> {
        let [a, b] = self.spans[i];
        a as usize..b as usize
    }

    /// Items in free spans, not in any row.
    #[cfg(test)]
    pub(super) fn slack(&self) -> usize {
        self.slack
    }

    /// Bytes of the spans and free lists (not the items).
    pub(super) fn memory_bytes(&self) -> usize {
        std::mem::size_of_val(&self.spans[..])
            + self.free.iter().map(|f| 24 + f.len() * 4).sum::<usize>()
    }

    /// How long the item arrays must be.
    #[inline]
    pub(super) fn end(&self) -> usize {
        self.end as usize
    }

    /// Gives row `i` (an existing row, or `len()` for a new last row) a span of `n` items and
    /// returns it; the caller writes the items there, after growing the item arrays to
    /// [`Rows::end`]. A row that keeps its length keeps its span.
    pub(super) fn place(&mut self, i: usize, n: usize) -> Range<usize> {
        if i < self.spans.len() {
            let [a, b] = self.spans[i];
            if (b - a) as usize == n {
                return a as usize..b as usize;
            }
            self.release(a, b);
        } else {
            debug_assert_eq!(i, self.spans.len(), "rows are added at the end");
            self.spans.push([0, 0]);
        }
        let start = match self.free.get_mut(n).and_then(Vec::pop) {
            Some(s) => {
                self.slack -= n;
                s
            }
            None => {
                let s = self.end;
                self.end = u32::try_from(self.end as usize + n).expect("rows fit u32 indices");
                s
            }
        };
        self.spans[i] = [start, start + n as u32];
        start as usize..start as usize + n
    }

    /// Keeps the first `n` rows; the spans of the others are freed.
    pub(super) fn truncate(&mut self, n: usize) {
        while self.spans.len() > n {
            let [a, b] = self.spans.pop().expect("len > n");
            self.release(a, b);
        }
    }

    fn release(&mut self, a: u32, b: u32) {
        let n = (b - a) as usize;
        if n == 0 {
            return;
        }
        if self.free.len() <= n {
            self.free.resize_with(n + 1, Vec::new);
        }
        self.free[n].push(a);
        self.slack += n;
    }

    /// `true` when the free spans hold more items than the rows (and more than
    /// [`MIN_SLACK`]): time for [`Rows::compact`].
    pub(super) fn needs_compaction(&self) -> bool {
        self.slack > MIN_SLACK && self.slack > self.end as usize - self.slack
    }

    /// Lays the rows end to end again, in row order, and returns the old spans: move each item
    /// array with [`gather`]. O(rows).
    pub(super) fn compact(&mut self) -> Vec<[u32; 2]> {
        let old = self.spans.clone();
        let mut next = 0u32;
        for span in &mut self.spans {
            let n = span[1] - span[0];
            *span = [next, next + n];
            next += n;
        }
        self.free.clear();
        self.slack = 0;
        self.end = next;
        old
    }
}

/// The items of `old` spans (from [`Rows::compact`]) end to end.
pub(super) fn gather<T: Copy>(old: &[[u32; 2]], items: &[T]) -> Vec<T> {
    let mut out = Vec::with_capacity(old.iter().map(|s| (s[1] - s[0]) as usize).sum());
    for &[a, b] in old {
        out.extend_from_slice(&items[a as usize..b as usize]);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn placing_reuses_spans_of_the_same_length_and_compaction_keeps_the_items() {
        let mut rows = Rows::from_offsets(&[0, 3, 5, 9]);
        let mut items: Vec<u32> = (0..9).collect();
        assert_eq!(rows.get(1), 3..5);
        // Same length: same span.
        assert_eq!(rows.place(1, 2), 3..5);
        // Longer: appended; the old span is free.
        let r = rows.place(0, 4);
        assert_eq!(r, 9..13);
        items.resize(rows.end(), 0);
        items[r].copy_from_slice(&[10, 11, 12, 13]);
        // A new row of 3 takes row 0's old span.
        assert_eq!(rows.place(3, 3), 0..3);
        items[0..3].copy_from_slice(&[20, 21, 22]);
        rows.truncate(3);
        assert_eq!(rows.len(), 3);
        // Row 3's span is free again: a row of 3 takes it.
        assert_eq!(rows.place(3, 3), 0..3);
        rows.truncate(3);
        let copy = gather(&rows.compact(), &items);
        let row = |i: usize| copy[rows.get(i)].to_vec();
        assert_eq!(row(0), vec![10, 11, 12, 13]);
        assert_eq!(row(1), vec![3, 4]);
        assert_eq!(row(2), vec![5, 6, 7, 8]);
        assert_eq!(rows.end(), 10);
        assert!(!rows.needs_compaction());
    }
}
