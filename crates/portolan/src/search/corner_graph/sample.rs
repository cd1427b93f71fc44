//! The build's fixed sample of queries, and the choices the build makes by timing it: whether
//! the views pay ([`views::fit`](super::views::fit)) and, on maps without labels, whether the
//! swept search over the graph's edges and the landmarks do ([`label_less_fit`]).
//!
//! # Why time, not model
//! What a search costs depends on the map's shape and on the machine's caches more than any
//! count shows: the views lost 0.4× on AcrosstheCape under a model fitted to other maps, and
//! the landmarks, which make the plain search about 1.35× faster on a random grid map, gain
//! nothing on a maze, where dead-end pruning already leads it, and lose 4% on an open map of
//! small obstacles, where the straight line does (BENCHMARKS.md, "Fast search" and "Session
//! 14"); the swept search over the graph's edges is 2.2–2.4× as fast as the plain search on a
//! random grid and on a map of small random obstacles, and no faster on a maze (forced
//! channels answer most of its queries), where it only costs a build's sweeps (session 16).
//! So the build runs a fixed, seeded sample each way on the machine that builds, keeps each
//! query's least time over [`FIT_RUNS`] rounds, and compares the totals (the views' threshold
//! goes by the geometric mean of the times instead, `views::threshold`). The sample and the
//! rule are fixed; only the times are the machine's, so the choice can differ between two
//! builds of one mesh. Never an answer's length or path: what can differ is how it is found,
//! so its [`Path::expanded`](crate::search::Path::expanded) and, between equal-length paths,
//! which one.
//!
//! # Cost
//! At most [`SAMPLES`] queries (draws that land off the mesh or whose ends are one polygon are
//! skipped: 107–139 are left on the dao maps and AcrosstheCape, 73 on the default map), each run [`FIT_RUNS`] times each way: at most 1,536 runs for the views' fit
//! (two ways; 1–35 ms on the shared game maps), 3,072 for the fit of a graph without labels
//! (four ways). Two rounds always run; a third only while the two took less than
//! [`ROUNDS_BUDGET`], so on a map of long queries the fit costs two rounds: on a 48,801-polygon
//! random grid, the four ways' round takes 0.63–0.68 s.

use super::super::landmarks::Landmarks;
use super::{CornerGraph, HubLabels};
use crate::build::{BuildError, CancelToken};
use crate::geom::Vec2;
use crate::mesh::{NavMesh, PolyId};
use crate::random::WeightedIndex;
use crate::search::polyanya::ExactSearch;
use crate::search::SearchOptions;
use std::sync::Arc;

/// How many times each sample query runs each way, in rounds over the whole sample; each keeps
/// its least time (the run least disturbed by the rest of the machine).
const FIT_RUNS: usize = 3;

/// How many rounds always run. Two, so that each query's time is the least of two runs: with
/// one (the rule until session 18 on maps of long queries), one disturbed round decided. On the
/// 48,801-polygon random grid the swept search's round took 0.126 s in one build and 0.184 s in
/// the next, and the landmarks, which save it about 3% in truth, were kept in the second
/// (BENCHMARKS.md, "Session 18").
const MIN_ROUNDS: usize = 2;

/// After [`MIN_ROUNDS`], another starts only while the rounds so far took less than this: on a
/// map whose queries are long the fit then costs two rounds, not [`FIT_RUNS`] (a round of the
/// four ways of [`label_less_fit`] takes 0.63–0.68 s on a 48,801-polygon random grid, and grows
/// with the queries' cost).
const ROUNDS_BUDGET: std::time::Duration = std::time::Duration::from_millis(600);

/// Whether [`least_times`] runs another round, `done` rounds having taken `spent`.
fn another_round(done: usize, spent: std::time::Duration) -> bool {
    done < MIN_ROUNDS || (done < FIT_RUNS && spent < ROUNDS_BUDGET)
}

