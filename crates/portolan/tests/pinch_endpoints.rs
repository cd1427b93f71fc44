//! Endpoints anywhere on the walkable area of random grid maps, pinch vertices above all.
//!
//! A grid map with 15–25% random blocked cells has many *double corners* (two blocked cells
//! touching only diagonally): in the traced outlines they are pinch vertices, where two wedges of
//! free space touch at one point ([`NavMesh::is_pinch`]). The rule every search follows there: a
//! path may start or end on the point and use any of its wedges, but never pass through it from
//! one wedge into another. The visibility-graph oracle models the free space itself and follows
//! the same rule, so on every query:
//! - the exact length equals the oracle's (relative 1e-9), with landmarks too;
//! - the corner search ([`SearchMethod::Corner`]) gives the same length and proves it optimal;
//!   with `epsilon = 0.1` it proves a bound of at most 1.1 and keeps within it;
//! - the funnel path is never shorter than the exact one;
//! - both searches find a path exactly when the oracle does.
//!
//! Endpoints are drawn from pinch vertices (at least a third of the queries have one), other
//! mesh vertices, points on mesh edges and points inside polygons. Blocked pockets that one
//! obstacle would enclose (a hole, which the oracle does not model) are filled first.

use portolan::io::movingai::GridMap;
use portolan::mesh::{NavMesh, OffMeshLink, PolyId, VertexId};
use portolan::random::Rng;
use portolan::search::corner_graph::CornerGraph;
use portolan::search::landmarks::Landmarks;
use portolan::search::visibility::{VisibilityError, VisibilityGraph};
use portolan::{build, BuildOptions, PathError, PathFinder, SearchMethod, SearchOptions, Vec2};
use proptest::prelude::*;
use std::sync::Arc;

/// A `w × h` map with each cell blocked with probability `percent / 100`, then with every free
/// pocket that one group of blocked cells encloses by itself filled (its outline would be a hole
/// or a loop touching itself, which the oracle does not model). Pockets that several groups, or
/// a group and the map side, close off stay: queries into them have no path.
fn grid(w: usize, h: usize, percent: u64, seed: u64) -> GridMap {
    let mut rng = Rng::new(seed);
    let mut blocked: Vec<bool> = (0..w * h).map(|_| rng.next_u64() % 100 < percent).collect();
    // 4-connected components of the cells with `blocked == which`.
    let components = |blocked: &[bool], which: bool| {
        let mut label = vec![usize::MAX; w * h];
        let mut next = 0;
        for first in 0..w * h {
            if blocked[first] != which || label[first] != usize::MAX {
                continue;
            }
            let mut stack = vec![first];
            label[first] = next;
            while let Some(c) = stack.pop() {
                let (x, y) = (c % w, c / w);
                let mut push = |n: usize| {
                    if blocked[n] == which && label[n] == usize::MAX {
                        label[n] = next;
                        stack.push(n);
                    }
                };
                if x > 0 {
                    push(c - 1);
                }
                if x + 1 < w {
                    push(c + 1);
                }
                if y > 0 {
                    push(c - w);
                }
                if y + 1 < h {
                    push(c + w);
                }
            }
            next += 1;
        }
        (label, next)
    };
    loop {
        let (group, _) = components(&blocked, true);
        let (pocket, pockets) = components(&blocked, false);
        // Per free component: the one blocked group around it, `usize::MAX - 1` for several
        // (or the map side), `usize::MAX` while none is seen.
        let mut around = vec![usize::MAX; pockets];
        for c in (0..w * h).filter(|&c| !blocked[c]) {
            let (x, y) = ((c % w) as i64, (c / w) as i64);
            for (dx, dy) in [
                (-1, -1),
                (0, -1),
                (1, -1),
                (-1, 0),
                (1, 0),
                (-1, 1),
                (0, 1),
                (1, 1),
            ] {
                let (nx, ny) = (x + dx, y + dy);
                let g = if nx < 0 || ny < 0 || nx >= w as i64 || ny >= h as i64 {
                    usize::MAX - 1
                } else if blocked[ny as usize * w + nx as usize] {
                    group[ny as usize * w + nx as usize]
                } else {
                    continue;
                };
                let a = &mut around[pocket[c]];
                *a = match *a {
                    usize::MAX => g,
                    x if x == g => x,
                    _ => usize::MAX - 1,
                };
            }
        }
        let enclosed = |c: usize| around[pocket[c]] < usize::MAX - 1;
        if !(0..w * h).any(|c| !blocked[c] && enclosed(c)) {
            return GridMap::new(w, h, blocked).expect("sizes agree");
        }
        blocked = (0..w * h).map(|c| blocked[c] || enclosed(c)).collect();
    }
}

