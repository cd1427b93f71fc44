//! Dead ends: the portals that are the only way into a part of the mesh.
//!
//! A portal is a *bridge* of the mesh's dual graph (polygons joined by shared edges) when
//! removing it splits the polygons it connects into two unconnected parts. A shortest path never
//! crosses a bridge into a part that does not hold its goal: it would have to come back through
//! the same edge, and the straight piece of that edge between the two crossings is shorter.
//! Polyanya's own cul-de-sac pruning is the smallest case (a polygon with one neighbour); this
//! is the whole case: rooms with a single door and no pillar inside, corridors that end, every
//! tree-shaped appendage of the mesh.
//!
//! ```text
//!   ┌───────────┬───┐      the room R hangs off the hall H by one portal (a bridge); a
//!   │     H     │ R │      search for a goal in H never enters R, whatever its heuristic
//!   │  ██   ██  ╞═══╡      says (R's triangles form a tree: no obstacle inside)
//!   └───────────┴───┘
//! ```
//!
//! Bridges come from one depth-first search (Tarjan's low-link, iterative), and so do the
//! *2-edge-connected components* left when bridges are removed (a stack of the polygons
//! discovered, cut at each bridge as the walk returns over it); they form a forest, the bridge tree, rooted per connected
//! part and numbered in depth-first order so that "component `g` is inside the subtree of `c`" is
//! two comparisons. A search then asks, for each bridge it would cross, whether the goal's
//! component lies on the far side. O(n) time and memory, computed once per mesh on first use
//! ([`NavMesh::dead_ends`]).
//!
//! The forest also says when a query has no choice to make: where the two polygons and every
//! one between them in the bridge forest are components of one polygon each, the channel
//! between them is *forced* ([`DeadEnds::forced_channel`], from the parents and depths kept
//! per component), and the funnel through it is the shortest path
//! (`search/polyanya/forced.rs`).
//!
//! The same pass lays out, per edge slot, the record the exact search reads when it crosses
//! that slot (`Crossing`: the slot's vertex, the polygon across and its entry slot, a
//! cul-de-sac flag, the bridge code), so that one lazily built table serves the whole search.

use super::{NavMesh, PolyId};

const NONE: u32 = u32::MAX;

/// The bridges of a mesh and its bridge tree (see the [module docs](self)).
#[derive(Clone, Debug, Default)]
pub struct DeadEnds {
    /// Per polygon: its 2-edge-connected component.
    component: Vec<u32>,
    /// Per component: first and last depth-first number of its subtree in the bridge tree
    /// (a component's own number is `range[c].0`).
    range: Vec<(u32, u32)>,
    /// Per component: the root of its tree in the bridge forest (one tree per connected part
    /// of the mesh).
    root: Vec<u32>,
    /// Per component: its parent in the bridge forest ([`NONE`] at a root), its depth there,
    /// and the bridge to the parent (see [`Up`]).
    up: Vec<Up>,
    /// Per component: its polygon when it has exactly one, else [`NONE`]. A chain of such
    /// components joined by bridges is a stretch of the mesh with no cycle: the channel through
    /// it is the only one ([`DeadEnds::forced_channel`]).
    single: Vec<u32>,
    /// Per edge slot (in [`NavMesh`]'s flat order): [`NONE`] for a wall or a portal on a cycle;
    /// else `child << 1 | enters`, where `child` is the component on the bridge's far side from
    /// the tree's root and `enters` is 1 when crossing from this slot's polygon goes into it.
    slot: Vec<u32>,
    bridges: usize,
    /// Per edge slot (flat order): where crossing it leads, for the exact search (see
    /// [`Crossing`]).
    crossing: Vec<Crossing>,
}

/// One edge slot of a polygon as the exact search reads it: the slot's first vertex (id and
/// position) and where crossing the edge leads, in one 32-byte record. A polygon's records are
/// contiguous (flat slot order), so expanding a node reads one or two cache lines for its
/// polygon instead of one per vertex position, vertex list, neighbour list and bridge table,
/// and making a successor reads nothing of the polygon beyond (on large meshes each of those
/// was a cache miss; see BENCHMARKS.md, issue 15).
#[derive(Copy, Clone, Debug, Default, PartialEq)]
pub(crate) struct Crossing {
    /// Position of the slot's first vertex.
    pub point: crate::geom::Vec2,
    /// Id of the slot's first vertex.
    pub vertex: u32,
    /// The polygon across the edge, or `u32::MAX` for a wall.
    pub next: u32,
    /// The slot of the same edge in `next` (it runs the other way there), with
    /// [`Crossing::CUL_DE_SAC`] set when `next` has fewer than two portals.
    pub entry: u32,
    /// The bridge code of the slot ([`DeadEnds::may_cross_code`]): `u32::MAX` when not a bridge.
    pub bridge: u32,
}

