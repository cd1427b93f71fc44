//! Searches on meshes with off-mesh links: the channel A* and the exact search take links at
//! their cost, and paths are walkable runs joined by links.

use crate::build::{build, BuildOptions};
use crate::geom::{Aabb, Vec2};
use crate::mesh::{LinkId, Location, NavMesh, OffMeshLink};
use crate::scene::Scene;
use crate::search::{LinkTraversal, Path, PathError, PathFinder, SearchOptions};
use crate::testkit::check_counted;
use crate::testkit::scenes::{grid_point, mesh_of, random_scene, split_map};

fn find(m: &NavMesh, a: Vec2, b: Vec2) -> Result<Path, PathError> {
    PathFinder::new().find_path(m, a, b, &SearchOptions::default())
}

#[test]
fn a_split_map_is_crossed_only_through_the_link() {
    let (a, b) = (Vec2::new(1.0, 1.0), Vec2::new(9.0, 1.0));
    assert_eq!(find(&split_map(), a, b), Err(PathError::NoPath));
    let link = OffMeshLink::new(Vec2::new(3.0, 8.0), Vec2::new(7.0, 8.0), 4.0);
    let m = split_map().with_links([link]).unwrap();
    let p = find(&m, a, b).unwrap();
    assert!(p.is_complete());
    assert_eq!(
        p.points,
        vec![a, link.from, link.to, b],
        "funnel runs joined by the link"
    );
    assert_eq!(
        p.links,
        vec![LinkTraversal {
            link: LinkId(0),
            segment: 1,
            reversed: false
        }]
    );
    // The channel goes from the left part to the right part through the link.
    assert_eq!(m.locate(a).polygon(), p.channel.first().copied());
    assert_eq!(m.locate(b).polygon(), p.channel.last().copied());
    // One-way: no way back; a bidirectional link is taken reversed.
    assert_eq!(find(&m, b, a), Err(PathError::NoPath));
    let m2 = split_map().with_links([link.bidirectional()]).unwrap();
    let back = find(&m2, b, a).unwrap();
    assert_eq!(back.points, vec![b, link.to, link.from, a]);
    assert!(back.links[0].reversed);
    // Corner offsets move turning points within runs, never the link's ends.
    let opts = SearchOptions::default().with_corner_offset(0.5);
    let q = PathFinder::new().find_path(&m, a, b, &opts).unwrap();
    assert_eq!(q.points, p.points, "no turning points inside these runs");
}

#[test]
fn link_cost_decides_between_the_link_and_a_detour() {
    // A wall with a gap at the far end: a long detour exists.
    let s = Scene::new(Aabb::new(Vec2::ZERO, Vec2::new(10.0, 100.0))).with_obstacle([
        (4.0, 0.0),
        (6.0, 0.0),
        (6.0, 90.0),
        (4.0, 90.0),
    ]);
    let base = build(&s, &BuildOptions::trapezoid()).unwrap();
    let (a, b) = (Vec2::new(1.0, 1.0), Vec2::new(9.0, 1.0));
    let detour = find(&base, a, b).unwrap();
    assert!(detour.length > 170.0);
    let jump = |cost| OffMeshLink::new(Vec2::new(3.0, 1.0), Vec2::new(7.0, 1.0), cost);
    let cheap = base.clone().with_links([jump(20.0)]).unwrap();
    let p = find(&cheap, a, b).unwrap();
    assert_eq!(
        p.links.len(),
        1,
        "a cost of 20 beats a walk of {}",
        detour.length
    );
    let dear = base.clone().with_links([jump(500.0)]).unwrap();
    let p = find(&dear, a, b).unwrap();
    assert!(p.links.is_empty(), "a cost of 500 loses to the walk");
    assert_eq!(p, detour);
    // A filter closing the landing polygon closes the link too.
    let mut filter = crate::search::PolygonFilter::new();
    filter.exclude(cheap.locate(Vec2::new(7.0, 1.0)).polygon().unwrap());
    let opts = SearchOptions::default()
        .with_filter(Some(std::sync::Arc::new(filter)))
        .with_allow_partial(true);
    let r = PathFinder::new().find_path(&cheap, a, b, &opts).unwrap();
    assert!(!r.is_complete());
    assert!(r.links.is_empty());
}

