//! The build's fixed sample of queries, and the choices the build makes by timing it: whether
//! the views pay ([`views::fit`](super::views::fit)) and, on maps without views, whether the
//! landmarks do ([`landmarks_pay`]).
//!
//! # Why time, not model
//! What a search costs depends on the map's shape and on the machine's caches more than any
//! count shows: the views lost 0.4× on AcrosstheCape under a model fitted to other maps, and
//! the landmarks, which make the plain search about 1.35× faster on a random grid map, gain
//! nothing on a maze, where dead-end pruning already leads it, and lose 4% on an open map of
//! small obstacles, where the straight line does (BENCHMARKS.md, "Fast search" and "Session
//! 14").
//! So the build runs a fixed, seeded sample both ways on the machine that builds, keeps each
//! query's least time over [`FIT_RUNS`] rounds, and compares the totals. The sample and the
//! rule are fixed; only the times are the machine's, so the choice can differ between two
//! builds of one mesh. Never an answer's length or path: what can differ is how it is found,
//! so its [`Path::expanded`](crate::search::Path::expanded) and, between equal-length paths,
//! which one.
//!
//! # Cost
//! At most [`SAMPLES`] queries (short draws that land off the mesh are skipped: 75–104 on the
//! shared maps), each run [`FIT_RUNS`] times each way, so at most 768 runs per fit: 4–31 ms for
//! the views' fit on the shared game maps. A round starts only while the rounds before took
//! less than [`ROUNDS_BUDGET`], so on a map of long queries the fit costs one round (at most
//! 256 runs): the landmarks' fit on a 48,801-polygon random grid runs two, about 0.6 s.

use super::super::landmarks::Landmarks;
use crate::build::{BuildError, CancelToken};
use crate::geom::Vec2;
use crate::mesh::{NavMesh, PolyId};
use crate::search::polyanya::ExactSearch;
use crate::search::SearchOptions;
use std::sync::Arc;

/// How many times each sample query runs each way, in rounds over the whole sample; each keeps
/// its least time (the run least disturbed by the rest of the machine).
const FIT_RUNS: usize = 3;

/// After the first round, another starts only while the rounds so far took less than this:
/// on a map whose queries are long the fit then costs one round, not [`FIT_RUNS`] (a round of
/// the landmarks' fit takes about 0.3 s on a 48,801-polygon random grid, and grows with the
/// queries' cost).
const ROUNDS_BUDGET: std::time::Duration = std::time::Duration::from_millis(600);

/// Whether [`least_times`] runs another round, `done` rounds having taken `spent`.
fn another_round(done: usize, spent: std::time::Duration) -> bool {
    done == 0 || (done < FIT_RUNS && spent < ROUNDS_BUDGET)
}

/// How many sample queries are drawn: half between random polygon pairs (long queries), half
/// from a random polygon to a point at a log-uniform distance from it (mostly short ones).
const SAMPLES: u64 = 128;

/// The sample's seed: the same sample for every build of a mesh.
const SEED: u64 = 0x9E37_79B9_7F4A_7C15;