/// A component's place in the bridge forest, with the bridge that joins it to its parent as one
/// record: the walk of a forced channel reads the parent and the depth, and its portals are the
/// bridges walked (no search for the shared edge in each polygon's slots, which on a maze was a
/// cache miss per polygon of the channel).
#[derive(Copy, Clone, Debug)]
struct Up {
    /// The parent component, [`NONE`] at a root.
    parent: u32,
    /// Depth in the forest (0 at a root).
    depth: u32,
    /// The bridge's end points, counter-clockwise as the child's polygon on it runs the edge
    /// (unset at a root).
    edge: [crate::geom::Vec2; 2],
}

impl Crossing {
    /// Flag in [`Crossing::entry`]: the polygon across has fewer than two portals.
    pub const CUL_DE_SAC: u32 = 1 << 31;
}

impl DeadEnds {
    /// Finds the bridges of `mesh` and builds its bridge tree.
    pub fn new(mesh: &NavMesh) -> DeadEnds {
        let np = mesh.polygon_count();
        // Polygon p's slots are base[p].0..base[p].1 (the mesh's corner slots).
        let base: Vec<(usize, usize)> = mesh
            .polygons()
            .map(|p| {
                let r = mesh.slots(p);
                (r.start, r.end)
            })
            .collect();
        // Tarjan's bridges, iterative. `enter[p]`: discovery order; `low[p]`: the smallest
        // discovery number reachable from p's subtree by one non-tree edge. The tree edge into
        // p is skipped by its slot, so a double edge between two polygons is not a bridge. The
        // 2-edge-connected components fall out of the same walk: polygons are stacked as they
        // are discovered, and when the tree edge into p is found to be a bridge (or p is a
        // root), p and everything stacked above it are one component.
        let mut enter = vec![NONE; np];
        let mut low = vec![0u32; np];
        let mut component = vec![NONE; np];
        let mut comps = 0u32;
        let mut unassigned: Vec<u32> = Vec::new();
        // Every bridge once: the parent's slot into the child, the child's slot back, and the
        // two polygons.
        let mut bridge_slots: Vec<(usize, usize, usize, usize)> = Vec::new();
        let mut counter = 0u32;
        // Stack of (polygon, the parent's slot into it and its own slot back to the parent
        // (global; `usize::MAX` at a root), next slot to try).
        let mut stack: Vec<(u32, usize, usize, usize)> = Vec::new();
        // Per component, its polygon when it has one only (see `DeadEnds::single`).
        let mut single: Vec<u32> = Vec::new();
        let mut close = |p: usize, unassigned: &mut Vec<u32>, component: &mut [u32]| {
            let mut members = 0;
            while let Some(x) = unassigned.pop() {
                component[x as usize] = comps;
                members += 1;
                if x as usize == p {
                    break;
                }
            }
            single.push(if members == 1 { p as u32 } else { NONE });
            comps += 1;
        };
        for root in 0..np {
            if enter[root] != NONE {
                continue;
            }
            enter[root] = counter;
            low[root] = counter;
            counter += 1;
            unassigned.push(root as u32);
            stack.push((root as u32, usize::MAX, usize::MAX, base[root].0));
            while let Some(&mut (p, via, back, ref mut next)) = stack.last_mut() {
                let p = p as usize;
                if *next < base[p].1 {
                    let s = *next;
                    *next += 1;
                    let Some(q) = mesh.poly_neighbours[s] else {
                        continue;
                    };
                    let q = q.index();
                    if s == back {
                        continue; // the tree edge back to the parent
                    }
                    if enter[q] == NONE {
                        enter[q] = counter;
                        low[q] = counter;
                        counter += 1;
                        unassigned.push(q as u32);
                        stack.push((q as u32, s, twin(mesh, &base, p, s, q), base[q].0));
                    } else {
                        low[p] = low[p].min(enter[q]);
                    }
                } else {
                    stack.pop();
                    match stack.last() {
                        Some(&(parent, ..)) => {
                            let parent = parent as usize;
                            low[parent] = low[parent].min(low[p]);
                            if low[p] > enter[parent] {
                                bridge_slots.push((via, back, parent, p));
                                close(p, &mut unassigned, &mut component);
                            }
                        }
                        None => close(p, &mut unassigned, &mut component),
                    }
                }
            }
        }
        // The bridge tree: adjacency between components as compressed rows (each bridge in
        // both directions), then a depth-first numbering.
        let nc = comps as usize;
        let ends = |&(_, _, p, q): &(usize, usize, usize, usize)| (component[p], component[q]);
        let mut tree_start = vec![0u32; nc + 1];
        for b in &bridge_slots {
            let (cp, cq) = ends(b);
            tree_start[cp as usize + 1] += 1;
            tree_start[cq as usize + 1] += 1;
        }
        for c in 0..nc {
            tree_start[c + 1] += tree_start[c];
        }
        let mut tree = vec![0u32; tree_start[nc] as usize];
        let mut next = tree_start.clone();
        for b in &bridge_slots {
            let (cp, cq) = ends(b);
            tree[next[cp as usize] as usize] = cq;
            next[cp as usize] += 1;
            tree[next[cq as usize] as usize] = cp;
            next[cq as usize] += 1;
        }
        let children = |c: usize| &tree[tree_start[c] as usize..tree_start[c + 1] as usize];
        let mut range = vec![(NONE, NONE); nc];
        let mut parent = vec![NONE; nc];
        let mut root = vec![NONE; nc];
        let mut depth = vec![0u32; nc];
        let mut order = 0u32;
        let mut walk: Vec<(u32, usize)> = Vec::new();
        for r in 0..nc {
            if range[r].0 != NONE {
                continue;
            }
            range[r].0 = order;
            order += 1;
            walk.push((r as u32, 0));
            while let Some(&mut (c, ref mut i)) = walk.last_mut() {
                let c = c as usize;
                root[c] = r as u32;
                if *i < children(c).len() {
                    let d = children(c)[*i];
                    *i += 1;
                    if range[d as usize].0 == NONE {
                        parent[d as usize] = c as u32;
                        depth[d as usize] = depth[c] + 1;
                        range[d as usize].0 = order;
                        order += 1;
                        walk.push((d, 0));
                    }
                } else {
                    range[c].1 = order - 1;
                    walk.pop();
                }
            }
        }
        let mut up: Vec<Up> = parent
            .iter()
            .zip(&depth)
            .map(|(&parent, &depth)| Up {
                parent,
                depth,
                edge: [crate::geom::Vec2::ZERO; 2],
            })
            .collect();
        let mut slot = vec![NONE; mesh.slot_count()];
        for b in &bridge_slots {
            let (cp, cq) = ends(b);
            // The child is the side whose parent is the other; crossing from the child's side
            // leaves it.
            let (child, from_p) = if parent[cq as usize] == cp {
                (cq, 1)
            } else {
                (cp, 0)
            };
            slot[b.0] = child << 1 | from_p;
            slot[b.1] = child << 1 | (1 - from_p);
            // The bridge as the child's polygon runs it (`b.1` is `b.3`'s slot, `b.0` `b.2`'s).
            let (poly, s) = if from_p == 1 { (b.3, b.1) } else { (b.2, b.0) };
            let (e0, e1) = mesh.edge(PolyId(poly as u32), s - base[poly].0);
            up[child as usize].edge = [e0, e1];
        }
        let bridges = 2 * bridge_slots.len();
        let open: Vec<u32> = (0..np)
            .map(|p| {
                mesh.poly_neighbours[base[p].0..base[p].1]
                    .iter()
                    .filter(|n| n.is_some())
                    .count() as u32
            })
            .collect();
        let mut crossing = vec![Crossing::default(); mesh.slot_count()];
        for &(from, to) in &base {
            for s in from..to {
                let v = mesh.poly_vertices[s];
                crossing[s] = Crossing {
                    point: mesh.vertices[v.index()],
                    vertex: v.0,
                    next: NONE,
                    entry: NONE,
                    bridge: slot[s],
                };
            }
        }
        // Where each portal leads, both sides of it from one search for the twin slot.
        let entry = |q: usize, t: usize| {
            let entry = (t - base[q].0) as u32;
            // (A polygon of 2³¹ vertices cannot be stored in the first place.)
            debug_assert!(entry < Crossing::CUL_DE_SAC);
            entry | if open[q] < 2 { Crossing::CUL_DE_SAC } else { 0 }
        };
        for p in 0..np {
            for s in base[p].0..base[p].1 {
                let Some(q) = mesh.poly_neighbours[s] else {
                    continue;
                };
                let q = q.index();
                if q < p {
                    continue; // done from q's side
                }
                let t = twin(mesh, &base, p, s, q);
                crossing[s].next = q as u32;
                crossing[s].entry = entry(q, t);
                crossing[t].next = p as u32;
                crossing[t].entry = entry(p, s);
            }
        }
        DeadEnds {
            component,
            range,
            root,
            up,
            single,
            slot,
            bridges: bridges / 2,
            crossing,
        }
    }