#[test]
fn the_exact_search_takes_links_at_their_cost() {
    let exact = SearchOptions::exact();
    let s = Scene::new(Aabb::new(Vec2::ZERO, Vec2::new(10.0, 100.0))).with_obstacle([
        (4.0, 0.0),
        (6.0, 0.0),
        (6.0, 90.0),
        (4.0, 90.0),
    ]);
    let base = build(&s, &BuildOptions::trapezoid()).unwrap();
    let mut f = PathFinder::new();
    let (a, b) = (Vec2::new(1.0, 1.0), Vec2::new(9.0, 1.0));
    let detour = f.find_path(&base, a, b, &exact).unwrap();
    assert!(detour.length > 170.0);
    let (from, to) = (Vec2::new(3.0, 1.0), Vec2::new(7.0, 1.0));
    let jump = |cost| OffMeshLink::new(from, to, cost);
    let cheap = base.clone().with_links([jump(20.0)]).unwrap();
    let p = f.find_path(&cheap, a, b, &exact).unwrap();
    assert_eq!(p.points, vec![a, from, to, b]);
    assert_eq!(
        p.links,
        vec![LinkTraversal {
            link: LinkId(0),
            segment: 1,
            reversed: false
        }]
    );
    // Dearer than the walk: the exact search walks, as without the link.
    let dear = base.clone().with_links([jump(500.0)]).unwrap();
    let walk = f.find_path(&dear, a, b, &exact).unwrap();
    assert_eq!(walk.points, detour.points);
    assert!(walk.links.is_empty());
    // Backwards only on a bidirectional link.
    let back = f.find_path(&cheap, b, a, &exact).unwrap();
    assert!(back.links.is_empty());
    let both = base
        .clone()
        .with_links([jump(20.0).bidirectional()])
        .unwrap();
    let back = f.find_path(&both, b, a, &exact).unwrap();
    assert_eq!(back.points, vec![b, to, from, a]);
    assert!(back.links[0].reversed);
    // A closed landing polygon closes the link; the partial path walks toward the goal.
    let mut filter = crate::search::PolygonFilter::new();
    filter.exclude(cheap.locate(to).polygon().unwrap());
    let closed = exact
        .clone()
        .with_filter(Some(std::sync::Arc::new(filter)))
        .with_allow_partial(true);
    let r = f.find_path(&cheap, a, b, &closed).unwrap();
    assert!(!r.is_complete() && r.links.is_empty());
    // Corner offsets leave the link's ends where they are.
    let offset = exact.clone().with_corner_offset(0.5);
    let up = Vec2::new(1.0, 20.0);
    let p = f.find_path(&cheap, up, b, &offset).unwrap();
    assert_eq!(p.links.len(), 1);
    let k = p.links[0].segment;
    assert_eq!((p.points[k], p.points[k + 1]), (from, to));
    // Landmarks measure the mesh without its links: refused rather than wrong.
    let lm = crate::search::landmarks::Landmarks::build(&cheap, 2);
    let with_lm = exact.clone().with_landmarks(Some(std::sync::Arc::new(lm)));
    assert!(matches!(
        f.find_path(&cheap, a, b, &with_lm),
        Err(PathError::Unsupported {
            method: "exact",
            ..
        })
    ));
}