/// The sample: pairs of polygons, whose centroids are the queries' endpoints (seeded, so the
/// same for every build of a mesh). Short draws that land off the mesh are skipped, so there
/// may be fewer than [`SAMPLES`]; none on a mesh of fewer than two polygons.
pub(super) fn sample_pairs(mesh: &NavMesh) -> Vec<(PolyId, PolyId)> {
    let n = mesh.polygon_count() as u64;
    if n < 2 {
        return Vec::new();
    }
    let bounds = mesh.bounds();
    let diagonal = bounds.min.distance(bounds.max);
    let mut rng = crate::random::Rng::new(SEED);
    let mut pairs = Vec::with_capacity(SAMPLES as usize);
    for i in 0..SAMPLES {
        let a = PolyId((rng.next_u64() % n) as u32);
        let b = if i % 2 == 0 {
            PolyId((rng.next_u64() % n) as u32)
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
        pairs.push((a, b));
    }
    pairs
}

/// The share of the sample's time the views or the landmarks must save to be used: both hold
/// memory (the landmarks 128 bytes per vertex, most of a graph without views; the views most
/// of one with them), and a smaller difference is within what two runs of the same sample
/// differ by (on arena the views came out a few percent ahead or behind from build to build,
/// while on the scenario the corner search with them ran 0.8–1.2× the plain one).
const GAIN: f64 = 0.1;

/// The rule of [`landmarks_pay`] and of the views' fit, on the sample's total times without
/// and with them: used when they save at least [`GAIN`] of the time.
pub(super) fn pays(without: f64, with: f64) -> bool {
    with <= (1.0 - GAIN) * without
}

/// Each of `ways` timed on every sample query (`ways[k](i)` runs query `i` the `k`-th way):
/// [`FIT_RUNS`] rounds (fewer past [`ROUNDS_BUDGET`], at least one), each running the whole
/// sample one way, then the next, so that no way
/// finds the mesh data of its query left in the caches by another (run query by query, the
/// second way gained up to 20% from it). Per query, each way's least time in nanoseconds (the
/// run least disturbed by the rest of the machine). Stops at a cancelled `cancel`.
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

/// Whether `landmarks` make the plain exact search faster on `mesh`: the sample's total time
/// with them at least [`GAIN`] below its total without, each query's least time over
/// the rounds of [`least_times`]. A mesh too small for a sample keeps them; a mesh with
/// off-mesh links does not (the exact search refuses landmarks there, so they would serve no
/// query, and the sample would time its refusals).
pub(super) fn landmarks_pay(
    mesh: &NavMesh,
    landmarks: &Arc<Landmarks>,
    cancel: &CancelToken,
) -> Result<bool, BuildError> {
    if mesh.has_links() {
        return Ok(false);
    }
    let pairs = sample_pairs(mesh);
    if pairs.is_empty() {
        return Ok(true);
    }
    let ends = |i: usize| (mesh.centroid(pairs[i].0), mesh.centroid(pairs[i].1));
    let (plain, with) = (
        SearchOptions::exact(),
        SearchOptions::exact().with_landmarks(Some(Arc::clone(landmarks))),
    );
    let (mut a, mut b) = (ExactSearch::new(), ExactSearch::new());
    let least = least_times(
        pairs.len(),
        cancel,
        [
            &mut |i| {
                let (s, t) = ends(i);
                let _ = a.find_path(mesh, s, t, &plain);
            },
            &mut |i| {
                let (s, t) = ends(i);
                let _ = b.find_path(mesh, s, t, &with);
            },
        ],
    )?;
    let total = |k: usize| least.iter().map(|x| x[k]).sum::<f64>();
    Ok(pays(total(0), total(1)))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::geom::Aabb;
    use crate::{build, BuildOptions, Scene};

    /// The sample is drawn from the fixed seed (its first pair is the seed's first two draws),
    /// is the same for two builds of a mesh, its pairs are the mesh's polygons, and it has
    /// every long pair (the short draws may land off the mesh).
    #[test]
    fn the_sample_is_fixed_and_on_the_mesh() {
        let mesh = build(&Scene::default_map(), &BuildOptions::default()).unwrap();
        let pairs = sample_pairs(&mesh);
        let again = build(&Scene::default_map(), &BuildOptions::default()).unwrap();
        assert_eq!(pairs, sample_pairs(&again));
        let n = mesh.polygon_count() as u64;
        let mut rng = crate::random::Rng::new(SEED);
        let first = (rng.next_u64() % n, rng.next_u64() % n);
        assert_eq!((u64::from(pairs[0].0 .0), u64::from(pairs[0].1 .0)), first);
        assert!(pairs.len() >= SAMPLES as usize / 2 && pairs.len() <= SAMPLES as usize);
        let n = mesh.polygon_count() as u32;
        assert!(pairs.iter().all(|&(a, b)| a.0 < n && b.0 < n));
        // Long and short: not all one polygon, not all pairs apart.
        assert!(pairs
            .iter()
            .any(|&(a, b)| a == b || mesh.centroid(a).distance(mesh.centroid(b)) < 100.0));
        assert!(pairs.iter().filter(|&&(a, b)| a != b).count() > pairs.len() / 2);
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

    /// A first round always runs; more only within the budget, up to [`FIT_RUNS`].
    #[test]
    fn rounds_stop_at_the_budget_after_the_first() {
        let ms = std::time::Duration::from_millis;
        assert!(another_round(0, ms(10_000)));
        assert!(another_round(1, ms(0)));
        assert!(another_round(FIT_RUNS - 1, ROUNDS_BUDGET - ms(1)));
        assert!(!another_round(1, ROUNDS_BUDGET));
        assert!(!another_round(FIT_RUNS, ms(0)));
    }

    /// A mesh of one polygon has no sample, and keeps its landmarks without a timing.
    #[test]
    fn one_polygon_has_no_sample() {
        let scene = Scene::new(Aabb::new(Vec2::ZERO, Vec2::new(10.0, 10.0)));
        let mesh = build(&scene, &BuildOptions::default()).unwrap();
        assert_eq!(mesh.polygon_count(), 1);
        assert!(sample_pairs(&mesh).is_empty());
        let lm = Arc::new(Landmarks::build(&mesh, 2));
        assert!(landmarks_pay(&mesh, &lm, &CancelToken::new()).unwrap());
    }

    /// On a mesh with off-mesh links, where the exact search refuses landmarks, they are not
    /// kept (the same mesh without its link keeps or drops them by their timing).
    #[test]
    fn a_mesh_with_links_keeps_no_landmarks() {
        let mesh = build(&Scene::default_map(), &BuildOptions::default()).unwrap();
        let lm = Arc::new(Landmarks::build(&mesh, 4));
        let (from, to) = (Scene::DEFAULT_START, Scene::DEFAULT_GOAL);
        let linked = mesh
            .clone()
            .with_links([crate::mesh::links::OffMeshLink::new(from, to, 1.0)])
            .unwrap();
        let linked_lm = Arc::new(Landmarks::build(&linked, 4));
        assert!(!landmarks_pay(&linked, &linked_lm, &CancelToken::new()).unwrap());
        assert!(landmarks_pay(&mesh, &lm, &CancelToken::new()).is_ok());
    }

    /// The landmarks' timing stops at a cancelled token.
    #[test]
    fn the_landmark_timing_stops_when_cancelled() {
        let mesh = build(&Scene::default_map(), &BuildOptions::default()).unwrap();
        let lm = Arc::new(Landmarks::build(&mesh, 4));
        let cancel = CancelToken::new();
        cancel.cancel();
        assert!(matches!(
            landmarks_pay(&mesh, &lm, &cancel),
            Err(BuildError::Cancelled)
        ));
        assert!(landmarks_pay(&mesh, &lm, &CancelToken::new()).is_ok());
    }
}