/// How many sample queries are drawn: a quarter between two random polygons (long queries),
/// three quarters from a random polygon to a point at a log-uniform distance from it (mostly
/// short ones), each polygon drawn with a chance in proportion to its area ([`sample_pairs`]).
/// Short ones are the more: they are where the views' fit chooses its threshold
/// (`views::threshold`), and many of them are in sight or in one polygon, so decide nothing.
/// With one in two short (128 in all), about 20 queries decided AcrosstheCape's threshold.
/// They cost the fit little: a short query takes a few µs where a long one takes up to
/// hundreds. The fit of a graph without labels ([`label_less_fit`]) takes the same sample; its
/// choices on the random grid and the maze of BENCHMARKS.md were the same after the change
/// (the random grid's landmarks come and go from build to build, as they did before it).
const SAMPLES: u64 = 256;

/// The sample's seed: the same sample for every build of a mesh.
const SEED: u64 = 0x9E37_79B9_7F4A_7C15;

/// The sample: pairs of polygons, whose centroids are the queries' endpoints (seeded, so the
/// same for every build of a mesh). Draws that land off the mesh, and those whose ends are one
/// polygon (a query of no length, which decides nothing), are skipped, so there may be fewer
/// than [`SAMPLES`]; none on a mesh of fewer than two polygons.
///
/// The polygons are drawn by area, as the endpoints of agents' queries spread over the walkable
/// area, not over the polygons, which crowd along jagged walls. Drawn by count (until session
/// 24) on AcrosstheCape, the sample's endpoints sat mostly among the coast's small polygons,
/// where the plain search expanded 341–822 nodes at 64–256 units against about 30 for the
/// scenario's queries there, and the fit sent those queries to views twice as slow as the plain
/// search (BENCHMARKS.md, "Session 24"). Drawn by area, more draws fall twice in one large
/// polygon: skipped, they would add the same time to both sides of a fit and thin its margin
/// (arena's views, which save it 10–20%, were dropped when they were kept).
pub(super) fn sample_pairs(mesh: &NavMesh) -> Vec<(PolyId, PolyId)> {
    let n = mesh.polygon_count() as u64;
    if n < 2 {
        return Vec::new();
    }
    let bounds = mesh.bounds();
    let diagonal = bounds.min.distance(bounds.max);
    let mut rng = crate::random::Rng::new(SEED);
    let draw = by_area(mesh);
    let mut pairs = Vec::with_capacity(SAMPLES as usize);
    for i in 0..SAMPLES {
        let a = draw(&mut rng);
        let b = if i % 4 == 0 {
            draw(&mut rng)
        } else {
            // A point at a log-uniform distance (1/256 of the map's diagonal to all of it) in a
            // random direction, where it is on the mesh: short queries as they come, straight
            // or winding.
            let r = diagonal * (-(8.0 * rng.next_f64())).exp2();
            let (sin, cos) = (std::f64::consts::TAU * rng.next_f64()).sin_cos();
            let p = mesh.centroid(a) + Vec2::new(cos, sin) * r;
            match mesh.locate(p).polygon() {
                Some(b) => b,
                None => continue,
            }
        };
        // (Both ends one centroid: a query of no length, which decides nothing.)
        if a != b {
            pairs.push((a, b));
        }
    }
    pairs
}

/// A draw of one of `mesh`'s polygons (at least one), each with a chance in proportion to its
/// area.
fn by_area(mesh: &NavMesh) -> impl Fn(&mut crate::random::Rng) -> PolyId {
    let weights = WeightedIndex::new(mesh.polygons().map(|p| mesh.polygon_area(p)));
    move |rng| PolyId(weights.pick(rng).unwrap_or(0) as u32)
}

/// The share of the sample's time the views or the landmarks must save to be used: both hold memory
/// (the landmarks 64 bytes per vertex, a fifth of a graph without views on a random grid; the views
/// most of one with them), and a smaller difference is within what two runs of the same sample
/// differ by (on arena the views came out a few percent ahead or behind from build to build, while
/// on the scenario the corner search with them ran 0.8–1.2× the plain one).
const GAIN: f64 = 0.1;