/// Where an endpoint is drawn from.
#[derive(Clone, Copy, Debug, PartialEq)]
enum Kind {
    Pinch,
    Vertex,
    Edge,
    Inside,
}

/// A point of the kind asked for, or `None` when the mesh has none (no pinch vertex).
fn draw(mesh: &NavMesh, pinches: &[VertexId], kind: Kind, rng: &mut Rng) -> Option<Vec2> {
    let poly = PolyId(rng.range_usize(0, mesh.polygon_count() - 1) as u32);
    let vs = mesh.polygon_vertices(poly);
    let k = rng.range_usize(0, vs.len() - 1);
    Some(match kind {
        Kind::Pinch if pinches.is_empty() => return None,
        Kind::Pinch => mesh.vertex(pinches[rng.range_usize(0, pinches.len() - 1)]),
        Kind::Vertex => mesh.vertex(vs[k]),
        Kind::Edge => {
            // Dyadic fractions of an edge between integer points: exactly on the edge.
            let (a, b) = mesh.edge(poly, k);
            a.lerp(b, rng.range_usize(1, 7) as f64 / 8.0)
        }
        // The centroid moved a random part of the way toward a vertex: inside (convex polygon).
        Kind::Inside => mesh
            .centroid(poly)
            .lerp(mesh.vertex(vs[k]), rng.range_f64(0.0, 0.9)),
    })
}

const KINDS: [Kind; 4] = [Kind::Pinch, Kind::Vertex, Kind::Edge, Kind::Inside];

/// What one query found, for the counts.
struct Checked {
    pinch: bool,
    found: bool,
}

fn check_query(
    mesh: &NavMesh,
    oracle: &VisibilityGraph,
    landmarks: &Arc<Landmarks>,
    graph: &Arc<CornerGraph>,
    finder: &mut PathFinder,
    s: Vec2,
    g: Vec2,
) -> Result<Checked, TestCaseError> {
    let exact = SearchOptions::exact();
    let with_landmarks = exact.clone().with_landmarks(Some(Arc::clone(landmarks)));
    let want = match oracle.shortest_path(s, g) {
        Ok(p) => Some(p.length),
        Err(VisibilityError::NoPath) => None,
        Err(e) => return Err(TestCaseError::fail(format!("{s} -> {g}: oracle: {e}"))),
    };
    let got = finder.find_path(mesh, s, g, &exact);
    let funnel = finder.find_path(mesh, s, g, &SearchOptions::default());
    match (want, &got, &funnel) {
        (Some(w), Ok(e), Ok(f)) => {
            prop_assert!(
                (e.length - w).abs() <= 1e-9 * w.max(1.0),
                "{s} -> {g}: exact {} vs oracle {w}: {:?}",
                e.length,
                e.points
            );
            let l = finder
                .find_path(mesh, s, g, &with_landmarks)
                .map_err(|e| TestCaseError::fail(format!("{s} -> {g}: with landmarks: {e}")))?;
            prop_assert!(
                (l.length - w).abs() <= 1e-9 * w.max(1.0),
                "{s} -> {g}: exact with landmarks {} vs oracle {w}",
                l.length
            );
            prop_assert!(
                f.length >= e.length * (1.0 - 1e-12),
                "{s} -> {g}: funnel {} < exact {}",
                f.length,
                e.length
            );
            prop_assert_eq!(e.points.first(), Some(&s));
            prop_assert_eq!(e.points.last(), Some(&g));
            // The corner search: the same length, proved optimal; with an epsilon, within it.
            let corner = SearchOptions::corner(Arc::clone(graph));
            let c = finder
                .find_path(mesh, s, g, &corner)
                .map_err(|e| TestCaseError::fail(format!("{s} -> {g}: corner: {e}")))?;
            prop_assert!(
                (c.length - w).abs() <= 1e-9 * w.max(1.0),
                "{s} -> {g}: corner {} vs oracle {w}: {:?}",
                c.length,
                c.points
            );
            prop_assert_eq!(c.bound, Some(1.0));
            let b = finder
                .find_path(mesh, s, g, &corner.with_epsilon(0.1))
                .map_err(|e| TestCaseError::fail(format!("{s} -> {g}: corner, epsilon: {e}")))?;
            let bound = b.bound.unwrap_or(f64::INFINITY);
            prop_assert!(
                bound <= 1.1 && b.length <= bound * w * (1.0 + 1e-9) + 1e-9,
                "{s} -> {g}: corner with epsilon 0.1: {} (bound {bound}) vs oracle {w}",
                b.length
            );
        }
        (None, Err(PathError::NoPath), _) => {
            prop_assert!(
                matches!(
                    finder.find_path(mesh, s, g, &SearchOptions::corner(Arc::clone(graph))),
                    Err(PathError::NoPath)
                ),
                "{s} -> {g}: the corner search found a path the oracle did not"
            );
            prop_assert!(
                matches!(funnel, Err(PathError::NoPath)),
                "{s} -> {g}: funnel {funnel:?}"
            );
        }
        _ => prop_assert!(
            false,
            "{s} -> {g}: oracle {want:?}, exact {:?}, funnel {:?}",
            got.map(|p| p.length),
            funnel.map(|p| p.length)
        ),
    }
    let on_pinch = |p: Vec2| matches!(mesh.locate(p), portolan::Location::OnVertex { vertex, .. } if mesh.is_pinch(vertex));
    Ok(Checked {
        pinch: on_pinch(s) || on_pinch(g),
        found: want.is_some(),
    })
}

