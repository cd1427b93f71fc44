//! Queries in sight: when the segment from the start to the goal is clear, it is the path.
//!
//! A straight segment is the shortest of all curves between its ends, so when the mesh holds it
//! the search is not needed. An exact raycast ([`raycast`](crate::search::raycast)) walks the
//! polygons the segment crosses and says whether it reaches the goal; the search would expand
//! the same polygons one node each, and queue and pop the nodes of their other edges. Where the
//! goal is not in sight the raycast stops at the first wall, having read the polygons up to it.
//!
//! The channel is the raycast's polygons made a chain of polygons sharing edges (where the
//! segment passes through a vertex, the polygons around it), as every path's channel is. Not on
//! meshes with off-mesh links (a link may be cheaper than the segment) nor under a polygon
//! filter (whose closed polygons a raycast does not know). It runs after the cheaper answers
//! (same polygon, parts of the mesh no portal joins, forced channels) and before any search,
//! the corner search's included: its view query starts out of sight
//! ([`corner_graph`](crate::search::corner_graph)).
//!
//! # Cost
//! Linear in the polygons crossed up to the goal or the first wall, one or two exact orientation
//! tests each. On the microsecond queries of small open meshes (the two arenas) it is most of
//! what remains of a query; on long queries it is a small fraction of the search. Figures:
//! BENCHMARKS.md (issue 15, session 15).

use super::{segment_channel, ChannelBuffers, ExactSearch};
use crate::geom::Vec2;
use crate::mesh::{Location, NavMesh, PolyId};
use crate::search::raycast::{raycast_located, RayOutcome};
use crate::search::Path;

/// Reusable buffers of [`ExactSearch::in_sight`]: the polygons the ray crossed, the channel.
#[derive(Clone, Debug, Default)]
pub(super) struct SightScratch {
    leg: Vec<PolyId>,
    channel: ChannelBuffers,
}

impl ExactSearch {
    /// The segment from `s` (located at `sloc`) to `t` when the mesh holds it, with its
    /// channel when `with_channel`; `None` when a wall is in the way (see the [module
    /// docs](self)).
    pub(super) fn in_sight(
        &mut self,
        mesh: &NavMesh,
        (s, sloc): (Vec2, Location),
        t: Vec2,
        with_channel: bool,
    ) -> Option<Path> {
        let SightScratch { leg, channel } = &mut self.sight;
        match raycast_located(mesh, s, sloc, t, leg) {
            Ok(RayOutcome::Reached { .. }) => {}
            _ => return None,
        }
        if !with_channel {
            return Some(Path::proved(vec![s, t], Vec::new()));
        }
        segment_channel(mesh, (s, t), leg, channel);
        Some(Path::proved(vec![s, t], channel.copy()))
    }
}
