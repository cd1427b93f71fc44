//! The exact search against a brute-force oracle on seeded random scenes.
//!
//! Scenes: a 700 × 400 rectangle with convex obstacles, one per cell of a 5 × 4 grid (random
//! points on an ellipse, rounded to integers), built with the trapezoid decomposition. Oracle: a
//! visibility graph over the start, the goal and every obstacle vertex, searched with Dijkstra.
//! A segment is visible when it neither crosses an obstacle edge properly nor runs through an
//! obstacle's interior between two of its contact points (decided with the exact `orient`).
//!
//! Checked on every query: the exact length equals the oracle's (relative 1e-9), never exceeds
//! the funnel's, every leg of the exact path is visible, and its channel is a chain of neighbours.

use portolan::geom::{orient, point_in_polygon, Aabb, PointInPolygon, Vec2};
use portolan::mesh::OffMeshLink;
use portolan::search::visibility::{VisibilityError, VisibilityGraph};
use portolan::{build, BuildOptions, PathError, PathFinder, Scene, SearchOptions};
use proptest::prelude::*;

const W: f64 = 700.0;
const H: f64 = 400.0;
const COLS: usize = 5;
const ROWS: usize = 4;

fn convex_ring(x0: f64, y0: f64, cw: f64, ch: f64, angles: &[f64], squash: f64) -> Vec<Vec2> {
    let (cx, cy) = (x0 + cw / 2.0, y0 + ch / 2.0);
    let (rx, ry) = (cw * 0.42, ch * 0.42 * squash);
    let mut a = angles.to_vec();
    a.sort_by(f64::total_cmp);
    let mut ring: Vec<Vec2> = a
        .iter()
        .map(|t| Vec2::new((cx + rx * t.cos()).round(), (cy + ry * t.sin()).round()))
        .collect();
    ring.dedup();
    while ring.len() > 1 && ring.first() == ring.last() {
        ring.pop();
    }
    ring
}

fn strictly_convex(ring: &[Vec2]) -> bool {
    let n = ring.len();
    n >= 3 && (0..n).all(|i| orient(ring[i], ring[(i + 1) % n], ring[(i + 2) % n]).is_ccw())
}

prop_compose! {
    fn scene()(cells in prop::collection::vec(
        (0u8..10, prop::collection::vec(0.0..std::f64::consts::TAU, 3..8), 0.2f64..1.0),
        COLS * ROWS,
    )) -> Scene {
        let (cw, ch) = (W / COLS as f64, H / ROWS as f64);
        let mut s = Scene::new(Aabb::new(Vec2::ZERO, Vec2::new(W, H)));
        for (i, (keep, angles, squash)) in cells.into_iter().enumerate() {
            if keep < 3 {
                continue;
            }
            let (x0, y0) = ((i % COLS) as f64 * cw, (i / COLS) as f64 * ch);
            let ring = convex_ring(x0, y0, cw, ch, &angles, squash);
            if strictly_convex(&ring) {
                s.obstacles.push(ring);
            }
        }
        s
    }
}

/// Not inside an obstacle (on its boundary is fine: obstacle corners are query points too).
fn free(scene: &Scene, p: Vec2) -> bool {
    scene
        .obstacles
        .iter()
        .all(|o| point_in_polygon(o, p) != PointInPolygon::Inside)
}