/// The rule of [`label_less_fit`] and of the views' fit, on the sample's total times without
/// and with them: used when they save at least [`GAIN`] of the time.
pub(super) fn pays(without: f64, with: f64) -> bool {
    with <= (1.0 - GAIN) * without
}

/// Each of `ways` timed on every sample query (`ways[k](i)` runs query `i` the `k`-th way):
/// [`FIT_RUNS`] rounds (fewer past [`ROUNDS_BUDGET`], at least [`MIN_ROUNDS`]), each running the
/// whole sample one way, then the next, so that no way finds the mesh data of its query left in the
/// caches by another (run query by query, the second way gained up to 20% from it). Per query, each
/// way's least time in nanoseconds (the run least disturbed by the rest of the machine). Stops at a
/// cancelled `cancel`.
pub(super) fn least_times<const K: usize>(
    queries: usize,
    cancel: &CancelToken,
    mut ways: [&mut dyn FnMut(usize); K],
) -> Result<Vec<[f64; K]>, BuildError> {
    let mut least = vec![[f64::INFINITY; K]; queries];
    // One untimed query each way first: the first run grows each way's buffers to the mesh,
    // which a single round would otherwise charge to its first query.
    if queries > 0 {
        for way in ways.iter_mut() {
            way(0);
        }
    }
    let began = std::time::Instant::now();
    let mut done = 0;
    while another_round(done, began.elapsed()) {
        done += 1;
        for (k, way) in ways.iter_mut().enumerate() {
            for (i, least) in least.iter_mut().enumerate() {
                cancel.check()?;
                let started = std::time::Instant::now();
                way(i);
                least[k] = least[k].min(started.elapsed().as_secs_f64() * 1e9);
            }
        }
    }
    Ok(least)
}

/// How a graph without hub labels answers corner queries, as [`label_less_fit`] timed it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct LabelLess {
    /// The swept search over the graph's edges (`false`: the plain exact search).
    pub(super) sweeps: bool,
    /// With the landmarks' heuristic.
    pub(super) landmarks: bool,
}

/// How `graph` (without labels) answers corner queries on `mesh`, with the landmarks that
/// `landmarks` builds (only where they may serve; `None` where it gave up): timed (`timed`),
/// the sample four ways (the plain exact search and the swept search over the graph's edges,
/// each without and with the landmarks), then
/// - without landmarks, the sweeps if they save [`GAIN`] of the plain search's time;
/// - with them, the same choice between the two;
/// - the landmarks if the better way with them saves [`GAIN`] of the better way without (they
///   hold 64 bytes per vertex; the edges are held anyway).
///
/// Only the ways `allowed` (in that order: plain, plain with landmarks, sweeps, sweeps with
/// landmarks) are timed and chosen from: the caller leaves out those whose memory passes the
/// graph's budget; where that leaves the plain search alone, nothing is timed. Untimed, the
/// sweeps where allowed, with the landmarks where allowed. On a mesh with off-mesh links
/// neither serves a query (the corner search is the plain search there): neither, and no
/// landmarks built. A mesh too small for a sample keeps the landmarks
/// where allowed, as it did before the sweeps were timed, and no sweeps. Returns the graph
/// back, with its landmarks for the caller to keep or drop, and the choice.
pub(super) fn label_less_fit(
    mesh: &NavMesh,
    graph: CornerGraph,
    landmarks: impl FnOnce() -> Result<Option<Landmarks>, BuildError>,
    timed: bool,
    allowed: [bool; 4],
    cancel: &CancelToken,
) -> Result<(CornerGraph, LabelLess), BuildError> {
    let mut graph = graph;
    if mesh.has_links() {
        graph.landmarks = None;
        let neither = LabelLess {
            sweeps: false,
            landmarks: false,
        };
        return Ok((graph, neither));
    }
    // Built only where a way with them is allowed; landmarks that `landmarks` gave up on (its
    // time limit) allow no way with them.
    let lm = if allowed[1] || allowed[3] {
        landmarks()?.map(Arc::new)
    } else {
        None
    };
    let allowed = match lm {
        Some(_) => allowed,
        None => [allowed[0], false, allowed[2], false],
    };
    graph.landmarks = lm.clone();
    // The plain search alone left (it always is allowed): nothing to time.
    if allowed[1..] == [false; 3] {
        let plain = LabelLess {
            sweeps: false,
            landmarks: false,
        };
        return Ok((graph, plain));
    }
    let pairs = if timed {
        sample_pairs(mesh)
    } else {
        Vec::new()
    };
    if !timed || pairs.is_empty() {
        let sweeps = !timed && allowed[2];
        let untimed = LabelLess {
            sweeps,
            landmarks: allowed[if sweeps { 3 } else { 1 }],
        };
        return Ok((graph, untimed));
    }
    // The swept ways need a graph that sweeps; the landmarks come with the options (which a
    // query takes before the graph's), so one graph serves both.
    let mut bare = graph;
    bare.sweeps = true;
    bare.landmarks = None;
    let bare = Arc::new(bare);
    let with_lm = |o: SearchOptions| o.with_landmarks(lm.clone());
    let options = [
        SearchOptions::exact(),
        with_lm(SearchOptions::exact()),
        SearchOptions::corner(Arc::clone(&bare)),
        with_lm(SearchOptions::corner(Arc::clone(&bare))),
    ];
    let choice = label_less_choice(sample_totals(mesh, &pairs, &options, allowed, cancel)?);
    drop(options);
    // The options were the only other owners: no copy.
    let mut graph = Arc::try_unwrap(bare).unwrap_or_else(|shared| (*shared).clone());
    graph.landmarks = lm;
    Ok((graph, choice))
}

