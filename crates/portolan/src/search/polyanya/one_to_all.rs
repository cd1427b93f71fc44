//! One-to-all: exact distances from a vertex to every vertex (Polyanya without a goal), which
//! the landmark tables are built from.

use super::*;
use crate::build::BuildError;
use crate::build::CHECK_EVERY;
use crate::search::landmarks::choose_sites;

impl ExactSearch {
    /// Exact distances from vertex `source` to every vertex of the mesh (`f64::INFINITY` for
    /// vertices it cannot reach): Polyanya without a goal, run until its open list is empty.
    ///
    /// Every interval end that is a vertex `v`, seen from root `r`, records `g(r) + |r v|`, the
    /// length of a real path; the search reaches every vertex along a shortest path to it
    /// (Polyanya is complete for any target point), so the minimum recorded is the distance.
    /// Cul-de-sac pruning is off (dead ends have vertices too) and `f = g`. Cost: one search
    /// over the whole mesh, each corner a root once or a few times.
    ///
    /// A source on a pinch vertex ([`NavMesh::is_pinch`]) leaves through any of its wedges.
    ///
    /// `check` is called every [`CHECK_EVERY`] expansions; the search stops with its error
    /// (a cancelled build).
    pub(crate) fn distances_from(
        &mut self,
        mesh: &NavMesh,
        source: VertexId,
        check: &dyn Fn() -> Result<(), BuildError>,
    ) -> Result<Vec<f64>, BuildError> {
        self.distances_in_slices(mesh, source, check, CHECK_EVERY)
    }

    /// [`distances_from`](ExactSearch::distances_from), calling `check` every `slice`
    /// expansions (the tests vary it: the result must not depend on it).
    pub(crate) fn distances_in_slices(
        &mut self,
        mesh: &NavMesh,
        source: VertexId,
        check: &dyn Fn() -> Result<(), BuildError>,
        slice: usize,
    ) -> Result<Vec<f64>, BuildError> {
        check()?;
        self.reset(mesh);
        let mut reach = std::mem::take(&mut self.reach);
        reach.clear();
        reach.resize(mesh.vertex_count(), f64::INFINITY);
        reach[source.index()] = 0.0;
        let Some(&polygon) = mesh.vertex_polygons(source).first() else {
            return Ok(reach); // a vertex no polygon uses
        };
        self.reach = reach;
        self.one_to_all = true;
        let loc = Location::OnVertex {
            vertex: source,
            polygon,
        };
        let q = Query::from_point(mesh, mesh.vertex(source));
        self.push_start_nodes(mesh, &q, loc);
        let mut expanded = 0;
        // In slices; a slice that ends on its limit leaves its node open for the next.
        let mut stopped = Ok(());
        loop {
            let limit = Some(expanded + slice.max(1));
            if !matches!(self.run(mesh, &q, &mut expanded, limit), Outcome::Limited) {
                break;
            }
            stopped = check();
            if stopped.is_err() {
                break;
            }
        }
        self.one_to_all = false;
        let reach = std::mem::take(&mut self.reach);
        stopped.map(|()| reach)
    }
}

// Filling a landmark table is a one-to-all search per site, so it lives here: the table
// (`search::landmarks`) knows nothing about the search that fills it.
impl Landmarks {
    /// Chooses up to `count` landmarks for `mesh` (farthest first; fewer when the mesh has
    /// fewer usable vertices) and computes their distances to every vertex.
    ///
    /// 8 to 24 landmarks is the useful range: each more tightens the bound a little and costs
    /// one more whole-mesh search to build and 8 bytes per vertex; BENCHMARKS.md measures the
    /// speed-up per count against plain Polyanya, which makes 16 a good default.
    pub fn build(mesh: &NavMesh, count: usize) -> Landmarks {
        Self::build_until(mesh, count, &|| Ok(()))
            .expect("a check that never stops never stops the build")
    }