/// Queries checked so far: all, with an end on a pinch vertex, with a path.
#[derive(Clone, Copy, Default)]
struct Tally {
    all: usize,
    pinch: usize,
    found: usize,
}

impl Tally {
    fn add(cell: &std::cell::Cell<Tally>, c: &Checked) {
        let mut t = cell.get();
        t.all += 1;
        t.pinch += usize::from(c.pinch);
        t.found += usize::from(c.found);
        cell.set(t);
    }
}

/// `count` random queries on `mesh`, checked with [`check_query`]: every other one starts on a
/// pinch vertex (when the mesh has one); the other starts and all goals are of a random kind.
/// Returns how many were checked.
fn random_queries(
    mesh: &NavMesh,
    oracle: &VisibilityGraph,
    count: usize,
    seed: u64,
    tally: &std::cell::Cell<Tally>,
) -> Result<usize, TestCaseError> {
    let landmarks = Arc::new(Landmarks::build(mesh, 4));
    let graph = Arc::new(CornerGraph::build(mesh));
    let pinches: Vec<VertexId> = (0..mesh.vertex_count() as u32)
        .map(VertexId)
        .filter(|&v| mesh.is_pinch(v) && !mesh.vertex_polygons(v).is_empty())
        .collect();
    let mut rng = Rng::new(seed ^ 0x9e37_79b9_7f4a_7c15);
    let mut finder = PathFinder::new();
    let mut n = 0;
    for i in 0..count {
        let ks = if i % 2 == 0 {
            Kind::Pinch
        } else {
            KINDS[rng.range_usize(0, 3)]
        };
        let kg = KINDS[rng.range_usize(0, 3)];
        let (Some(s), Some(g)) = (
            draw(mesh, &pinches, ks, &mut rng),
            draw(mesh, &pinches, kg, &mut rng),
        ) else {
            continue;
        };
        Tally::add(
            tally,
            &check_query(mesh, oracle, &landmarks, &graph, &mut finder, s, g)?,
        );
        n += 1;
    }
    Ok(n)
}