/// The sample's total time each way of `options` takes (per query the least of its rounds,
/// [`least_times`], summed), each way with an exact search of its own; infinite for a way not
/// `allowed`, which does not run.
fn sample_totals<const K: usize>(
    mesh: &NavMesh,
    pairs: &[(PolyId, PolyId)],
    options: &[SearchOptions; K],
    allowed: [bool; K],
    cancel: &CancelToken,
) -> Result<[f64; K], BuildError> {
    let ends = |i: usize| (mesh.centroid(pairs[i].0), mesh.centroid(pairs[i].1));
    let mut searches: [ExactSearch; K] = std::array::from_fn(|_| ExactSearch::default());
    let mut k = 0;
    let mut ways = searches.each_mut().map(|search| {
        let way = k;
        k += 1;
        move |i: usize| {
            if allowed[way] {
                let (s, t) = ends(i);
                let _ = search.find_path(mesh, s, t, &options[way]);
            }
        }
    });
    let ways = ways.each_mut().map(|w| w as &mut dyn FnMut(usize));
    let least = least_times(pairs.len(), cancel, ways)?;
    Ok(std::array::from_fn(|k| {
        if allowed[k] {
            least.iter().map(|x| x[k]).sum()
        } else {
            f64::INFINITY
        }
    }))
}

/// `graph` (without views, answering as [`label_less_fit`] chose) with `labels` as its swept
/// search's exact corner heuristic (sweeping, no landmarks: that heuristic reads none), where
/// that answers the build's sample at least [`GAIN`] faster; otherwise `graph` as it was. With
/// them untimed (`timed` false) or on a mesh too small for a sample; never on a mesh with
/// off-mesh links (the corner search is the plain search there).
pub(super) fn labels_where_they_pay(
    mesh: &NavMesh,
    graph: CornerGraph,
    labels: HubLabels,
    timed: bool,
    cancel: &CancelToken,
) -> Result<CornerGraph, BuildError> {
    if mesh.has_links() {
        return Ok(graph);
    }
    let with_labels = |mut g: CornerGraph| {
        g.labels = Some(labels);
        g.sweeps = true;
        g.landmarks = None;
        g
    };
    let pairs = if timed {
        sample_pairs(mesh)
    } else {
        Vec::new()
    };
    if pairs.is_empty() {
        return Ok(with_labels(graph));
    }
    let with = Arc::new(with_labels(graph.clone()));
    let without = Arc::new(graph);
    let options = [&without, &with].map(|g| SearchOptions::corner(Arc::clone(g)));
    let [before, after] = sample_totals(mesh, &pairs, &options, [true; 2], cancel)?;
    drop(options);
    let kept = if pays(before, after) { with } else { without };
    // The options were the only other owners: no copy.
    Ok(Arc::try_unwrap(kept).unwrap_or_else(|shared| (*shared).clone()))
}