#[test]
fn free_link_cycles_end_and_landing_on_a_vertex_keeps_the_channel_joined() {
    let exact = SearchOptions::exact();
    // A wall with a gap at the top; links of cost 0 back and forth on one side (a cycle
    // of free links: the search used to land on it again and again, without end).
    let s = Scene::new(Aabb::new(Vec2::ZERO, Vec2::new(20.0, 10.0))).with_obstacle([
        (9.0, 0.0),
        (11.0, 0.0),
        (11.0, 8.0),
        (9.0, 8.0),
    ]);
    let base = build(&s, &BuildOptions::trapezoid()).unwrap();
    let (a, b) = (Vec2::new(1.0, 1.0), Vec2::new(19.0, 1.0));
    let (p, q) = (Vec2::new(2.0, 2.0), Vec2::new(3.0, 2.0));
    // a → p, free to q, over the wall's two top corners, down to b.
    let want = 2f64.sqrt() + 72f64.sqrt() + 2.0 + 113f64.sqrt();
    // (A budget turns a relapse into a failure instead of a hang.)
    let budget = exact.clone().with_max_expanded(Some(100_000));
    for links in [
        vec![OffMeshLink::new(p, q, 0.0).bidirectional()],
        vec![OffMeshLink::new(p, q, 0.0), OffMeshLink::new(q, p, 0.0)],
    ] {
        let m = base.clone().with_links(links).unwrap();
        let got = PathFinder::new().find_path(&m, a, b, &budget).unwrap();
        assert_eq!(got.points[..3], [a, p, q]);
        let cost = got.cost(&m);
        assert!((cost - want).abs() < 1e-9, "{cost} vs {want}: {got:?}");
    }
    // Free jumps landing on mesh vertices where several polygons meet (the corners of a
    // block in a triangulated map): consecutive channel polygons share an edge, or the link
    // joins them. (The landing node names one polygon holding the landing point, which
    // need not be the one the path goes on in.)
    let s = Scene::new(Aabb::new(Vec2::ZERO, Vec2::new(20.0, 20.0))).with_obstacle([
        (8.0, 8.0),
        (12.0, 8.0),
        (12.0, 12.0),
        (8.0, 12.0),
    ]);
    let m = build(&s, &BuildOptions::default()).unwrap();
    let from = Vec2::new(1.0, 10.0);
    let (mut checked, mut linked) = (0, 0);
    for to in [
        (8.0, 8.0),
        (12.0, 8.0),
        (12.0, 12.0),
        (8.0, 12.0),
        (20.0, 0.0),
    ] {
        let to = Vec2::new(to.0, to.1);
        let m = m
            .clone()
            .with_links([OffMeshLink::new(from, to, 0.0)])
            .unwrap();
        for goal in [
            (19.0, 1.0),
            (19.0, 19.0),
            (10.0, 19.0),
            (10.0, 1.0),
            (15.0, 10.0),
        ] {
            let goal = Vec2::new(goal.0, goal.1);
            let path = PathFinder::new().find_path(&m, from, goal, &exact).unwrap();
            linked += path.links.len();
            for w in path.channel.windows(2) {
                let joined = m.shared_edge(w[0], w[1]).is_some()
                    || (m.locate_in(w[0], from).is_some() && m.locate_in(w[1], to).is_some());
                assert!(joined, "{:?} then {:?} in {:?}", w[0], w[1], path.channel);
                checked += 1;
            }
        }
    }
    assert!(
        checked > 25 && linked > 10,
        "{checked} pairs, {linked} links taken"
    );
}

#[test]
fn a_cheap_link_beats_the_straight_line_inside_one_polygon() {
    // Start and goal in the one polygon of an empty map; a teleport of cost 1 between
    // points near them beats the straight walk of 80.
    let m = build(
        &Scene::new(Aabb::new(Vec2::ZERO, Vec2::new(100.0, 10.0))),
        &BuildOptions::trapezoid(),
    )
    .unwrap();
    let (s, g) = (Vec2::new(5.0, 5.0), Vec2::new(85.0, 5.0));
    let (from, to) = (Vec2::new(5.0, 6.0), Vec2::new(85.0, 6.0));
    let m = m.with_links([OffMeshLink::new(from, to, 1.0)]).unwrap();
    let exact = SearchOptions::exact();
    let p = PathFinder::new().find_path(&m, s, g, &exact).unwrap();
    assert_eq!(p.points, vec![s, from, to, g]);
    assert_eq!(p.links.len(), 1);
    // Backwards there is no link: the straight line.
    let p = PathFinder::new().find_path(&m, g, s, &exact).unwrap();
    assert_eq!(p.points, vec![g, s]);
}

