//! Partial paths: the nearest point reached when the goal cannot be (unreachable, or the
//! expansion budget ran out).

use super::*;

impl ExactSearch {
    /// The search ran out of [`SearchOptions::max_expanded`]: the path to the point nearest the
    /// goal among what the nodes generated so far see (each node's root sees its interval; a
    /// root on the entry edge sees the whole polygon), or the start itself, marked
    /// [`PartialReason::SearchLimit`](crate::search::PartialReason::SearchLimit).
    pub(super) fn nearest_reached(&self, mesh: &NavMesh, q: &Query, expanded: usize) -> Path {
        // (Inside `unreachable`'s search toward the nearest reachable point: still nearest the
        // query's own goal.)
        let goal = self.rerun_goal.unwrap_or(q.goal);
        let mut best: (f64, Option<u32>, Vec2) = (dist(q.start, goal), None, q.start);
        for (i, n) in self.nodes.iter().enumerate() {
            if n.entry >= SPECIAL {
                continue; // final, origin, landing and pseudo nodes
            }
            let seen = match self.interval::<false>(mesh, q, n) {
                Some((_, right, left)) => closest_point_on_segment(goal, right, left),
                None => goal,
            };
            let (_, p) = mesh.nearest_in(PolyId(n.poly), seen);
            let d = dist(p, goal);
            if d < best.0 {
                best = (d, Some(i as u32), p);
            }
        }
        let mut path = match best.1 {
            // Nudged into the polygon (the interval's rounded ends may sit a hair off it), and
            // into the cone until the last leg is clear: an interval end, rounded, can lie a
            // hair past the corner that bounds the cone, and the leg then grazes it. The root
            // sees every point strictly inside its interval (or all of the polygon, when it is
            // on the entry edge).
            Some(i) => {
                let n = self.nodes[i as usize];
                let end = mesh.pull_inside(PolyId(n.poly), best.2);
                let root = Self::root_point(mesh, q, n.root);
                let inside = match self.interval::<false>(mesh, q, &n) {
                    Some((_, right, left)) => (right + left) * 0.5,
                    None => mesh.centroid(PolyId(n.poly)),
                };
                let end = crate::geom::nudge_toward(end, inside, |p| {
                    mesh.locate_in(PolyId(n.poly), p).is_some()
                        && crate::search::raycast::raycast(mesh, root, p)
                            .is_ok_and(|r| r.is_clear())
                });
                self.path_to(mesh, i, q, expanded, end)
            }
            None => Path {
                length: 0.0,
                points: vec![q.start],
                // The first node is the origin node of a start polygon.
                channel: self
                    .nodes
                    .first()
                    .map(|n| PolyId(n.poly))
                    .into_iter()
                    .collect(),
                expanded,
                status: PathStatus::Complete,
                links: Vec::new(),
                bound: None,
            },
        };
        path.status = PathStatus::Partial(crate::search::PartialReason::SearchLimit);
        path.bound = None;
        path
    }

    /// The goal `t` cannot be reached from `s`: [`PathError::NoPath`], or with
    /// [`SearchOptions::allow_partial`] the shortest path to the point closest to the goal in
    /// the part of the mesh the start can reach (found by a walk over the open polygons from
    /// the start's), marked [`PartialReason::Unreachable`](crate::search::PartialReason::Unreachable).
    pub(super) fn unreachable(
        &mut self,
        mesh: &NavMesh,
        s: Vec2,
        sloc: Location,
        t: Vec2,
        options: &SearchOptions,
    ) -> Result<Path, PathError> {
        if !options.allow_partial {
            return Err(PathError::NoPath);
        }
        let filter = options.filter.as_deref();
        let open = |p: PolyId| filter.is_none_or(|f| !f.is_excluded(p));
        // Reuse the goal stamps as "reached" marks under a fresh generation.
        self.reset(mesh);
        let gen = self.generation;
        let mut stack: Vec<PolyId> = Vec::new();
        for_each_polygon(mesh, sloc, |p| {
            self.goal_stamp[p.index()] = gen;
            stack.push(p);
        });
        let mut best: Option<(f64, Vec2, PolyId)> = None;
        while let Some(p) = stack.pop() {
            let (d, q) = mesh.nearest_in(p, t);
            if best.is_none_or(|(b, _, _)| d < b) {
                best = Some((d, q, p));
            }
            let across = mesh.neighbours(p).iter().flatten().copied();
            for n in across.chain(mesh.links_from(p).iter().map(|e| e.to_polygon)) {
                if self.goal_stamp[n.index()] != gen && open(n) {
                    self.goal_stamp[n.index()] = gen;
                    stack.push(n);
                }
            }
        }
        let Some((_, end, poly)) = best else {
            return Err(PathError::NoPath);
        };
        // Into the polygon where rounding left the projection a hair out. (The point may be a
        // pinch vertex where this part touches an unreachable one; an end there may arrive
        // through any of its wedges, so the search below reaches it.)
        let end = mesh.pull_inside(poly, end);
        // The point is reachable (the walk above crossed edges and links, as the search does).
        // Under the same budget the search may still run out first: then the partial path of
        // the budget, toward that point. `rerun_goal` keeps a broken invariant from recursing.
        if self.rerun_goal.is_some() {
            return Err(PathError::NoPath);
        }
        let reachable = options
            .clone()
            .with_allow_partial(true)
            .with_snap(crate::search::Snap::Reject);
        self.rerun_goal = Some(t);
        let found = self.find_path(mesh, s, end, &reachable);
        self.rerun_goal = None;
        let mut path = found.map_err(|_| PathError::NoPath)?;
        if path.status == PathStatus::Complete {
            path.status = PathStatus::Partial(crate::search::PartialReason::Unreachable);
            path.bound = None;
        }
        Ok(path)
    }
}