    /// The number of bridges (portals that are the only way between two parts).
    pub fn bridge_count(&self) -> usize {
        self.bridges
    }

    /// The 2-edge-connected component of a polygon.
    #[inline]
    pub fn component(&self, p: PolyId) -> u32 {
        self.component[p.index()]
    }

    /// `true` when polygons `a` and `b` are in one connected part of the mesh (walking across
    /// portals, off-mesh links aside): where they are not, no path joins them. O(1).
    ///
    /// ```
    /// # use portolan::{build, BuildOptions, Scene, Vec2};
    /// let mesh = build(&Scene::default_map(), &BuildOptions::default()).unwrap();
    /// let (a, b) = (mesh.locate(Scene::DEFAULT_START), mesh.locate(Scene::DEFAULT_GOAL));
    /// let (a, b) = (a.polygon().unwrap(), b.polygon().unwrap());
    /// assert!(mesh.dead_ends().connected(a, b));
    /// ```
    #[inline]
    pub fn connected(&self, a: PolyId, b: PolyId) -> bool {
        self.root[self.component[a.index()] as usize]
            == self.root[self.component[b.index()] as usize]
    }

    /// `true` when crossing edge `slot` of polygon `p` can be on a shortest path to a point in
    /// a polygon of component `goal`: always for a portal on a cycle (and for a wall, which is
    /// not crossed anyway); for a bridge, only toward the side that holds the goal.
    #[inline]
    pub fn may_cross(&self, mesh: &NavMesh, p: PolyId, slot: usize, goal: u32) -> bool {
        self.may_cross_code(self.slot[mesh.slots(p).start + slot], goal)
    }