#[test]
fn exact_equals_visibility_graph_and_beats_funnel() {
    let input = (
        scene(),
        prop::collection::vec((0.0..1.0f64, 0.0..1.0f64, 0.0..1.0f64, 0.0..1.0f64), 6),
    );
    let compared = portolan::testkit::check_counted(file!(), 120, input, |(scene, queries)| {
        let mut compared = 0;
        let mesh = build(&scene, &BuildOptions::trapezoid()).unwrap();
        // The oracle: the library's visibility graph, which shares no code with the mesh.
        let graph = VisibilityGraph::new(&scene).unwrap();
        let mut finder = PathFinder::new();
        let exact = SearchOptions::exact();
        let funnel = SearchOptions::default();
        // Random free points, and obstacle corners as endpoints (start/goal on mesh vertices).
        let corners: Vec<Vec2> = scene.obstacles.iter().flatten().copied().collect();
        for (i, (a, b, c, d)) in queries.into_iter().enumerate() {
            let (s, g) = if i % 3 == 2 && corners.len() > 1 {
                let k =
                    |u: f64| corners[((u * corners.len() as f64) as usize).min(corners.len() - 1)];
                (k(a), k(c))
            } else {
                (Vec2::new(a * W, b * H), Vec2::new(c * W, d * H))
            };
            if !free(&scene, s) || !free(&scene, g) {
                continue;
            }
            let want = match graph.shortest_path(s, g) {
                Ok(p) => Some(p.length),
                Err(VisibilityError::NoPath) => None,
                Err(e) => panic!("{s} -> {g}: the oracle refused a free pair: {e}"),
            };
            let got = finder.find_path(&mesh, s, g, &exact);
            match (want, &got) {
                (None, Err(PathError::NoPath)) => compared += 1,
                (Some(w), Ok(p)) => {
                    compared += 1;
                    prop_assert!(
                        (p.length - w).abs() <= 1e-9 * w.max(1.0),
                        "{s} -> {g}: exact {} vs oracle {w}: {:?}",
                        p.length,
                        p.points
                    );
                    for leg in p.points.windows(2) {
                        prop_assert!(
                            graph.visible(leg[0], leg[1]),
                            "leg {} -> {} blocked",
                            leg[0],
                            leg[1]
                        );
                    }
                    for w in p.channel.windows(2) {
                        prop_assert!(mesh.shared_edge(w[0], w[1]).is_some());
                    }
                    let f = finder.find_path(&mesh, s, g, &funnel).unwrap();
                    prop_assert!(
                        p.length <= f.length * (1.0 + 1e-12),
                        "exact {} > funnel {}",
                        p.length,
                        f.length
                    );
                }
                _ => prop_assert!(false, "{s} -> {g}: oracle {want:?}, exact {got:?}"),
            }
        }

        Ok(compared)
    });
    // Random points fall inside obstacles now and then (~8%): about 660 of 720 are compared.
    assert!(
        compared >= 540,
        "only {compared} of 720 queries compared with the oracle"
    );
}

/// The cheapest cost from `s` to `g` with links: Dijkstra over the start, the goal and the link
/// ends, joined by free-space shortest paths (the visibility graph) and by the links themselves.
fn oracle_with_links(
    graph: &VisibilityGraph,
    links: &[OffMeshLink],
    s: Vec2,
    g: Vec2,
) -> Option<f64> {
    let mut points = vec![s, g];
    for l in links {
        points.extend([l.from, l.to]);
    }
    let walk = |a: Vec2, b: Vec2| graph.shortest_path(a, b).ok().map(|p| p.length);
    let n = points.len();
    let mut best = vec![f64::INFINITY; n];
    let mut done = vec![false; n];
    best[0] = 0.0;
    while let Some(i) = (0..n)
        .filter(|&i| !done[i] && best[i].is_finite())
        .min_by(|&a, &b| best[a].total_cmp(&best[b]))
    {
        done[i] = true;
        for j in 0..n {
            if done[j] {
                continue;
            }
            let mut step = walk(points[i], points[j]).unwrap_or(f64::INFINITY);
            // Link k joins points 2 + 2k (from) and 3 + 2k (to).
            for (k, l) in links.iter().enumerate() {
                if (i, j) == (2 + 2 * k, 3 + 2 * k)
                    || (l.bidirectional && (i, j) == (3 + 2 * k, 2 + 2 * k))
                {
                    step = step.min(l.cost);
                }
            }
            best[j] = best[j].min(best[i] + step);
        }
    }
    best[1].is_finite().then_some(best[1])
}