#[test]
fn endpoints_on_pinch_vertices_edges_and_vertices_match_the_oracle() {
    let input = (16usize..=64, 16usize..=64, 15u64..=25, any::<u64>());
    let queries_per_map = 12;
    let cases = 64;
    let tally = std::cell::Cell::new(Tally::default());
    let apart_count = std::cell::Cell::new(0usize);
    let compared =
        portolan::testkit::check_counted(file!(), cases, input, |(w, h, percent, seed)| {
            let map = grid(w, h, percent, seed);
            let scene = map.to_scene();
            let mesh = match build(&scene, &BuildOptions::cdt()) {
                Ok(m) => m,
                // A map blocked all over (very unlikely at these densities).
                Err(portolan::BuildError::NoWalkableSpace) => return Ok(0),
                Err(e) => return Err(TestCaseError::fail(format!("build: {e}"))),
            };
            let oracle = VisibilityGraph::new(&scene)
                .map_err(|e| TestCaseError::fail(format!("oracle: {e}")))?;
            // One query per map from one connected part into another, when there are two.
            let part = mesh.connected_components();
            let apart = (1..part.len()).find(|&p| part[p] != part[0]);
            if let Some(other) = apart {
                let inside = |p: usize| mesh.centroid(PolyId(p as u32));
                let landmarks = Arc::new(Landmarks::build(&mesh, 4));
                let graph = Arc::new(CornerGraph::build(&mesh));
                let mut finder = PathFinder::new();
                let (s, g) = (inside(0), inside(other));
                let c = check_query(&mesh, &oracle, &landmarks, &graph, &mut finder, s, g)?;
                prop_assert!(!c.found, "separate parts of the mesh were joined");
                Tally::add(&tally, &c);
                apart_count.set(apart_count.get() + 1);
            }
            let n = random_queries(&mesh, &oracle, queries_per_map, seed, &tally)?;
            Ok(n + usize::from(apart.is_some()))
        });
    let Tally { all, pinch, found } = tally.get();
    eprintln!(
        "queries: {all}; with a pinch end: {pinch}; with a path: {found}; checked: {compared}; \
         between parts: {}",
        apart_count.get()
    );
    let total = cases as usize * queries_per_map;
    assert!(
        compared >= total * 9 / 10,
        "only {compared} of {total} queries compared"
    );
    // Counted over every case run (shrinking included), so these are ratios.
    assert!(
        pinch * 3 >= all,
        "only {pinch} of {all} queries had an endpoint on a pinch vertex"
    );
    assert!(found * 2 >= all, "only {found} of {all} queries had a path");
    assert!(
        apart_count.get() * 4 >= cases as usize,
        "only {} maps had two parts to query between",
        apart_count.get()
    );
}

/// A 100 × 80 map whose obstacles are thin triangles with their tips on the corners of a
/// 10 × 8 grid of cells, at most one per corner and quadrant: where two or more share a corner,
/// the free space pinches there, and where two sit in neighbouring quadrants, one wedge of free
/// space at the pinch is reflex, so shortest paths may turn at the pinch vertex in that wedge.
fn touching_triangles(seed: u64) -> portolan::Scene {
    let mut rng = Rng::new(seed);
    let mut scene = portolan::Scene::new(portolan::geom::Aabb::new(
        Vec2::ZERO,
        Vec2::new(100.0, 80.0),
    ));
    for cy in 1..8 {
        for cx in 1..10 {
            if rng.next_u64().is_multiple_of(2) {
                continue;
            }
            let tip = Vec2::new(cx as f64 * 10.0, cy as f64 * 10.0);
            for quadrant in 0..4 {
                if rng.next_u64().is_multiple_of(3) {
                    continue;
                }
                // Two directions inside the quadrant (at least 4° apart, 3° from its sides)
                // and lengths below half a cell: triangles from other corners stay clear.
                let base = quadrant as f64 * 90.0;
                let a = rng.range_f64(base + 3.0, base + 83.0);
                let b = rng.range_f64(a + 4.0, base + 87.0);
                let at = |deg: f64, len: f64| {
                    let (s, c) = portolan::random::sin_cos(deg.to_radians());
                    // On a 1/16 grid, which the build keeps exactly (it snaps other points).
                    let r = |x: f64| (x * 16.0).round() / 16.0;
                    Vec2::new(r(tip.x + len * c), r(tip.y + len * s))
                };
                let (p, q) = (
                    at(a, rng.range_f64(2.0, 4.5)),
                    at(b, rng.range_f64(2.0, 4.5)),
                );
                scene.obstacles.push(vec![tip, p, q]);
            }
        }
    }
    scene
}