    /// The channel from polygon `a` to polygon `b` when it is *forced*: when `a == b`, or when
    /// `a`, `b` and every polygon between them in the bridge forest are components of one
    /// polygon each, so that
    /// the polygons between them form a chain with no cycle and every way from `a` to `b`
    /// crosses exactly these polygons, in this order (a walk that leaves the chain must come
    /// back through the same bridge). `out` is then that channel, `a` first, and the answer is
    /// `true`; `false` (and `out` unspecified) otherwise, including when no portal joins them.
    /// Cost: the channel's length at most, walking up the bridge forest from both ends; a
    /// component of several polygons met on the way ends the walk at once.
    ///
    /// # Panics
    /// When `a` or `b` is not a polygon of the mesh this table was derived from (as
    /// [`DeadEnds::component`] and the others: ids come from that mesh).
    ///
    /// ```
    /// # use portolan::{NavMesh, PolyId, Vec2};
    /// // Three squares in a row: no cycle, so the channel from the first to the last is forced.
    /// let v = (0..8).map(|i| Vec2::new((i / 2) as f64, (i % 2) as f64)).collect();
    /// let mesh = NavMesh::from_polygons(v, vec![vec![0, 2, 3, 1], vec![2, 4, 5, 3], vec![4, 6, 7, 5]]).unwrap();
    /// let (mut channel, mut tail) = (Vec::new(), Vec::new());
    /// assert!(mesh.dead_ends().forced_channel(PolyId(0), PolyId(2), &mut channel, &mut tail));
    /// assert_eq!(channel, [PolyId(0), PolyId(1), PolyId(2)]);
    /// ```
    pub fn forced_channel(
        &self,
        a: PolyId,
        b: PolyId,
        out: &mut Vec<PolyId>,
        tail: &mut Vec<PolyId>,
    ) -> bool {
        self.forced_bridges(a, b, out, tail, |_, _| {})
    }