#[test]
fn linked_paths_are_walkable_runs_joined_by_links() {
    use proptest::prelude::*;
    let input = (
        random_scene(),
        proptest::collection::vec((grid_point(), grid_point()), 6),
        proptest::collection::vec(0.0..30.0f64, 6),
        proptest::collection::vec((grid_point(), grid_point()), 12),
    );
    let paths = std::cell::Cell::new(0usize);
    let exact_compared = std::cell::Cell::new(0usize);
    let linked = check_counted(file!(), 256, input, |(scene, ends, costs, queries)| {
        let base = mesh_of(&scene);
        let links: Vec<OffMeshLink> = ends
            .iter()
            .zip(&costs)
            .enumerate()
            .filter(|(_, ((a, b), _))| {
                a != b && base.locate(*a).polygon().is_some() && base.locate(*b).polygon().is_some()
            })
            .map(|(i, ((a, b), &c))| {
                let l = OffMeshLink::new(*a, *b, c);
                if i % 2 == 0 {
                    l.bidirectional()
                } else {
                    l
                }
            })
            .collect();
        let m = base.with_links(links.clone()).unwrap();
        let mut f = PathFinder::new();
        let mut linked = 0;
        let exact = SearchOptions::exact();
        let cost = |p: &Path| p.cost(&m);
        for (a, b) in queries {
            let Ok(funnel) = f.find_path(&m, a, b, &SearchOptions::default()) else {
                // Same graph, links included: the exact search finds no path either.
                prop_assert!(f.find_path(&m, a, b, &exact).is_err());
                continue;
            };
            paths.set(paths.get() + 1);
            linked += usize::from(!funnel.links.is_empty());
            let exact_path = match f.find_path(&m, a, b, &exact) {
                Ok(e) => Some(e),
                Err(e) => {
                    return Err(proptest::test_runner::TestCaseError::fail(format!(
                        "{a} -> {b}: the funnel found a path, the exact search {e:?}"
                    )))
                }
            };
            exact_compared.set(exact_compared.get() + usize::from(exact_path.is_some()));
            if let Some(e) = &exact_path {
                prop_assert!(
                    cost(e) <= cost(&funnel) * (1.0 + 1e-9) + 1e-9,
                    "exact {} > funnel {}",
                    cost(e),
                    cost(&funnel)
                );
                // Its channel: neighbours, or two polygons joined by a link it takes.
                for w in e.channel.windows(2) {
                    let jumped = e.links.iter().any(|t| {
                        let (x, y) = (e.points[t.segment], e.points[t.segment + 1]);
                        m.locate_in(w[0], x).is_some() && m.locate_in(w[1], y).is_some()
                    });
                    prop_assert!(
                        m.shared_edge(w[0], w[1]).is_some() || jumped,
                        "{:?} then {:?} in {:?}",
                        w[0],
                        w[1],
                        e.channel
                    );
                }
            }
            for p in std::iter::once(&funnel).chain(&exact_path) {
                prop_assert_eq!(p.points[0], a);
                prop_assert_eq!(*p.points.last().unwrap(), b);
                let link_segments: Vec<usize> = p.links.iter().map(|t| t.segment).collect();
                for t in &p.links {
                    let l = links[t.link.index()];
                    let (x, y) = if t.reversed {
                        (l.to, l.from)
                    } else {
                        (l.from, l.to)
                    };
                    prop_assert!(l.bidirectional || !t.reversed);
                    prop_assert_eq!((p.points[t.segment], p.points[t.segment + 1]), (x, y));
                }
                for (i, w) in p.points.windows(2).enumerate() {
                    if !link_segments.contains(&i) {
                        let clear = crate::search::raycast::raycast(&m, w[0], w[1])
                            .unwrap()
                            .is_clear();
                        prop_assert!(clear, "segment {} of {:?}", i, p.points);
                    }
                }
            }
        }
        Ok(linked)
    });
    // Points inside obstacles and walled-off goals are skipped; enough paths must remain,
    // and enough of them must take a link, for the property to say something.
    // (~2,770 paths of 3,072 queries, ~200 of them through a link.)
    assert!(
        paths.get() >= 2000,
        "only {} of 3,072 queries found a path",
        paths.get()
    );
    assert!(linked >= 100, "only {linked} paths took a link");
    assert!(
        exact_compared.get() * 10 >= paths.get() * 9,
        "the exact search answered only {} of {} queries",
        exact_compared.get(),
        paths.get()
    );
}