#[test]
fn touching_obstacles_with_reflex_wedges_at_their_pinches_match_the_oracle() {
    let cases = 48;
    let queries_per_scene = 16;
    let tally = std::cell::Cell::new(Tally::default());
    let compared = portolan::testkit::check_counted(file!(), cases, any::<u64>(), |seed| {
        let scene = touching_triangles(seed);
        let mesh = build(&scene, &BuildOptions::cdt())
            .map_err(|e| TestCaseError::fail(format!("build: {e}")))?;
        let oracle = VisibilityGraph::new(&scene)
            .map_err(|e| TestCaseError::fail(format!("oracle: {e}")))?;
        random_queries(&mesh, &oracle, queries_per_scene, seed, &tally)
    });
    let pinch_ends = tally.get().pinch;
    let total = cases as usize * queries_per_scene;
    assert!(
        compared >= total * 9 / 10,
        "only {compared} of {total} compared"
    );
    assert!(
        pinch_ends * 3 >= compared,
        "only {pinch_ends} of {compared} queries had a pinch end"
    );
}

// Degenerate pairs on hand-made meshes, each with its expected answer from both searches.

/// Two unit squares A = [0, 1]² and B = [1, 2]² touching only at the pinch (1, 1), square
/// C = [5, 6]² apart, and squares E = [10, 11]² and F = [11, 12]² touching at the pinch (11, 11).
fn pinched_mesh() -> NavMesh {
    let mut v = Vec::new();
    let mut polys = Vec::new();
    let mut square = |x: f64, y: f64| {
        let base = v.len() as u32;
        v.extend([
            Vec2::new(x, y),
            Vec2::new(x + 1.0, y),
            Vec2::new(x + 1.0, y + 1.0),
            Vec2::new(x, y + 1.0),
        ]);
        polys.push(vec![base, base + 1, base + 2, base + 3]);
    };
    for (x, y) in [
        (0.0, 0.0),
        (1.0, 1.0),
        (5.0, 5.0),
        (10.0, 10.0),
        (11.0, 11.0),
    ] {
        square(x, y);
    }
    // The squares that touch share their corner vertex (so the mesh has pinch vertices).
    let (mut v2, mut idx) = (Vec::<Vec2>::new(), Vec::new());
    for p in v {
        idx.push(match v2.iter().position(|&q| q == p) {
            Some(i) => i as u32,
            None => {
                v2.push(p);
                v2.len() as u32 - 1
            }
        });
    }
    let polys = polys
        .into_iter()
        .map(|ring| ring.into_iter().map(|i| idx[i as usize]).collect())
        .collect();
    NavMesh::from_polygons(v2, polys).unwrap()
}

fn p(x: f64, y: f64) -> Vec2 {
    Vec2::new(x, y)
}

/// Both searches, with `options` for everything but the method: the same answer, `Ok` with the
/// expected length (and ends), or the expected error.
fn both(mesh: &NavMesh, s: Vec2, g: Vec2, options: &SearchOptions, want: Result<f64, PathError>) {
    for method in [SearchMethod::Exact, SearchMethod::Funnel] {
        let opts = options.clone().with_method(method);
        let got = PathFinder::new().find_path(mesh, s, g, &opts);
        match (&got, &want) {
            (Ok(path), Ok(len)) => {
                assert!(
                    (path.cost(mesh) - len).abs() < 1e-12,
                    "{method:?} {s} -> {g}: cost {} want {len}: {:?}",
                    path.cost(mesh),
                    path.points
                );
                assert_eq!(path.points.first(), Some(&s), "{method:?}");
                assert!(path.is_complete(), "{method:?}");
                assert_eq!(path.points.last(), Some(&g), "{method:?}");
            }
            (Err(e), Err(w)) => assert_eq!(e, w, "{method:?} {s} -> {g}"),
            _ => panic!("{method:?} {s} -> {g}: got {got:?}, want {want:?}"),
        }
    }
}