    /// [`DeadEnds::forced_channel`], also handing `bridge` each bridge the walk crosses, as
    /// `(toward_goal_side, edge)`: from the start's side in channel order, with `false` and the
    /// edge as the polygon before it in the channel runs it counter-clockwise; from the goal's
    /// side in reverse channel order, with `true` and the edge as the polygon after it runs it.
    /// The bridges are read with the walk (the funnel's portals, without a search for each
    /// shared edge in its polygons' slots).
    pub(crate) fn forced_bridges(
        &self,
        a: PolyId,
        b: PolyId,
        out: &mut Vec<PolyId>,
        tail: &mut Vec<PolyId>,
        mut bridge: impl FnMut(bool, [crate::geom::Vec2; 2]),
    ) -> bool {
        out.clear();
        tail.clear();
        if a == b {
            // One convex polygon: the segment.
            out.push(a);
            return true;
        }
        let (mut x, mut y) = (
            self.component[a.index()] as usize,
            self.component[b.index()] as usize,
        );
        if self.single[x] == NONE || self.single[y] == NONE || self.root[x] != self.root[y] {
            return false;
        }
        out.push(a);
        tail.push(b);
        // Up from the deeper end until the two walks meet (at the lowest common ancestor).
        while x != y {
            let goal_side = self.up[x].depth < self.up[y].depth;
            let (side, c) = if goal_side {
                (&mut *tail, &mut y)
            } else {
                (&mut *out, &mut x)
            };
            let up = self.up[*c];
            bridge(goal_side, up.edge);
            *c = up.parent as usize;
            // (A root has depth 0 and both ends share the root: the deeper one has a parent.)
            let p = self.single[*c];
            if p == NONE {
                return false;
            }
            side.push(PolyId(p));
        }
        // The meeting polygon ends both lists (or `a == b`): keep it once.
        tail.pop();
        out.extend(tail.iter().rev());
        true
    }

    /// [`DeadEnds::may_cross`] for a slot's bridge code ([`Crossing::bridge`]).
    #[inline]
    pub(crate) fn may_cross_code(&self, b: u32, goal: u32) -> bool {
        if b == NONE {
            return true;
        }
        let (lo, hi) = self.range[(b >> 1) as usize];
        let g = self.range[goal as usize].0;
        let inside = lo <= g && g <= hi;
        inside == (b & 1 == 1)
    }
}

impl DeadEnds {
    /// The edge slots of polygon `p` as the exact search reads them, counter-clockwise (see
    /// [`Crossing`]).
    #[inline]
    pub(crate) fn crossings(&self, mesh: &NavMesh, p: PolyId) -> &[Crossing] {
        &self.crossing[mesh.slots(p)]
    }
}