    /// [`build`](Landmarks::build) that calls `check` between sites and every [`CHECK_EVERY`]
    /// expansions of each site's search, and stops with its error.
    pub(crate) fn build_until(
        mesh: &NavMesh,
        count: usize,
        check: &(dyn Fn() -> Result<(), BuildError> + Sync),
    ) -> Result<Landmarks, BuildError> {
        let sites = choose_sites(mesh, count);
        let columns = exact_columns(mesh, &sites, check)
            .into_iter()
            .collect::<Result<Vec<_>, _>>()?;
        Ok(Landmarks::from_columns(mesh, sites, &columns))
    }

    /// [`build_until`](Landmarks::build_until) that keeps the sites whose searches ended
    /// before `check` stopped them (a time limit: which ones depends on the machine); `None`
    /// when none did.
    pub(crate) fn build_partial(
        mesh: &NavMesh,
        count: usize,
        check: &(dyn Fn() -> Result<(), BuildError> + Sync),
    ) -> Option<Landmarks> {
        let sites = choose_sites(mesh, count);
        let columns = exact_columns(mesh, &sites, check);
        let (sites, columns): (Vec<VertexId>, Vec<Vec<f64>>) = sites
            .into_iter()
            .zip(columns)
            .filter_map(|(s, c)| c.ok().map(|c| (s, c)))
            .unzip();
        (!sites.is_empty()).then(|| Landmarks::from_columns(mesh, sites, &columns))
    }
}

/// The exact distances from each site to every vertex, one goal-less Polyanya run per site;
/// per site, `check`'s error where it stopped that site's run.
#[cfg(feature = "parallel")]
fn exact_columns(
    mesh: &NavMesh,
    sites: &[VertexId],
    check: &(dyn Fn() -> Result<(), BuildError> + Sync),
) -> Vec<Result<Vec<f64>, BuildError>> {
    use rayon::prelude::*;
    sites
        .par_iter()
        .map_init(ExactSearch::new, |search, &v| {
            search.distances_from(mesh, v, check)
        })
        .collect()
}

/// The exact distances from each site to every vertex, one goal-less Polyanya run per site;
/// per site, `check`'s error where it stopped that site's run.
#[cfg(not(feature = "parallel"))]
fn exact_columns(
    mesh: &NavMesh,
    sites: &[VertexId],
    check: &(dyn Fn() -> Result<(), BuildError> + Sync),
) -> Vec<Result<Vec<f64>, BuildError>> {
    let mut search = ExactSearch::new();
    sites
        .iter()
        .map(|&v| search.distances_from(mesh, v, check))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{build, BuildOptions, Scene};
    use std::sync::atomic::{AtomicUsize, Ordering};

    /// A partial table keeps whole columns only: each site it keeps has the distances of the
    /// full table's same site, to every vertex; a check that stops everything at once keeps none.
    #[test]
    fn a_partial_table_keeps_whole_columns() {
        let mesh = build(&Scene::default_map(), &BuildOptions::default()).unwrap();
        let full = Landmarks::build(&mesh, 8);
        assert!(Landmarks::build_partial(&mesh, 8, &|| Err(BuildError::Cancelled)).is_none());
        let whole = Landmarks::build_partial(&mesh, 8, &|| Ok(())).unwrap();
        assert_eq!(whole.sites(), full.sites());
        // Stopped after some checks: whichever sites ended before that, with their columns.
        let mut partial = 0;
        for allowed in 1..24 {
            let left = AtomicUsize::new(allowed);
            let stop = || match left
                .fetch_update(Ordering::Relaxed, Ordering::Relaxed, |n| n.checked_sub(1))
            {
                Ok(_) => Ok(()),
                Err(_) => Err(BuildError::Cancelled),
            };
            let Some(part) = Landmarks::build_partial(&mesh, 8, &stop) else {
                continue;
            };
            partial += usize::from(part.sites().len() < full.sites().len());
            for (l, site) in part.sites().iter().enumerate() {
                let k = full
                    .sites()
                    .iter()
                    .position(|s| s == site)
                    .expect("a chosen site");
                for v in 0..mesh.vertex_count() as u32 {
                    let v = crate::mesh::VertexId(v);
                    assert_eq!(
                        part.distance(l, v).map(f64::to_bits),
                        full.distance(k, v).map(f64::to_bits)
                    );
                }
            }
        }
        assert!(partial > 0, "no check count stopped the table part way");
    }
}