#[test]
fn start_equal_to_goal_on_a_pinch_vertex() {
    let m = pinched_mesh();
    both(
        &m,
        p(1.0, 1.0),
        p(1.0, 1.0),
        &SearchOptions::default(),
        Ok(0.0),
    );
    let path = PathFinder::new()
        .find_path(&m, p(1.0, 1.0), p(1.0, 1.0), &SearchOptions::exact())
        .unwrap();
    assert_eq!(path.points, vec![p(1.0, 1.0)]);
}

#[test]
fn a_pinch_end_leaves_or_arrives_through_either_wedge_but_no_path_passes_it() {
    let m = pinched_mesh();
    let d = 0.5f64.sqrt();
    let opts = SearchOptions::default();
    for q in [p(0.5, 0.5), p(1.5, 1.5)] {
        both(&m, p(1.0, 1.0), q, &opts, Ok(d));
        both(&m, q, p(1.0, 1.0), &opts, Ok(d));
    }
    // Along a wall of either square to the pinch.
    both(&m, p(1.0, 0.0), p(1.0, 1.0), &opts, Ok(1.0));
    both(&m, p(1.0, 1.0), p(2.0, 1.0), &opts, Ok(1.0));
    // Through the pinch from one square to the other: no.
    both(&m, p(0.5, 0.5), p(1.5, 1.5), &opts, Err(PathError::NoPath));
    both(&m, p(1.0, 0.0), p(2.0, 1.0), &opts, Err(PathError::NoPath));
}

/// The grid form of the same: the double corner (1, 1) of `.@` over `@.`, and the same corner
/// named as two different cells' corners is one point: the path is empty.
#[test]
fn both_ends_on_one_double_corner_of_a_grid_map() {
    let map = GridMap::new(2, 2, vec![false, true, true, false]).unwrap();
    let mesh = build(&map.to_scene(), &BuildOptions::cdt()).unwrap();
    let corner = p(1.0, 1.0);
    let VertexId(_) = match mesh.locate(corner) {
        portolan::Location::OnVertex { vertex, .. } => {
            assert!(mesh.is_pinch(vertex));
            vertex
        }
        other => panic!("{other:?}"),
    };
    both(&mesh, corner, corner, &SearchOptions::default(), Ok(0.0));
    // Into the north-west cell and into the south-east one (y grows south).
    let d = 0.5f64.sqrt();
    both(&mesh, corner, p(0.5, 0.5), &SearchOptions::default(), Ok(d));
    both(&mesh, p(1.5, 1.5), corner, &SearchOptions::default(), Ok(d));
    both(
        &mesh,
        p(0.5, 0.5),
        p(1.5, 1.5),
        &SearchOptions::default(),
        Err(PathError::NoPath),
    );
}

#[test]
fn a_filter_closing_one_side_of_a_pinch() {
    let m = pinched_mesh();
    let (a, b) = (PolyId(0), PolyId(1));
    assert_eq!(m.locate(p(0.5, 0.5)).polygon(), Some(a));
    assert_eq!(m.locate(p(1.5, 1.5)).polygon(), Some(b));
    let closing = |poly: PolyId| {
        let mut f = portolan::PolygonFilter::new();
        f.exclude(poly);
        SearchOptions::default().with_filter(Some(Arc::new(f)))
    };
    let d = 0.5f64.sqrt();
    // B closed: the pinch is still reached through A, and left into A.
    both(&m, p(0.5, 0.5), p(1.0, 1.0), &closing(b), Ok(d));
    both(&m, p(1.0, 1.0), p(0.5, 0.5), &closing(b), Ok(d));
    // A goal only in the closed square is unreachable, from the pinch too.
    both(
        &m,
        p(1.0, 1.0),
        p(1.5, 1.5),
        &closing(b),
        Err(PathError::NoPath),
    );
    // A start in a closed square may leave it, but only into open polygons: the pinch is on
    // the closed square's side only by passing through it.
    both(
        &m,
        p(1.5, 1.5),
        p(1.0, 1.0),
        &closing(b),
        Err(PathError::NoPath),
    );
}