/// The slot of `q` across the same edge as global slot `s` of polygon `p`.
fn twin(mesh: &NavMesh, base: &[(usize, usize)], p: usize, s: usize, q: usize) -> usize {
    // The edge of slot `s` runs a → b in p, so b → a in q.
    let (a, b) = (
        mesh.poly_vertices[s],
        mesh.poly_vertices[if s + 1 == base[p].1 { base[p].0 } else { s + 1 }],
    );
    (base[q].0..base[q].1)
        .find(|&t| {
            let next = if t + 1 == base[q].1 { base[q].0 } else { t + 1 };
            mesh.poly_vertices[t] == b && mesh.poly_vertices[next] == a
        })
        .expect("adjacency is symmetric (NavMesh invariant)")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::geom::Vec2;

    fn mesh(v: &[(f64, f64)], polys: Vec<Vec<u32>>) -> NavMesh {
        NavMesh::from_polygons(v.iter().map(|&p| Vec2::from(p)).collect(), polys).unwrap()
    }

    /// A hall `[0, 3]²` around a pillar `[1, 2]²`, in four convex pieces (0 bottom, 1 right,
    /// 2 top, 3 left: a cycle); a room `[3, 4] × [1, 2]` of two triangles (4, 5) behind the door
    /// `x = 3, 1 ≤ y ≤ 2` of polygon 1; and a lone triangle (6) far away.
    fn hall_and_room() -> NavMesh {
        let v = [
            (0.0, 0.0),  // 0
            (3.0, 0.0),  // 1
            (3.0, 3.0),  // 2
            (0.0, 3.0),  // 3
            (1.0, 1.0),  // 4
            (2.0, 1.0),  // 5
            (2.0, 2.0),  // 6
            (1.0, 2.0),  // 7
            (4.0, 1.0),  // 8
            (4.0, 2.0),  // 9
            (3.0, 1.0),  // 10
            (3.0, 2.0),  // 11
            (10.0, 0.0), // 12
            (11.0, 0.0), // 13
            (11.0, 1.0), // 14
        ];
        // The ring around the pillar 4-5-6-7: bottom, right, top, left.
        let polys = vec![
            vec![0, 1, 10, 5, 4], // 0 bottom
            vec![5, 10, 11, 6],   // 1 right (its edge 10 → 11 is the door)
            vec![6, 11, 2, 3, 7], // 2 top
            vec![0, 4, 7, 3],     // 3 left
            vec![10, 8, 9],       // 4 room, first triangle
            vec![10, 9, 11],      // 5 room, second triangle (door 11 → 10)
            vec![12, 13, 14],     // 6 elsewhere
        ];
        mesh(&v, polys)
    }

    #[test]
    fn bridges_are_the_only_ways_in() {
        let m = hall_and_room();
        m.check_invariants().unwrap();
        let de = DeadEnds::new(&m);
        // The door (1 ↔ 5) and the room's inner diagonal (4 ↔ 5) are bridges; the hall's four
        // portals are on the cycle around the pillar.
        assert_eq!(de.bridge_count(), 2);
        let c = |p: u32| de.component(PolyId(p));
        assert!(
            [1, 2, 3].iter().all(|&p| c(p) == c(0)),
            "the hall is one component"
        );
        assert!(c(4) != c(5) && c(5) != c(0) && c(6) != c(0));
        let door = m.shared_edge(PolyId(1), PolyId(5)).unwrap();
        let back = m.shared_edge(PolyId(5), PolyId(1)).unwrap();
        // Goal in the hall: never through the door into the room; out of it, yes.
        assert!(!de.may_cross(&m, PolyId(1), door, c(2)));
        assert!(de.may_cross(&m, PolyId(5), back, c(2)));
        // Goal deep in the room: in through the door, never back out.
        assert!(de.may_cross(&m, PolyId(1), door, c(4)));
        assert!(!de.may_cross(&m, PolyId(5), back, c(4)));
        // Portals on the cycle are always open.
        let e = m.shared_edge(PolyId(0), PolyId(1)).unwrap();
        assert!(de.may_cross(&m, PolyId(0), e, c(4)) && de.may_cross(&m, PolyId(0), e, c(2)));
    }

    #[test]
    fn a_chain_is_all_bridges_and_a_ring_has_none() {
        // Three squares in a row.
        let v = [
            (0.0, 0.0),
            (1.0, 0.0),
            (2.0, 0.0),
            (3.0, 0.0),
            (0.0, 1.0),
            (1.0, 1.0),
            (2.0, 1.0),
            (3.0, 1.0),
        ];
        let chain = mesh(
            &v,
            vec![vec![0, 1, 5, 4], vec![1, 2, 6, 5], vec![2, 3, 7, 6]],
        );
        assert_eq!(chain.dead_ends().bridge_count(), 2);
        // Four squares around a hole.
        let v = [
            (0.0, 0.0),
            (3.0, 0.0),
            (3.0, 3.0),
            (0.0, 3.0),
            (1.0, 1.0),
            (2.0, 1.0),
            (2.0, 2.0),
            (1.0, 2.0),
        ];
        let ring = mesh(
            &v,
            vec![
                vec![0, 1, 5, 4],
                vec![1, 2, 6, 5],
                vec![2, 3, 7, 6],
                vec![3, 0, 4, 7],
            ],
        );
        assert_eq!(ring.dead_ends().bridge_count(), 0);
    }

    /// Polygons reachable from `from` across portals, never across edge `slot` of `cut` (nor
    /// its twin): a breadth-first search, the reference the one-pass construction must match.
    fn reach_without(mesh: &NavMesh, from: PolyId, cut: (PolyId, usize)) -> Vec<bool> {
        let (c, i) = cut;
        let across = mesh.neighbours(c)[i].unwrap();
        let mut seen = vec![false; mesh.polygon_count()];
        let mut queue = std::collections::VecDeque::from([from]);
        seen[from.index()] = true;
        while let Some(p) = queue.pop_front() {
            for (k, n) in mesh.neighbours(p).iter().enumerate() {
                let Some(q) = *n else { continue };
                let cut_here = (p == c && k == i)
                    || (p == across
                        && q == c
                        && mesh.edge(p, k) == {
                            let (a, b) = mesh.edge(c, i);
                            (b, a)
                        });
                if !cut_here && !seen[q.index()] {
                    seen[q.index()] = true;
                    queue.push_back(q);
                }
            }
        }
        seen
    }

    /// Every record against brute force: the neighbour and entry slot of each portal, the
    /// cul-de-sac flag, which portals are bridges (removing one disconnects its sides), which
    /// side of a bridge may be crossed toward every goal, the components and the connected
    /// parts. On built meshes, random scenes and a mesh patched by dynamic updates (whose rows
    /// have slack between them).
    #[test]
    fn every_record_matches_brute_force() {
        use crate::{build, BuildOptions, Scene};
        let mut meshes = vec![build(&Scene::default_map(), &BuildOptions::cdt()).unwrap()];
        let options = crate::random::RandomSceneOptions::default();
        for seed in 1..4 {
            let scene = crate::random::random_scene(seed, &options).unwrap();
            meshes.push(build(&scene, &BuildOptions::cdt()).unwrap());
        }
        let mut nav =
            crate::dynamic::DynamicNavMesh::new(Scene::default_map(), &BuildOptions::cdt(), 100.0)
                .unwrap();
        let mut rng = crate::random::Rng::new(3);
        for _ in 0..30 {
            let (x, y) = (rng.range_f64(20.0, 700.0), rng.range_f64(20.0, 380.0));
            let (w, h) = (rng.range_f64(10.0, 90.0), rng.range_f64(10.0, 60.0));
            nav.add_obstacle([(x, y), (x + w, y), (x + w, y + h), (x, y + h)])
                .unwrap();
            nav.update().unwrap();
        }
        meshes.push(NavMesh::clone(nav.snapshot().mesh()));
        let mut bridges_seen = 0;
        for m in &meshes {
            let de = DeadEnds::new(m);
            let parts = m.connected_components();
            let mut bridges = 0;
            for p in m.polygons() {
                let records = de.crossings(m, p);
                let ring = m.polygon_vertices(p);
                for (i, (r, n)) in records.iter().zip(m.neighbours(p)).enumerate() {
                    assert_eq!(r.vertex, ring[i].0);
                    assert_eq!(r.point, m.vertex(ring[i]));
                    let Some(q) = *n else {
                        assert_eq!((r.next, r.entry, r.bridge), (NONE, NONE, NONE));
                        continue;
                    };
                    assert_eq!(r.next, q.0);
                    let entry = (r.entry & !Crossing::CUL_DE_SAC) as usize;
                    let (a, b) = m.edge(p, i);
                    assert_eq!(m.edge(q, entry), (b, a), "{p} slot {i}");
                    let open = m.neighbours(q).iter().flatten().count();
                    assert_eq!(r.entry & Crossing::CUL_DE_SAC != 0, open < 2);
                    let far = reach_without(m, q, (p, i));
                    let is_bridge = !far[p.index()];
                    assert_eq!(r.bridge != NONE, is_bridge, "{p} slot {i}");
                    bridges += usize::from(is_bridge);
                    if is_bridge {
                        for g in m
                            .polygons()
                            .filter(|g| parts[g.index()] == parts[p.index()])
                        {
                            let toward = de.may_cross(m, p, i, de.component(g));
                            assert_eq!(toward, far[g.index()], "{p} slot {i}, goal {g}");
                        }
                    }
                }
            }
            assert_eq!(de.bridge_count() * 2, bridges);
            bridges_seen += bridges;
            // Components: joined exactly by portals that are not bridges.
            for p in m.polygons() {
                for (i, n) in m.neighbours(p).iter().enumerate() {
                    if let Some(q) = *n {
                        let bridge = de.crossings(m, p)[i].bridge != NONE;
                        assert_eq!(de.component(p) == de.component(q), !bridge);
                    }
                }
                let q = PolyId(((p.0 as usize * 7919) % m.polygon_count()) as u32);
                assert_eq!(de.connected(p, q), parts[p.index()] == parts[q.index()]);
            }
        }
        assert!(
            bridges_seen > 100,
            "the meshes have bridges to check: {bridges_seen}"
        );
    }
}