/// A wall from the bottom to near the top of a 1000 × 1000 map: the left and right halves
/// meet only above it.
fn walled_map() -> NavMesh {
    let s = Scene::new(Aabb::new(Vec2::ZERO, Vec2::new(1000.0, 1000.0))).with_obstacle([
        (400.0, 0.0),
        (600.0, 0.0),
        (600.0, 900.0),
        (400.0, 900.0),
    ]);
    mesh_of(&s)
}

/// Issue 16, item 8: a chain of N free links, each landing where the next takes off, took
/// 0.02, 0.13, 0.91 and 7.2 s for N = 250 to 2,000 (cubic: every landing offered every
/// take-off in its polygon, and every node's heuristic looked at every link). The heuristic
/// now has a bounded number of terms; the search still finds the exact cost, the chain
/// whole, and expands a few nodes per link (it is still quadratic in generated nodes: a
/// landing sees every take-off of its polygon).
#[test]
fn regression_a_chain_of_2000_free_links_is_searched_in_linear_expansions() {
    let n = 2000;
    let at = |i: usize| {
        Vec2::new(
            10.0 + 380.0 * i as f64 / n as f64,
            10.0 + 880.0 * i as f64 / n as f64,
        )
    };
    let m = walled_map()
        .with_links((0..n).map(|i| OffMeshLink::new(at(i), at(i + 1), 0.0)))
        .unwrap();
    let (s, g) = (Vec2::new(10.0, 10.0), Vec2::new(990.0, 10.0));
    let p = PathFinder::new()
        .find_path(&m, s, g, &SearchOptions::exact())
        .unwrap();
    // Free to the chain's end, then over the wall's top to the goal.
    let (c1, c2) = (Vec2::new(400.0, 900.0), Vec2::new(600.0, 900.0));
    let want = at(n).distance(c1) + c1.distance(c2) + c2.distance(g);
    assert!(
        (p.cost(&m) - want).abs() <= 1e-9 * want,
        "{} vs {want}",
        p.cost(&m)
    );
    assert_eq!(p.links.len(), n, "the whole chain is taken");
    // About three per link (the unit tests give 2 shortcuts their own heuristic term; the
    // release build gives 64, and expands as many).
    assert!(
        p.expanded <= 4 * n,
        "{} expansions for {n} links",
        p.expanded
    );
}

/// Issue 16, item 8: 100,000 random links took 31 s per exact query (an all-pairs
/// preparation per query); the funnel took 0.07 s. Now the preparation is linear in the links.
/// The exact cost is never above the funnel's, and is at least the cheapest any link allows.
#[test]
fn regression_100k_random_links_are_prepared_in_linear_time() {
    // A fixed linear congruential sequence: the same links on every run.
    let mut state = 12345u64;
    let mut unit = || {
        state = state
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        (state >> 11) as f64 / (1u64 << 53) as f64
    };
    let mut point = || loop {
        let p = Vec2::new(1.0 + 998.0 * unit(), 1.0 + 998.0 * unit());
        if !(p.x > 399.0 && p.x < 601.0 && p.y < 901.0) {
            return p;
        }
    };
    let links: Vec<OffMeshLink> = (0..100_000)
        .map(|_| {
            let (a, b) = (point(), point());
            OffMeshLink::new(a, b, 0.5 * a.distance(b))
        })
        .collect();
    let m = walled_map().with_links(links).unwrap();
    let (s, g) = (Vec2::new(10.0, 10.0), Vec2::new(990.0, 10.0));
    let mut f = PathFinder::new();
    let exact = f.find_path(&m, s, g, &SearchOptions::exact()).unwrap();
    let funnel = f.find_path(&m, s, g, &SearchOptions::default()).unwrap();
    assert!(exact.cost(&m) <= funnel.cost(&m) * (1.0 + 1e-9));
    assert!(exact.cost(&m) >= 0.5 * s.distance(g) * (1.0 - 1e-9));
    // Each landing is expanded at most about once: fewer expansions than links (about 1,100
    // with the release build's 64 terms, 40,000 with the unit tests' 2).
    assert!(exact.expanded < 100_000, "{} expansions", exact.expanded);
}

