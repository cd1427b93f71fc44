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
        let columns = exact_columns(mesh, &sites, check)?;
        Ok(Landmarks::from_columns(mesh, sites, &columns))
    }
}

/// The exact distances from each site to every vertex, one goal-less Polyanya run per site.
#[cfg(feature = "parallel")]
fn exact_columns(
    mesh: &NavMesh,
    sites: &[VertexId],
    check: &(dyn Fn() -> Result<(), BuildError> + Sync),
) -> Result<Vec<Vec<f64>>, BuildError> {
    use rayon::prelude::*;
    sites
        .par_iter()
        .map_init(ExactSearch::new, |search, &v| {
            search.distances_from(mesh, v, check)
        })
        .collect()
}

/// The exact distances from each site to every vertex, one goal-less Polyanya run per site.
#[cfg(not(feature = "parallel"))]
fn exact_columns(
    mesh: &NavMesh,
    sites: &[VertexId],
    check: &(dyn Fn() -> Result<(), BuildError> + Sync),
) -> Result<Vec<Vec<f64>>, BuildError> {
    let mut search = ExactSearch::new();
    sites
        .iter()
        .map(|&v| search.distances_from(mesh, v, check))
        .collect()
}