/// The rule of [`label_less_fit`] on the sample's total times `[plain, plain with landmarks,
/// sweeps, sweeps with landmarks]`, infinite for a way not allowed (never chosen; the plain
/// search always is).
fn label_less_choice(t: [f64; 4]) -> LabelLess {
    let sweeps_bare = t[2].is_finite() && pays(t[0], t[2]);
    let sweeps_lm = t[3].is_finite() && pays(t[1], t[3]);
    let bare = if sweeps_bare { t[2] } else { t[0] };
    let lm = if sweeps_lm { t[3] } else { t[1] };
    if lm.is_finite() && pays(bare, lm) {
        LabelLess {
            sweeps: sweeps_lm,
            landmarks: true,
        }
    } else {
        LabelLess {
            sweeps: sweeps_bare,
            landmarks: false,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::geom::Aabb;
    use crate::{build, BuildOptions, Scene};

    /// Polygons are drawn in proportion to their areas: over 40,000 draws (a fixed seed) on
    /// den011d, each of its ten largest polygons and the ten smallest together come up within
    /// 0.3% (of all draws) of their share of the area.
    #[test]
    fn polygons_are_drawn_by_area() {
        let map = crate::testkit::data_map("movingai/dao/den011d.map");
        let mesh = build(&map.to_scene(), &BuildOptions::cdt()).unwrap();
        let area = |p: PolyId| mesh.polygon_area(p);
        let total: f64 = mesh.polygons().map(area).sum();
        let draw = by_area(&mesh);
        let mut rng = crate::random::Rng::new(7);
        let mut count = vec![0usize; mesh.polygon_count()];
        let draws = 40_000;
        for _ in 0..draws {
            count[draw(&mut rng).index()] += 1;
        }
        let mut order: Vec<PolyId> = mesh.polygons().collect();
        order.sort_by(|&a, &b| area(b).total_cmp(&area(a)));
        let share = |ps: &[PolyId]| {
            let drawn = ps.iter().map(|p| count[p.index()]).sum::<usize>() as f64 / draws as f64;
            let want = ps.iter().map(|&p| area(p)).sum::<f64>() / total;
            (drawn, want)
        };
        for p in &order[..10] {
            let (drawn, want) = share(std::slice::from_ref(p));
            assert!(
                (drawn - want).abs() < 0.003,
                "{p:?}: {drawn} drawn, {want} of the area"
            );
        }
        let (drawn, want) = share(&order[order.len() - 10..]);
        assert!(
            (drawn - want).abs() < 0.003,
            "the smallest: {drawn} drawn, {want}"
        );
        // Not by count: the largest polygon comes up far more often than one in n.
        assert!(share(&order[..1]).0 > 5.0 / mesh.polygon_count() as f64);
    }

    /// The sample is drawn from the fixed seed (its first pair is the seed's first two draws),
    /// is the same for two builds of a mesh, its pairs are the mesh's polygons, two apart, and
    /// on the default map, whose polygons are few and large, enough of them are left.
    #[test]
    fn the_sample_is_fixed_and_on_the_mesh() {
        let mesh = build(&Scene::default_map(), &BuildOptions::default()).unwrap();
        let pairs = sample_pairs(&mesh);
        let again = build(&Scene::default_map(), &BuildOptions::default()).unwrap();
        assert_eq!(pairs, sample_pairs(&again));
        let mut rng = crate::random::Rng::new(SEED);
        let draw = by_area(&mesh);
        let first = (draw(&mut rng), draw(&mut rng));
        assert_eq!(pairs[0], first);
        assert!(pairs.len() >= 64 && pairs.len() <= SAMPLES as usize);
        assert!(pairs.iter().all(|&(a, b)| a != b));
        let n = mesh.polygon_count() as u32;
        assert!(pairs.iter().all(|&(a, b)| a.0 < n && b.0 < n));
        // Long and short.
        let d = |&(a, b): &(PolyId, PolyId)| mesh.centroid(a).distance(mesh.centroid(b));
        assert!(pairs.iter().any(|x| d(x) < 100.0) && pairs.iter().any(|x| d(x) > 300.0));
    }

    /// Views and landmarks are kept when they save 10% of the sample's time or more, not less.
    #[test]
    fn kept_from_a_tenth_saved() {
        assert!(pays(100.0, 90.0));
        assert!(pays(100.0, 50.0));
        assert!(!pays(100.0, 90.5));
        assert!(!pays(100.0, 100.0));
        assert!(!pays(100.0, 120.0));
    }

    /// Two rounds always run; more only within the budget, up to [`FIT_RUNS`].
    #[test]
    fn rounds_stop_at_the_budget_after_the_second() {
        let ms = std::time::Duration::from_millis;
        assert!(another_round(0, ms(10_000)));
        assert!(another_round(1, ms(10_000)));
        assert!(another_round(2, ms(0)));
        assert!(another_round(FIT_RUNS - 1, ROUNDS_BUDGET - ms(1)));
        assert!(!another_round(2, ROUNDS_BUDGET));
        assert!(!another_round(FIT_RUNS, ms(0)));
    }

    /// A graph of `mesh` as a build leaves it for the fit: no labels, no views, no landmarks
    /// (four to build, returned).
    fn label_less(mesh: &NavMesh) -> (CornerGraph, Landmarks) {
        let mut g = CornerGraph::build_with_views(mesh);
        g.labels = None;
        g.views = None;
        g.landmarks = None;
        (g, Landmarks::build(mesh, 4))
    }

    /// [`label_less_fit`] on `mesh`'s graph without labels, timed or not, choosing among the
    /// ways `allowed`, with 4 landmarks (none where `landmarks` is false, as if their time
    /// limit had passed).
    fn fit(
        mesh: &NavMesh,
        timed: bool,
        allowed: [bool; 4],
        landmarks: bool,
    ) -> (CornerGraph, LabelLess) {
        let (g, lm) = label_less(mesh);
        let lm = landmarks.then_some(lm);
        label_less_fit(mesh, g, || Ok(lm), timed, allowed, &CancelToken::new()).unwrap()
    }

    /// A mesh of one polygon has no sample: it keeps its landmarks, without a timing, and
    /// does not sweep.
    #[test]
    fn one_polygon_has_no_sample() {
        let scene = Scene::new(Aabb::new(Vec2::ZERO, Vec2::new(10.0, 10.0)));
        let mesh = build(&scene, &BuildOptions::default()).unwrap();
        assert_eq!(mesh.polygon_count(), 1);
        assert!(sample_pairs(&mesh).is_empty());
        let (g, choice) = fit(&mesh, true, [true; 4], true);
        assert_eq!((choice.sweeps, choice.landmarks), (false, true));
        assert!(g.landmarks.is_some());
    }

    /// On a mesh with off-mesh links, where the corner search is the plain search without
    /// landmarks, neither is kept (the same mesh without its link is timed).
    #[test]
    fn a_mesh_with_links_keeps_no_landmarks_and_no_sweeps() {
        let mesh = build(&Scene::default_map(), &BuildOptions::default()).unwrap();
        let (from, to) = (Scene::DEFAULT_START, Scene::DEFAULT_GOAL);
        let linked = mesh
            .clone()
            .with_links([crate::mesh::links::OffMeshLink::new(from, to, 1.0)])
            .unwrap();
        let (_, choice) = fit(&linked, true, [true; 4], true);
        assert_eq!((choice.sweeps, choice.landmarks), (false, false));
        let (g, _) = fit(&mesh, true, [true; 4], true);
        // The graph comes back whole, its landmarks in it for the caller to keep or drop.
        assert!(g.landmarks.is_some() && g.edge_count() > 0);
    }

    /// A way the memory budget leaves out is never chosen, timed or not.
    #[test]
    fn the_fit_chooses_only_ways_allowed() {
        let mesh = build(&Scene::default_map(), &BuildOptions::default()).unwrap();
        for timed in [true, false] {
            for mask in 0..8u8 {
                // The plain search is always allowed.
                let allowed = [true, mask & 1 != 0, mask & 2 != 0, mask & 4 != 0];
                let (_, c) = fit(&mesh, timed, allowed, true);
                let way = usize::from(c.sweeps) * 2 + usize::from(c.landmarks);
                assert!(
                    allowed[way],
                    "timed {timed}, allowed {allowed:?}: chose {c:?}"
                );
            }
        }
    }

    /// Landmarks given up on (their time limit) allow no way with them, timed or not.
    #[test]
    fn without_landmarks_the_fit_never_takes_them() {
        let mesh = build(&Scene::default_map(), &BuildOptions::default()).unwrap();
        for timed in [true, false] {
            let (g, c) = fit(&mesh, timed, [true; 4], false);
            assert!(
                !c.landmarks && g.landmarks.is_none(),
                "timed {timed}: {c:?}"
            );
        }
    }

    /// The fit's timing stops at a cancelled token.
    #[test]
    fn the_label_less_timing_stops_when_cancelled() {
        let mesh = build(&Scene::default_map(), &BuildOptions::default()).unwrap();
        let (g, lm) = label_less(&mesh);
        let cancel = CancelToken::new();
        cancel.cancel();
        assert!(matches!(
            label_less_fit(&mesh, g, || Ok(Some(lm)), true, [true; 4], &cancel),
            Err(BuildError::Cancelled)
        ));
    }

    /// The rule: sweeps where they save a tenth of the plain search's time, the same way with
    /// landmarks, and the landmarks where the better way with them saves a tenth of the better
    /// way without.
    #[test]
    fn the_label_less_rule() {
        let rule = |t| {
            let c = label_less_choice(t);
            (c.sweeps, c.landmarks)
        };
        // [plain, plain + landmarks, sweeps, sweeps + landmarks]
        assert_eq!(rule([100.0, 100.0, 100.0, 100.0]), (false, false));
        // A random grid: sweeps pay, landmarks add little to them.
        assert_eq!(rule([230.0, 175.0, 120.0, 115.0]), (true, false));
        // Landmarks pay for the plain search only: the sweeps without them are better still.
        assert_eq!(rule([100.0, 60.0, 50.0, 95.0]), (true, false));
        // Landmarks pay on top of the sweeps.
        assert_eq!(rule([100.0, 80.0, 60.0, 40.0]), (true, true));
        // Landmarks pay, sweeps do not.
        assert_eq!(rule([100.0, 70.0, 95.0, 68.0]), (false, true));
        // Sweeps save less than a tenth.
        assert_eq!(rule([100.0, 100.0, 91.0, 100.0]), (false, false));
        // Ways left out (infinite): the best of the others. No room for sweeps and landmarks
        // together: the sweeps alone, or the landmarks alone where they save a tenth of them.
        let inf = f64::INFINITY;
        assert_eq!(rule([100.0, 80.0, 60.0, inf]), (true, false));
        assert_eq!(rule([100.0, 50.0, 60.0, inf]), (false, true));
        // No room for edges: the plain search, with landmarks where they pay.
        assert_eq!(rule([100.0, 80.0, inf, inf]), (false, true));
        assert_eq!(rule([100.0, 95.0, inf, inf]), (false, false));
        assert_eq!(rule([100.0, inf, inf, inf]), (false, false));
    }
}
