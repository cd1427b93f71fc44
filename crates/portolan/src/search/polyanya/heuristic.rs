//! Heuristics: the paper's interval heuristic and the landmark (ALT) bound that tightens it.

use super::*;

impl ExactSearch {
    /// Per landmark, bounds on its distance to the goal from the goal polygons' vertices, each
    /// of which sees the goal: `d(L, v) - |v t| <= d(L, t) <= d(L, v) + |v t|`; and the bound
    /// for the start as a root.
    pub(super) fn prepare_landmarks(
        &mut self,
        mesh: &NavMesh,
        lm: &Landmarks,
        sloc: Location,
        tloc: Location,
        s: Vec2,
        t: Vec2,
    ) {
        // On a pinch vertex the distance is the least over its wedges, and a path arriving
        // through one wedge cannot go on into another: each polygon's vertices bound the
        // distance through that polygon only, so the bounds are the weakest over the polygons
        // (least lower bound, greatest upper bound). Elsewhere every vertex of every polygon
        // holding the point bounds the one distance.
        let bounds = |loc: Location, p: Vec2, out: &mut Vec<(f64, f64)>| {
            out.clear();
            out.resize(lm.count(), (f64::NEG_INFINITY, f64::INFINITY));
            let pinch = is_pinch(mesh, loc);
            // One polygon's bounds, for a pinch only (an empty Vec allocates nothing).
            let mut one = Vec::new();
            let mut first = true;
            for_each_polygon(mesh, loc, |poly| {
                let target = if pinch {
                    one.clear();
                    one.resize(lm.count(), (f64::NEG_INFINITY, f64::INFINITY));
                    &mut one
                } else {
                    &mut *out
                };
                for &v in mesh.polygon_vertices(poly) {
                    let dv = dist(mesh.vertex(v), p);
                    for (b, (low, high)) in target.iter_mut().zip(lm.row(v)) {
                        b.0 = b.0.max(low - dv);
                        b.1 = b.1.min(high + dv);
                    }
                }
                if pinch {
                    for (b, o) in out.iter_mut().zip(&one) {
                        *b = if first {
                            *o
                        } else {
                            (b.0.min(o.0), b.1.max(o.1))
                        };
                    }
                    first = false;
                }
            });
        };
        let mut start = std::mem::take(&mut self.alt_start_bounds);
        bounds(sloc, s, &mut start);
        let mut goal = std::mem::take(&mut self.alt_goal);
        bounds(tloc, t, &mut goal);
        self.alt_start = start
            .iter()
            .zip(&goal)
            .map(|(&(sl, su), &(gl, gu))| lower_bound(sl, gu).max(lower_bound(gl, su)))
            .fold(0.0, f64::max);
        self.alt_goal = goal;
        self.alt_start_bounds = start;
    }

    /// The landmark lower bound on the distance from `root` to the goal (triangle inequality
    /// through each landmark, each difference shrunk by [`LANDMARK_SLACK`] against rounding),
    /// computed once per root and query.
    #[inline]
    pub(super) fn landmark_h(&mut self, lm: &Landmarks, root: u32) -> f64 {
        if root == START {
            return self.alt_start;
        }
        let r = root as usize;
        if self.roots[r].stamp == self.generation && !self.roots[r].alt.is_nan() {
            return self.roots[r].alt;
        }
        let mut h = 0.0f64;
        for ((low, high), &(lb, ub)) in lm.row(VertexId(root)).zip(&self.alt_goal) {
            // Unreachable pairs give infinities (a valid bound) or NaN, which `max` skips.
            h = h.max(lower_bound(low, ub)).max(lower_bound(lb, high));
        }
        self.roots[r].alt = h;
        h
    }

    /// The heuristic of a queued node: the paper's interval heuristic, raised to the landmark
    /// bound of its root when the query has [`SearchOptions::landmarks`]. 0 in one-to-all mode,
    /// which expands in order of `g` (ordering by the distance to the interval instead measured
    /// slower: fewer roots are settled before their nodes spread).
    pub(super) fn node_h<const PLAIN: bool>(&mut self, mesh: &NavMesh, q: &Query, n: &Node) -> f64 {
        if !PLAIN && (self.one_to_all || self.sweep == Sweep::Collect) {
            return 0.0;
        }
        if !PLAIN && n.entry == CORNER {
            return self.corner_heuristic(mesh, q, n.root);
        }
        if !PLAIN && n.root == GOAL {
            // A corner query's goal sweep heads for the start.
            return match self.interval::<PLAIN>(mesh, q, n) {
                None => dist(q.goal, q.start),
                Some((r, right, left)) => interval_h(r, right, left, q.start),
            };
        }
        if !PLAIN && n.entry == LANDING {
            return self.point_h_links(mesh, Self::root_point(mesh, q, n.root), q.goal);
        }
        let interval = self.interval::<PLAIN>(mesh, q, n);
        let mut h = match interval {
            None => dist(Self::point_as::<PLAIN>(mesh, q, n.root), q.goal),
            Some((r, right, left)) => interval_h(r, right, left, q.goal),
        };
        if PLAIN {
            return h;
        }
        if q.links {
            // Through the interval to a shortcut's take-off point, then on at least its bound.
            h = match interval {
                None => self.point_h_links(mesh, Self::root_point(mesh, q, n.root), q.goal),
                Some((r, right, left)) => self.links_h(mesh, h, |f| interval_h(r, right, left, f)),
            };
        }
        match q.landmarks {
            Some(lm) => h.max(self.landmark_h(lm, n.root)),
            None => h,
        }
    }
}

/// `a − b` lowered by [`LANDMARK_SLACK`] of the magnitudes: a lower bound on a true difference
/// of distances that `a` and `b` approximate (NaN or infinite where they are).
#[inline]
pub(super) fn lower_bound(a: f64, b: f64) -> f64 {
    (a - b) - LANDMARK_SLACK * (a.abs() + b.abs())
}

/// The paper's heuristic: the shortest `r → p → t` over `p` in the interval `[right, left]`,
/// with `t` mirrored across the interval's line when it is on the root's side.
#[inline]
pub(super) fn interval_h(r: Vec2, right: Vec2, left: Vec2, t: Vec2) -> f64 {
    let side_t = orient(right, left, t);
    let d = left - right;
    let len2 = d.dot(d);
    // (A sliver interval may round to a point: then there is no line to mirror across.)
    let t = if len2 > 0.0 && side_t != Orientation::Collinear && side_t == orient(right, left, r) {
        let foot = right + d * ((t - right).dot(d) / len2);
        foot * 2.0 - t
    } else {
        t
    };
    if orient(r, right, t) == Orientation::Clockwise {
        dist(r, right) + dist(right, t)
    } else if orient(r, left, t) == Orientation::CounterClockwise {
        dist(r, left) + dist(left, t)
    } else {
        dist(r, t)
    }
}