/// The links heuristic with more shortcuts than it gives their own term (the unit tests give
/// only two a term, so these meshes of up to six links exercise the shared cap) is still
/// exact: against Dijkstra over the start, the goal and the link ends, joined by the links and
/// by exact searches on the mesh without links.
#[test]
fn exact_with_more_shortcuts_than_terms_matches_an_oracle() {
    use proptest::prelude::*;
    let input = (
        random_scene(),
        proptest::collection::vec((grid_point(), grid_point(), 0.0..0.9f64), 6),
        proptest::collection::vec((grid_point(), grid_point()), 4),
    );
    let compared = check_counted(file!(), 64, input, |(scene, raw, queries)| {
        let base = mesh_of(&scene);
        let on = |p: Vec2| base.locate(p).polygon().is_some();
        // A link end on a pinch vertex cannot be the oracle's stop between two walks: a walk
        // may arrive there through one wedge and leave through another, which no path may (the
        // pinch rule); the exact search is right to refuse it. Such links are left out.
        let pinch = |p: Vec2| matches!(base.locate(p), Location::OnVertex { vertex, .. } if base.is_pinch(vertex));
        let links: Vec<OffMeshLink> = raw
            .iter()
            .filter(|(a, b, _)| a != b && on(*a) && on(*b) && !pinch(*a) && !pinch(*b))
            .map(|&(a, b, k)| OffMeshLink::new(a, b, k * a.distance(b)))
            .collect();
        let m = base.clone().with_links(links.clone()).unwrap();
        let mut f = PathFinder::new();
        let exact = SearchOptions::exact();
        let mut walk_cache = std::collections::HashMap::new();
        let mut walk = |f: &mut PathFinder, a: Vec2, b: Vec2| {
            *walk_cache
                .entry((a.x.to_bits(), a.y.to_bits(), b.x.to_bits(), b.y.to_bits()))
                .or_insert_with(|| {
                    f.find_path(&base, a, b, &exact)
                        .map(|p| p.length)
                        .unwrap_or(f64::INFINITY)
                })
        };
        let mut checked = 0;
        for (a, b) in queries {
            if !(on(a) && on(b)) {
                continue;
            }
            let mut pts = vec![a, b];
            for l in &links {
                pts.extend([l.from, l.to]);
            }
            let n = pts.len();
            let mut best = vec![f64::INFINITY; n];
            let mut done = vec![false; n];
            best[0] = 0.0;
            while let Some(i) = (0..n)
                .filter(|&i| !done[i] && best[i].is_finite())
                .min_by(|&x, &y| best[x].total_cmp(&best[y]))
            {
                done[i] = true;
                for j in (0..n).filter(|&j| !done[j]) {
                    let mut step = walk(&mut f, pts[i], pts[j]);
                    if i >= 2 && i % 2 == 0 && j == i + 1 {
                        step = step.min(links[(i - 2) / 2].cost);
                    }
                    best[j] = best[j].min(best[i] + step);
                }
            }
            let got = f.find_path(&m, a, b, &exact).map(|p| p.cost(&m));
            match got {
                Ok(c) => prop_assert!(
                    (c - best[1]).abs() <= 1e-9 * (1.0 + best[1]),
                    "{a} -> {b}: exact {c}, oracle {}",
                    best[1]
                ),
                Err(_) => prop_assert!(best[1].is_infinite(), "{a} -> {b}: oracle {}", best[1]),
            }
            checked += 1;
        }
        Ok(checked)
    });
    assert!(compared > 50, "{compared} queries compared");
}