#[test]
fn an_off_mesh_link_from_and_to_a_pinch_vertex() {
    let d = 0.5f64.sqrt();
    let opts = SearchOptions::default();
    // Taking off from the pinch, reached from either square.
    let m = pinched_mesh()
        .with_links([OffMeshLink::new(p(1.0, 1.0), p(5.5, 5.5), 1.0)])
        .unwrap();
    both(&m, p(0.5, 0.5), p(5.5, 5.5), &opts, Ok(d + 1.0));
    both(&m, p(1.5, 1.5), p(5.5, 5.5), &opts, Ok(d + 1.0));
    both(&m, p(1.0, 1.0), p(5.0, 5.0), &opts, Ok(1.0 + d));
    // Landing on the pinch, and going on into either square.
    let m = pinched_mesh()
        .with_links([OffMeshLink::new(p(5.5, 5.5), p(1.0, 1.0), 1.0)])
        .unwrap();
    both(&m, p(5.5, 5.5), p(0.5, 0.5), &opts, Ok(1.0 + d));
    both(&m, p(5.5, 5.5), p(1.5, 1.5), &opts, Ok(1.0 + d));
    both(&m, p(5.5, 5.5), p(1.0, 1.0), &opts, Ok(1.0));
}

#[test]
fn a_partial_path_toward_a_pinch_vertex_in_an_unreachable_pocket() {
    let m = pinched_mesh();
    let partial = SearchOptions::exact().with_allow_partial(true);
    let mut finder = PathFinder::new();
    // From A, the pinch of E and F is out of reach; the nearest reachable point to it is A's
    // corner (1, 1), itself a pinch vertex, reached straight.
    for opts in [partial.clone(), partial.with_method(SearchMethod::Funnel)] {
        let path = finder
            .find_path(&m, p(0.5, 0.5), p(11.0, 11.0), &opts)
            .unwrap();
        assert_eq!(
            path.status,
            portolan::PathStatus::Partial(portolan::search::PartialReason::Unreachable),
            "{:?}",
            opts.method
        );
        assert_eq!(
            path.points,
            vec![p(0.5, 0.5), p(1.0, 1.0)],
            "{:?}",
            opts.method
        );
        // From B: its far corner (2, 2).
        let path = finder
            .find_path(&m, p(1.5, 1.5), p(11.0, 11.0), &opts)
            .unwrap();
        assert_eq!(
            path.points,
            vec![p(1.5, 1.5), p(2.0, 2.0)],
            "{:?}",
            opts.method
        );
    }
    // Without partial paths: no path.
    both(
        &m,
        p(0.5, 0.5),
        p(11.0, 11.0),
        &SearchOptions::default(),
        Err(PathError::NoPath),
    );
}

/// Batch queries, raycasts and snapping take pinch points like any other point.
#[test]
fn batch_raycast_and_snapping_at_a_pinch() {
    let m = pinched_mesh();
    let queries = [
        (p(1.0, 1.0), p(0.5, 0.5)),
        (p(1.5, 1.5), p(1.0, 1.0)),
        (p(1.0, 1.0), p(1.0, 1.0)),
    ];
    for opts in [SearchOptions::default(), SearchOptions::exact()] {
        let out = portolan::search::batch::find_paths(&m, &queries, &opts);
        for (q, r) in queries.iter().zip(out) {
            let path = r.unwrap_or_else(|e| panic!("{q:?}: {e}"));
            assert_eq!(path.points.first(), Some(&q.0));
            assert_eq!(path.points.last(), Some(&q.1));
        }
    }
    let ray = portolan::search::raycast::raycast(&m, p(1.0, 1.0), p(1.5, 1.5)).unwrap();
    assert!(ray.is_clear());
    // A point in the empty quadrant beside the pinch snaps onto the nearer wall, and goes on
    // into that square (or up to the pinch) like any other point.
    let snapped = SearchOptions::exact().with_snap(portolan::search::Snap::Within(1.0));
    assert_eq!(
        m.nearest_point(p(1.1, 0.8), 1.0).map(|(_, q)| q),
        Some(p(1.0, 0.8))
    );
    let path = PathFinder::new()
        .find_path(&m, p(1.1, 0.8), p(1.0, 1.0), &snapped)
        .unwrap();
    assert_eq!(path.points, vec![p(1.0, 0.8), p(1.0, 1.0)]);
}