#[test]
fn exact_with_links_is_the_cheapest_way_and_beats_funnel() {
    let input = (
        scene(),
        // Links: ends as fractions of the map, a cost as a fraction of the straight distance
        // (below 1: shortcuts, which a plain Euclidean heuristic would overestimate), direction.
        prop::collection::vec(
            (
                0.0..1.0f64,
                0.0..1.0f64,
                0.0..1.0f64,
                0.0..1.0f64,
                0.0..1.2f64,
                any::<bool>(),
            ),
            1..7,
        ),
        prop::collection::vec((0.0..1.0f64, 0.0..1.0f64, 0.0..1.0f64, 0.0..1.0f64), 5),
    );
    // (About 540 of the 600 queries are compared, about 150 of them take a link.)
    let taken = std::cell::Cell::new(0usize);
    let compared =
        portolan::testkit::check_counted(file!(), 120, input, |(scene, raw_links, queries)| {
            let at = |u: f64, v: f64| Vec2::new(u * W, v * H);
            let links: Vec<OffMeshLink> = raw_links
                .into_iter()
                .map(|(a, b, c, d, k, both)| {
                    let (from, to) = (at(a, b), at(c, d));
                    let l = OffMeshLink::new(from, to, k * from.distance(to));
                    if both {
                        l.bidirectional()
                    } else {
                        l
                    }
                })
                .filter(|l| free(&scene, l.from) && free(&scene, l.to))
                .collect();
            let mesh = build(&scene, &BuildOptions::trapezoid())
                .unwrap()
                .with_links(links.clone())
                .unwrap();
            let graph = VisibilityGraph::new(&scene).unwrap();
            let mut finder = PathFinder::new();
            let exact = SearchOptions::exact();
            let mut compared = 0;
            for (i, (a, b, c, d)) in queries.into_iter().enumerate() {
                let (mut s, mut g) = (at(a, b), at(c, d));
                if i % 2 == 1 && !links.is_empty() {
                    // Near the ends of a link, where taking it is likely to pay.
                    let l = links[i % links.len()];
                    (s, g) = (l.from.lerp(s, 0.1), l.to.lerp(g, 0.1));
                }
                if !free(&scene, s) || !free(&scene, g) {
                    continue;
                }
                let want = oracle_with_links(&graph, &links, s, g);
                let got = finder.find_path(&mesh, s, g, &exact);
                compared += 1;
                match (want, &got) {
                    (None, Err(PathError::NoPath)) => {}
                    (Some(w), Ok(p)) => {
                        let c = p.cost(&mesh);
                        prop_assert!(
                            (c - w).abs() <= 1e-9 * w.max(1.0),
                            "{s} -> {g}: exact cost {c} vs oracle {w}: {:?} {:?}",
                            p.points,
                            p.links
                        );
                        prop_assert_eq!(p.points[0], s);
                        prop_assert_eq!(*p.points.last().unwrap(), g);
                        let link_segments: Vec<usize> = p.links.iter().map(|t| t.segment).collect();
                        for t in &p.links {
                            let l = links[t.link.index()];
                            let ends = if t.reversed {
                                (l.to, l.from)
                            } else {
                                (l.from, l.to)
                            };
                            prop_assert!(l.bidirectional || !t.reversed);
                            prop_assert_eq!((p.points[t.segment], p.points[t.segment + 1]), ends);
                        }
                        for (i, leg) in p.points.windows(2).enumerate() {
                            if !link_segments.contains(&i) {
                                prop_assert!(
                                    graph.visible(leg[0], leg[1]),
                                    "leg {} -> {} blocked",
                                    leg[0],
                                    leg[1]
                                );
                            }
                        }
                        taken.set(taken.get() + usize::from(!p.links.is_empty()));
                        if let Ok(f) = finder.find_path(&mesh, s, g, &SearchOptions::default()) {
                            let fc = f.cost(&mesh);
                            prop_assert!(c <= fc * (1.0 + 1e-12), "exact {} > funnel {}", c, fc);
                        }
                    }
                    _ => prop_assert!(false, "{s} -> {g}: oracle {want:?}, exact {got:?}"),
                }
            }
            Ok(compared)
        });
    assert!(
        compared >= 450,
        "only {compared} of 600 queries compared with the oracle"
    );
    assert!(
        taken.get() >= 80,
        "only {} exact paths took a link",
        taken.get()
    );
}
