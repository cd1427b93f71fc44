//! The corner graph as bytes: a saved index that a later process loads instead of building it
//! again ([`CornerGraph::to_bytes`], [`CornerGraph::from_bytes`]).
//!
//! # Format (version 8)
//! Little-endian throughout:
//!
//! | bytes | what |
//! | --- | --- |
//! | 8 | magic `PRTLNCG\0` |
//! | 4 | format version ([`VERSION`]) |
//! | 8 | the mesh's [`fingerprint`](NavMesh::fingerprint) |
//! | 8, 8 | the mesh's vertex and polygon counts |
//! | … | the graph: its arrays, each as a 64-bit length and its elements, and its flags |
//! | 8 | checksum: 64-bit FNV-1a of every byte before it |
//!
//! A file is refused with a typed [`IndexError`] that names what is wrong: not an index, another
//! version, a damaged file (the checksum), another mesh (the fingerprint), or arrays that do not
//! fit the mesh (every index is checked against its bounds, so even a file written by someone
//! else's tool cannot make a query read out of bounds).
//!
//! A graph built within its memory budget ([`MAX_INDEX_BYTES`](super::MAX_INDEX_BYTES)) may
//! have dropped its views' strips, their cells, their cones' chains, or its edges: each is saved as empty
//! arrays, which a load takes as "dropped" (the same format; a file from before that could
//! not have them empty, and loads as it did). Its labels' links, which are not saved but
//! derived at load, may be dropped too: the labels' flag is then 2 instead of 1, and a load
//! leaves them out (builds before session 29 refuse such a file as damaged).
//!
//! Version 8 keeps no edge lengths (8 of an edge's 13 bytes): an edge's length is the distance
//! between its corners on the mesh, which the loader has.
//!
//! # What an edit costs
//! The index belongs to one mesh: after an edit (a [`DynamicNavMesh`](crate::dynamic) update)
//! the graph must be built again; there is no incremental update yet.
//!
//! # Cost
//! Writing and reading are linear in the graph's size (BENCHMARKS.md, "Fast search", gives
//! sizes per map); the checksum and the fingerprint are one pass each.

use super::cells::{Cells, MAX_GRID};
use super::fans::Fans;
use super::labels::HubLabels;
use super::views::{ViewChoice, Views};
use super::{side_group, CornerGraph, NONE};
use crate::mesh::{Fnv64, NavMesh, PolyId, VertexId};
use crate::search::landmarks::Landmarks;
use std::sync::Arc;

/// The first bytes of every index file.
///
/// ```
/// use portolan::search::corner_graph::file::{MAGIC, VERSION};
/// use portolan::search::corner_graph::CornerGraph;
/// use portolan::{build, BuildOptions, Scene};
/// let mesh = build(&Scene::default_map(), &BuildOptions::default()).unwrap();
/// let bytes = CornerGraph::build(&mesh).to_bytes();
/// assert_eq!(bytes[..8], MAGIC);
/// assert_eq!(bytes[8..12], VERSION.to_le_bytes());
/// ```
pub const MAGIC: [u8; 8] = *b"PRTLNCG\0";

/// The format version this build writes and reads (8: no edge lengths, which are the distances
/// between the edges' corners; 7: a grid per polygon for the cells, and
/// no grid lines for a polygon that is one cell; 6: the views' cells; 5: each corner's edges grouped by the
/// turns they continue, then by target; 4: the landmark table in `f32`; 3: the views
/// keep their sweeps' trees, the channels of their paths' first and last legs; 2: a graph
/// without labels says whether its edges are swept, `CornerGraph::answers_from_edges`). Older
/// files are refused, to be built again. (Since version 7 a graph whose views passed its budget
/// may keep its labels and sweep its edges: the same layout, which builds before that refuse
/// as damaged.)
///
/// ```
/// use portolan::search::corner_graph::file::VERSION;
/// use portolan::search::corner_graph::{CornerGraph, IndexError};
/// use portolan::{build, BuildOptions, Scene};
/// let mesh = build(&Scene::default_map(), &BuildOptions::default()).unwrap();
/// let mut bytes = CornerGraph::build(&mesh).to_bytes();
/// bytes[8..12].copy_from_slice(&(VERSION - 1).to_le_bytes());
/// // (The version is read before the checksum: an older file is named as one.)
/// assert_eq!(
///     CornerGraph::from_bytes(&bytes, &mesh).unwrap_err(),
///     IndexError::Version { found: VERSION - 1, supported: VERSION }
/// );
/// ```
pub const VERSION: u32 = 8;

/// Why [`CornerGraph::from_bytes`] refused a file.
///
/// ```
/// use portolan::search::corner_graph::{CornerGraph, IndexError};
/// use portolan::{build, BuildOptions, Scene};
/// let mesh = build(&Scene::default_map(), &BuildOptions::default()).unwrap();
/// assert_eq!(CornerGraph::from_bytes(b"not an index", &mesh).unwrap_err(), IndexError::NotAnIndex);
/// let bytes = CornerGraph::build(&mesh).to_bytes();
/// let cut = &bytes[..bytes.len() / 2];
/// assert!(matches!(
///     CornerGraph::from_bytes(cut, &mesh),
///     Err(IndexError::Truncated { .. } | IndexError::Checksum { .. })
/// ));
/// ```
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
#[non_exhaustive]
pub enum IndexError {
    /// The bytes do not start with [`MAGIC`].
    #[error("not a Portolan corner graph index (it does not start with \"PRTLNCG\")")]
    NotAnIndex,
    /// The file's format version is not [`VERSION`].
    #[error(
        "corner graph index format version {found}; this build reads version {supported} \
         (build the index again)"
    )]
    Version {
        /// The file's version.
        found: u32,
        /// The version this build reads.
        supported: u32,
    },
    /// The file ends before `what` does.
    #[error("corner graph index truncated: it ends inside {what}")]
    Truncated {
        /// The part the file ends in.
        what: &'static str,
    },
    /// The checksum does not match the bytes: the file is damaged.
    #[error(
        "corner graph index damaged: checksum {stored:#018x} stored, {computed:#018x} computed"
    )]
    Checksum {
        /// The checksum the file holds.
        stored: u64,
        /// The checksum of the bytes read.
        computed: u64,
    },
    /// The index was built for another mesh.
    #[error(
        "corner graph index built for another mesh: fingerprint {index:#018x} \
         ({index_vertices} vertices, {index_polygons} polygons), this mesh's is {mesh:#018x} \
         ({mesh_vertices} vertices, {mesh_polygons} polygons); build the index again for this \
         mesh (a mesh built by another version of the library may number its polygons differently)"
    )]
    OtherMesh {
        /// The fingerprint the index was built for.
        index: u64,
        /// The fingerprint of the mesh given.
        mesh: u64,
        /// The vertex count the index was built for.
        index_vertices: u64,
        /// The polygon count the index was built for.
        index_polygons: u64,
        /// The mesh's vertex count.
        mesh_vertices: u64,
        /// The mesh's polygon count.
        mesh_polygons: u64,
    },
    /// A part of the graph does not fit the mesh (an index out of bounds, a length that
    /// disagrees, a distance that is not a number).
    #[error("corner graph index corrupt: {what}")]
    Corrupt {
        /// The part and what is wrong with it.
        what: String,
    },
}

/// Little-endian output.
struct Out(Vec<u8>);

impl Out {
    fn u8(&mut self, x: u8) {
        self.0.push(x);
    }
    fn u32(&mut self, x: u32) {
        self.0.extend_from_slice(&x.to_le_bytes());
    }
    fn u64(&mut self, x: u64) {
        self.0.extend_from_slice(&x.to_le_bytes());
    }
    fn f64(&mut self, x: f64) {
        self.u64(x.to_bits());
    }
    fn u32s(&mut self, xs: impl ExactSizeIterator<Item = u32>) {
        self.u64(xs.len() as u64);
        self.0.reserve(xs.len() * 4);
        xs.for_each(|x| self.u32(x));
    }
    fn f64s(&mut self, xs: &[f64]) {
        self.u64(xs.len() as u64);
        self.0.reserve(xs.len() * 8);
        xs.iter().for_each(|&x| self.f64(x));
    }
    fn f32s(&mut self, xs: &[f32]) {
        self.u32s(xs.iter().map(|x| x.to_bits()));
    }
    fn u8s(&mut self, xs: &[u8]) {
        self.u64(xs.len() as u64);
        self.0.extend_from_slice(xs);
    }
    fn u16s(&mut self, xs: &[u16]) {
        self.u64(xs.len() as u64);
        self.0.reserve(xs.len() * 2);
        xs.iter()
            .for_each(|x| self.0.extend_from_slice(&x.to_le_bytes()));
    }
}

/// Little-endian input, every read checked against the end.
struct In<'a> {
    bytes: &'a [u8],
}

impl<'a> In<'a> {
    fn take(&mut self, n: usize, what: &'static str) -> Result<&'a [u8], IndexError> {
        if n > self.bytes.len() {
            return Err(IndexError::Truncated { what });
        }
        let (head, rest) = self.bytes.split_at(n);
        self.bytes = rest;
        Ok(head)
    }
    fn u8(&mut self, what: &'static str) -> Result<u8, IndexError> {
        Ok(self.take(1, what)?[0])
    }
    fn u32(&mut self, what: &'static str) -> Result<u32, IndexError> {
        let b = self.take(4, what)?;
        Ok(u32::from_le_bytes([b[0], b[1], b[2], b[3]]))
    }
    fn u64(&mut self, what: &'static str) -> Result<u64, IndexError> {
        let b = self.take(8, what)?;
        let mut a = [0u8; 8];
        a.copy_from_slice(b);
        Ok(u64::from_le_bytes(a))
    }
    fn f64(&mut self, what: &'static str) -> Result<f64, IndexError> {
        Ok(f64::from_bits(self.u64(what)?))
    }
    /// An array's length, checked against the bytes left (`size` bytes per element).
    fn len(&mut self, size: usize, what: &'static str) -> Result<usize, IndexError> {
        let n = self.u64(what)?;
        match usize::try_from(n).ok().and_then(|n| n.checked_mul(size)) {
            Some(bytes) if bytes <= self.bytes.len() => Ok(n as usize),
            _ => Err(IndexError::Truncated { what }),
        }
    }
    fn u32s(&mut self, what: &'static str) -> Result<Vec<u32>, IndexError> {
        let n = self.len(4, what)?;
        let b = self.take(n * 4, what)?;
        Ok(b.chunks_exact(4)
            .map(|c| u32::from_le_bytes([c[0], c[1], c[2], c[3]]))
            .collect())
    }
    fn f32s(&mut self, what: &'static str) -> Result<Vec<f32>, IndexError> {
        Ok(self.u32s(what)?.into_iter().map(f32::from_bits).collect())
    }
    fn f64s(&mut self, what: &'static str) -> Result<Vec<f64>, IndexError> {
        let n = self.len(8, what)?;
        let b = self.take(n * 8, what)?;
        Ok(b.chunks_exact(8)
            .map(|c| {
                let mut a = [0u8; 8];
                a.copy_from_slice(c);
                f64::from_bits(u64::from_le_bytes(a))
            })
            .collect())
    }
    fn u8s(&mut self, what: &'static str) -> Result<Vec<u8>, IndexError> {
        let n = self.len(1, what)?;
        Ok(self.take(n, what)?.to_vec())
    }
    fn u16s(&mut self, what: &'static str) -> Result<Vec<u16>, IndexError> {
        let n = self.len(2, what)?;
        let b = self.take(n * 2, what)?;
        Ok(b.chunks_exact(2)
            .map(|c| u16::from_le_bytes([c[0], c[1]]))
            .collect())
    }
}

fn corrupt(what: impl Into<String>) -> IndexError {
    IndexError::Corrupt { what: what.into() }
}

/// `Ok` when every value is below `bound` (or [`NONE`] where `none_ok`).
fn check_ids(xs: &[u32], bound: usize, none_ok: bool, what: &str) -> Result<(), IndexError> {
    match xs
        .iter()
        .find(|&&x| (x as usize) >= bound && !(none_ok && x == NONE))
    {
        Some(x) => Err(corrupt(format!("{what}: {x} is out of bounds (< {bound})"))),
        None => Ok(()),
    }
}

/// The views' tree of sweep nodes from its two arrays, when it is one on `mesh`: polygons in
/// bounds, each node after its parent (so that reading a chain back ends), and each node's
/// polygon across an edge from its parent's (so that every chain read is a channel).
fn view_tree(
    mesh: &NavMesh,
    polys: &[u32],
    parents: &[u32],
) -> Result<Vec<(PolyId, u32)>, IndexError> {
    const WHAT: &str = "the view tree";
    if polys.len() != parents.len() {
        return Err(corrupt(format!("{WHAT}: arrays of different lengths")));
    }
    check_ids(polys, mesh.polygon_count(), false, WHAT)?;
    for (i, (&p, &parent)) in polys.iter().zip(parents).enumerate() {
        if parent == NONE {
            continue;
        }
        if parent as usize >= i {
            return Err(corrupt(format!(
                "{WHAT}: node {i} comes before its parent {parent}"
            )));
        }
        if mesh
            .shared_edge(PolyId(polys[parent as usize]), PolyId(p))
            .is_none()
        {
            return Err(corrupt(format!(
                "{WHAT}: node {i}'s polygon {p} shares no edge with its parent's"
            )));
        }
    }
    Ok(polys
        .iter()
        .zip(parents)
        .map(|(&p, &x)| (PolyId(p), x))
        .collect())
}

/// `Ok` when `offsets` are `len` + 1 compressed-row offsets, from 0, not decreasing, ending at
/// `end`.
fn check_offsets(offsets: &[u32], len: usize, end: usize, what: &str) -> Result<(), IndexError> {
    if offsets.len() != len + 1
        || offsets[0] != 0
        || offsets[len] as usize != end
        || offsets.windows(2).any(|w| w[0] > w[1])
    {
        return Err(corrupt(format!(
            "{what}: not {} offsets from 0 to {end}, in order",
            len + 1
        )));
    }
    Ok(())
}

/// The views' cells ([`Cells`]), checked against the views' entries per polygon (`offsets`):
/// per polygon, `g²` cells and `2 (g − 1)` grid lines for some `g` from 1 to [`MAX_GRID`], the
/// lines finite and in order, each cell's entries its polygon's (by their index among the
/// polygon's), the surely taken ones among them and of corners (a query takes them with no
/// test). All arrays empty: dropped to fit the memory budget.
fn view_cells(
    i: &mut In<'_>,
    (offsets, corner): (&[u32], &[u32]),
    turns: &[[u32; 2]],
) -> Result<Cells, IndexError> {
    const WHAT: &str = "the view cells";
    let start = i.u32s("the view cells' offsets")?;
    let line_at = i.u32s("the view cells' grid line offsets")?;
    let lines = i.f64s("the view cells' grid lines")?;
    let at = i.u32s("the view cells' entry offsets")?;
    let sure = i.u32s("the view cells' sure entries")?;
    let entries = i.u16s("the view cells' entries")?;
    if [
        start.len(),
        line_at.len(),
        lines.len(),
        at.len(),
        sure.len(),
        entries.len(),
    ] == [0; 6]
    {
        return Ok(Cells::default());
    }
    let np = offsets.len() - 1;
    if sure.len() + 1 != at.len() {
        return Err(corrupt(format!("{WHAT}: arrays of the wrong lengths")));
    }
    check_offsets(&start, np, sure.len(), "the view cells' offsets")?;
    check_offsets(
        &line_at,
        np,
        lines.len(),
        "the view cells' grid line offsets",
    )?;
    check_offsets(
        &at,
        sure.len(),
        entries.len(),
        "the view cells' entry offsets",
    )?;
    for p in 0..np {
        let cells = start[p] as usize..start[p + 1] as usize;
        let l = &lines[line_at[p] as usize..line_at[p + 1] as usize];
        let g = l.len() / 2 + 1;
        let cut = l.len() % 2 == 0
            && g <= MAX_GRID
            && cells.len() == g * g
            && (l.is_empty()
                || l.chunks(g - 1).all(|side| {
                    side.iter().all(|x| x.is_finite()) && side.windows(2).all(|w| w[0] <= w[1])
                }));
        if !cut {
            return Err(corrupt(format!(
                "{WHAT}: polygon {p} has {} cells or grid lines that do not go with them",
                cells.len()
            )));
        }
        let own = (offsets[p + 1] - offsets[p]) as usize;
        for c in cells {
            let kept = &entries[at[c] as usize..at[c + 1] as usize];
            if !(at[c]..=at[c + 1]).contains(&sure[c])
                || kept.iter().any(|&e| usize::from(e) >= own)
            {
                return Err(corrupt(format!(
                    "{WHAT}: cell {c} lists entries not of its polygon {p}"
                )));
            }
            let sure = &entries[at[c] as usize..sure[c] as usize];
            let corner_of = |e: u16| corner[offsets[p] as usize + usize::from(e)] as usize;
            if sure.iter().any(|&e| turns[corner_of(e)][0] == NONE) {
                return Err(corrupt(format!(
                    "{WHAT}: cell {c} takes the view of a vertex that is not a corner"
                )));
            }
        }
    }
    Ok(Cells {
        start,
        line_at,
        lines,
        at,
        sure,
        entries,
    })
}

/// `Ok` when every value is a number ≥ 0 (infinite allowed where `inf_ok`).
fn check_dists(xs: &[f64], inf_ok: bool, what: &str) -> Result<(), IndexError> {
    match xs
        .iter()
        .find(|&&x| x.is_nan() || x < 0.0 || (x.is_infinite() && !inf_ok))
    {
        Some(x) => Err(corrupt(format!("{what}: {x} is not a distance"))),
        None => Ok(()),
    }
}

impl CornerGraph {
    /// The graph as bytes, to be loaded with [`CornerGraph::from_bytes`] in another process
    /// (see the [format](crate::search::corner_graph::file)): a build paid once and saved next
    /// to the mesh.
    ///
    /// ```
    /// # use portolan::{build, BuildOptions, Scene};
    /// # use portolan::search::corner_graph::CornerGraph;
    /// let mesh = build(&Scene::default_map(), &BuildOptions::default()).unwrap();
    /// let graph = CornerGraph::build(&mesh);
    /// let bytes = graph.to_bytes();
    /// let loaded = CornerGraph::from_bytes(&bytes, &mesh).unwrap();
    /// assert_eq!(loaded.edge_count(), graph.edge_count());
    /// ```
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut o = Out(Vec::with_capacity(self.memory_bytes() + 256));
        o.0.extend_from_slice(&MAGIC);
        o.u32(VERSION);
        o.u64(self.mesh_fingerprint);
        o.u64(self.turns.len() as u64);
        o.u64(self.polygons as u64);
        o.u32s(self.turns.as_flattened().iter().copied());
        o.u32s(self.wedge_poly.iter().copied());
        o.u32s(self.offsets.iter().copied());
        o.u32s(self.targets.iter().copied());
        o.u8s(&self.sides);
        match &self.labels {
            None => o.u8(0),
            Some(l) => {
                // 2: the links dropped (not derived again at load).
                o.u8(if l.has_links() { 1 } else { 2 });
                o.u64(l.hub_count as u64);
                o.u32s(l.offsets.iter().copied());
                o.u32s(l.hubs.iter().copied());
                o.f64s(&l.dists);
                o.u32s(l.next.iter().copied());
                o.u32s(l.hub_vertex.iter().copied());
            }
        }
        match &self.views {
            None => o.u8(0),
            Some(v) => {
                o.u8(1);
                o.u32s(v.offsets.iter().copied());
                o.u32s(v.corner.iter().copied());
                o.u32s(v.cone_at.iter().copied());
                o.u32s(v.cones.as_flattened().iter().copied());
                o.u32s(v.cone_node.iter().copied());
                o.u32s(v.tree.iter().map(|x| x.0 .0));
                o.u32s(v.tree.iter().map(|x| x.1));
                o.u32s(v.strip_at.iter().copied());
                o.u32s(v.strips.iter().map(|p| p.0));
                o.u32s(v.cells.start.iter().copied());
                o.u32s(v.cells.line_at.iter().copied());
                o.f64s(&v.cells.lines);
                o.u32s(v.cells.at.iter().copied());
                o.u32s(v.cells.sure.iter().copied());
                o.u16s(&v.cells.entries);
                o.f64(v.choice.plain_below);
                o.u64(v.choice.budget as u64);
            }
        }
        match &self.landmarks {
            None => o.u8(0),
            Some(l) => {
                o.u8(1);
                o.u32s(l.sites().iter().map(|v| v.0));
                o.f32s(l.table());
            }
        }
        o.u8(u8::from(self.sweeps));
        let mut h = Fnv64::new();
        h.write(&o.0);
        o.u64(h.finish());
        o.0
    }

    /// The graph saved by [`CornerGraph::to_bytes`], for `mesh`: the same graph as a build on
    /// `mesh` would give, now tied to this `mesh` ([`CornerGraph::mesh_id`]). Refused, with the
    /// reason, when the bytes are not an index of this version, are damaged, were saved for
    /// another mesh (its [`fingerprint`](NavMesh::fingerprint)), or do not fit the mesh.
    /// Never panics.
    ///
    /// ```
    /// # use portolan::{build, BuildOptions, Scene};
    /// # use portolan::search::corner_graph::{CornerGraph, IndexError};
    /// let mesh = build(&Scene::default_map(), &BuildOptions::default()).unwrap();
    /// let mut bytes = CornerGraph::build(&mesh).to_bytes();
    /// assert!(CornerGraph::from_bytes(&bytes, &mesh).is_ok());
    /// let last = bytes.len() - 9;
    /// bytes[last] ^= 1;
    /// assert!(matches!(
    ///     CornerGraph::from_bytes(&bytes, &mesh),
    ///     Err(IndexError::Checksum { .. })
    /// ));
    /// assert_eq!(CornerGraph::from_bytes(b"nonsense", &mesh).unwrap_err(), IndexError::NotAnIndex);
    /// ```
    pub fn from_bytes(bytes: &[u8], mesh: &NavMesh) -> Result<CornerGraph, IndexError> {
        if bytes.len() < MAGIC.len() || bytes[..MAGIC.len()] != MAGIC {
            return Err(IndexError::NotAnIndex);
        }
        let mut i = In {
            bytes: &bytes[MAGIC.len()..],
        };
        let version = i.u32("the header")?;
        if version != VERSION {
            return Err(IndexError::Version {
                found: version,
                supported: VERSION,
            });
        }
        // The checksum first: a damaged file says so, whatever else it seems to say.
        if bytes.len() < MAGIC.len() + 4 + 8 {
            return Err(IndexError::Truncated { what: "the header" });
        }
        let (body, tail) = bytes.split_at(bytes.len() - 8);
        let mut h = Fnv64::new();
        h.write(body);
        let stored = u64::from_le_bytes(tail.try_into().expect("8 bytes"));
        if stored != h.finish() {
            return Err(IndexError::Checksum {
                stored,
                computed: h.finish(),
            });
        }
        i.bytes = &body[MAGIC.len() + 4..];
        let fingerprint = i.u64("the header")?;
        let vertices = i.u64("the header")?;
        let polygons = i.u64("the header")?;
        let (nv, np) = (mesh.vertex_count(), mesh.polygon_count());
        let mesh_fingerprint = mesh.fingerprint();
        if fingerprint != mesh_fingerprint || vertices != nv as u64 || polygons != np as u64 {
            return Err(IndexError::OtherMesh {
                index: fingerprint,
                mesh: mesh_fingerprint,
                index_vertices: vertices,
                index_polygons: polygons,
                mesh_vertices: nv as u64,
                mesh_polygons: np as u64,
            });
        }
        let flat = i.u32s("the corners' walls")?;
        if flat.len() != 2 * nv {
            return Err(corrupt("the corners' walls: not two per vertex"));
        }
        check_ids(&flat, nv, true, "the corners' walls")?;
        let turns: Vec<[u32; 2]> = flat.chunks_exact(2).map(|c| [c[0], c[1]]).collect();
        let wedge_poly = i.u32s("the corners' wedges")?;
        if wedge_poly.len() != nv {
            return Err(corrupt("the corners' wedges: not one per vertex"));
        }
        check_ids(&wedge_poly, np, true, "the corners' wedges")?;
        // A corner has both walls and a wedge, and polygons around it (a query steps from a
        // corner into one); any other vertex none of them.
        if let Some(v) = (0..nv).find(|&v| {
            let [u, w] = turns[v];
            (u == NONE) != (w == NONE)
                || (u == NONE) != (wedge_poly[v] == NONE)
                || (u != NONE && mesh.vertex_polygons(VertexId(v as u32)).is_empty())
        }) {
            return Err(corrupt(format!(
                "vertex {v}: walls and wedge disagree on whether it is a corner"
            )));
        }
        let is_corner = |v: u32| turns[v as usize][0] != NONE;
        let offsets = i.u32s("the edge offsets")?;
        let targets = i.u32s("the edge targets")?;
        check_offsets(&offsets, nv, targets.len(), "the edge offsets")?;
        check_ids(&targets, nv, false, "the edge targets")?;
        // Edges join corners only.
        if let Some(v) = (0..nv).find(|&v| {
            let row = &targets[offsets[v] as usize..offsets[v + 1] as usize];
            !row.is_empty() && (!is_corner(v as u32) || !row.iter().all(|&d| is_corner(d)))
        }) {
            return Err(corrupt(format!(
                "the edges of vertex {v}: an edge that does not join two corners"
            )));
        }
        let sides = i.u8s("the edge sides")?;
        if sides.len() != targets.len() {
            return Err(corrupt("the edge sides: not one per edge"));
        }
        // Each edge continues left or right turns or both, and a row holds its edges grouped
        // so (`CornerGraph::taut_edges`), each group by target (`CornerGraph::edge_index`).
        if let Some(v) = (0..nv).find(|&v| {
            let r = offsets[v] as usize..offsets[v + 1] as usize;
            let key = |e: usize| (side_group(sides[e]), targets[e]);
            sides[r.clone()].iter().any(|&x| !(1..=3).contains(&x))
                || r.clone().skip(1).any(|e| key(e - 1) >= key(e))
        }) {
            return Err(corrupt(format!(
                "the edges of vertex {v}: a side that is neither left nor right, or not grouped by side and target"
            )));
        }
        let labels = match i.u8("the labels")? {
            0 => None,
            flag @ (1 | 2) => {
                let hub_count = usize::try_from(i.u64("the labels")?)
                    .ok()
                    .filter(|&h| h <= nv)
                    .ok_or_else(|| corrupt("the labels: more hubs than vertices"))?;
                let offsets = i.u32s("the label offsets")?;
                let hubs = i.u32s("the label hubs")?;
                check_offsets(&offsets, nv, hubs.len(), "the label offsets")?;
                check_ids(&hubs, hub_count, false, "the label hubs")?;
                let dists = i.f64s("the label distances")?;
                check_dists(&dists, false, "the label distances")?;
                let next = i.u32s("the label next hops")?;
                check_ids(&next, nv, false, "the label next hops")?;
                let hub_vertex = i.u32s("the hubs' vertices")?;
                check_ids(&hub_vertex, nv, false, "the hubs' vertices")?;
                if dists.len() != hubs.len()
                    || next.len() != hubs.len()
                    || hub_vertex.len() != hub_count
                {
                    return Err(corrupt("the labels: arrays of different lengths"));
                }
                Some(HubLabels::from_parts(
                    offsets,
                    hubs,
                    dists,
                    next,
                    hub_vertex,
                    hub_count,
                    flag == 1,
                ))
            }
            x => return Err(corrupt(format!("the labels: flag {x}, not 0, 1 or 2"))),
        };
        let views = match i.u8("the views")? {
            0 => None,
            1 => {
                let offsets = i.u32s("the view offsets")?;
                let corner = i.u32s("the view corners")?;
                check_offsets(&offsets, np, corner.len(), "the view offsets")?;
                check_ids(&corner, nv, false, "the view corners")?;
                let cone_at = i.u32s("the view cone offsets")?;
                let flat = i.u32s("the view cones")?;
                if flat.len() % 2 != 0 {
                    return Err(corrupt("the view cones: an odd number of vertices"));
                }
                check_offsets(
                    &cone_at,
                    corner.len(),
                    flat.len() / 2,
                    "the view cone offsets",
                )?;
                check_ids(&flat, nv, false, "the view cones")?;
                let cone_node = i.u32s("the view cones' nodes")?;
                let tree_poly = i.u32s("the view tree's polygons")?;
                let tree_parent = i.u32s("the view tree's parents")?;
                let tree = view_tree(mesh, &tree_poly, &tree_parent)?;
                // No nodes and no tree: dropped to fit the memory budget (`Views::fit_memory`).
                if !(cone_node.is_empty() && tree.is_empty()) {
                    if cone_node.len() != flat.len() / 2 {
                        return Err(corrupt("the view cones' nodes: not one per cone"));
                    }
                    check_ids(&cone_node, tree.len(), false, "the view cones' nodes")?;
                    // Each cone's node enters the polygon the cone is of.
                    for p in 0..np {
                        for e in offsets[p] as usize..offsets[p + 1] as usize {
                            for k in cone_at[e] as usize..cone_at[e + 1] as usize {
                                if tree[cone_node[k] as usize].0 .0 as usize != p {
                                    return Err(corrupt(format!(
                                        "the view cones' nodes: cone {k} of polygon {p} has a \
                                         node in another polygon"
                                    )));
                                }
                            }
                        }
                    }
                }
                let strip_at = i.u32s("the edge strip offsets")?;
                let strips = i.u32s("the edge strips")?;
                // No strips at all: dropped to fit the memory budget.
                if !(strip_at.is_empty() && strips.is_empty()) {
                    check_offsets(
                        &strip_at,
                        targets.len(),
                        strips.len(),
                        "the edge strip offsets",
                    )?;
                }
                check_ids(&strips, np, false, "the edge strips")?;
                let cells = view_cells(&mut i, (&offsets, &corner), &turns)?;
                if labels.is_none() {
                    return Err(corrupt("views without labels (the views join labels)"));
                }
                let plain_below = i.f64("the view choice")?;
                if plain_below.is_nan() || plain_below < 0.0 {
                    return Err(corrupt("the view choice: a distance that is not one"));
                }
                let budget = usize::try_from(i.u64("the view choice")?)
                    .map_err(|_| corrupt("the view choice: a budget too large"))?;
                Some(Views {
                    offsets,
                    corner,
                    cone_at,
                    cones: flat.chunks_exact(2).map(|c| [c[0], c[1]]).collect(),
                    cone_node,
                    tree,
                    strip_at,
                    strips: strips.into_iter().map(PolyId).collect(),
                    cells,
                    choice: ViewChoice {
                        plain_below,
                        budget,
                    },
                    fans: Fans::of(mesh, &turns, &wedge_poly),
                })
            }
            x => return Err(corrupt(format!("the views: flag {x}, not 0 or 1"))),
        };
        let landmarks = match i.u8("the landmarks")? {
            0 => None,
            1 => {
                let sites = i.u32s("the landmark sites")?;
                check_ids(&sites, nv, false, "the landmark sites")?;
                let table = i.f32s("the landmark table")?;
                // NaN marks pinch vertices; infinity, unreachable ones.
                if table.len() != sites.len() * nv || table.iter().any(|&d| d < 0.0) {
                    return Err(corrupt(
                        "the landmark table: not one distance per site and vertex",
                    ));
                }
                Some(Arc::new(Landmarks::from_parts(
                    mesh.instance_id(),
                    sites.into_iter().map(VertexId).collect(),
                    table,
                )))
            }
            x => return Err(corrupt(format!("the landmarks: flag {x}, not 0 or 1"))),
        };
        let sweeps = match i.u8("the sweeps flag")? {
            0 => false,
            1 if views.is_none() => true,
            1 => {
                return Err(corrupt(
                    "the sweeps flag on a graph with views (only graphs without them sweep)",
                ))
            }
            x => return Err(corrupt(format!("the sweeps flag: {x}, not 0 or 1"))),
        };
        if !i.bytes.is_empty() {
            return Err(corrupt(format!("{} bytes after the graph", i.bytes.len())));
        }
        Ok(CornerGraph {
            mesh_id: mesh.instance_id(),
            mesh_fingerprint: fingerprint,
            polygons: np,
            turns,
            wedge_poly,
            offsets,
            targets,
            sides,
            landmarks,
            labels,
            views,
            sweeps,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{build, BuildOptions, Scene};

    /// `bytes` with its checksum made right again after an edit.
    fn resum(bytes: &mut [u8]) {
        let body = bytes.len() - 8;
        let mut h = Fnv64::new();
        h.write(&bytes[..body]);
        let sum = h.finish().to_le_bytes();
        bytes[body..].copy_from_slice(&sum);
    }

    /// A graph whose views passed its budget keeps its labels for the swept search: labels, no
    /// views and the sweeps flag round-trip.
    #[test]
    fn labels_without_views_round_trip() {
        let mesh = build(&Scene::default_map(), &BuildOptions::default()).unwrap();
        let mut graph = CornerGraph::build_with_views(&mesh);
        graph.views = None;
        graph.sweeps = true;
        assert!(graph.labels.is_some());
        let loaded = CornerGraph::from_bytes(&graph.to_bytes(), &mesh).unwrap();
        assert_eq!(loaded, graph);
    }

    /// A graph without labels (open maps) carries landmarks instead, and may sweep its edges;
    /// both round-trip.
    #[test]
    fn a_graph_with_landmarks_instead_of_labels_round_trips() {
        let mesh = build(&Scene::default_map(), &BuildOptions::default()).unwrap();
        let mut graph = CornerGraph::build(&mesh);
        graph.labels = None;
        graph.views = None;
        graph.landmarks = Some(Arc::new(Landmarks::build(&mesh, 4)));
        for sweeps in [false, true] {
            graph.sweeps = sweeps;
            let loaded = CornerGraph::from_bytes(&graph.to_bytes(), &mesh).unwrap();
            assert_eq!(loaded, graph);
        }
        // A table one distance short is corrupt (it ends before the flag and the checksum).
        let mut bytes = graph.to_bytes();
        let n = bytes.len();
        let table_len_at = n - 8 - 1 - mesh.vertex_count() * 4 * 4 - 8;
        bytes[table_len_at..table_len_at + 8]
            .copy_from_slice(&((mesh.vertex_count() * 4 - 1) as u64).to_le_bytes());
        resum(&mut bytes);
        assert!(matches!(
            CornerGraph::from_bytes(&bytes, &mesh),
            Err(IndexError::Corrupt { .. })
        ));
    }

    /// The sweeps flag is 0 or 1, and 1 only without views: anything else is corrupt, named.
    #[test]
    fn a_bad_sweeps_flag_is_corrupt() {
        let mesh = build(&Scene::default_map(), &BuildOptions::default()).unwrap();
        let graph = CornerGraph::build_with_views(&mesh);
        assert!(graph.labels.is_some() && graph.views.is_some());
        for flag in [1u8, 2] {
            let mut bytes = graph.to_bytes();
            let at = bytes.len() - 9;
            bytes[at] = flag;
            resum(&mut bytes);
            match CornerGraph::from_bytes(&bytes, &mesh) {
                Err(IndexError::Corrupt { what }) => assert!(what.contains("sweeps"), "{what}"),
                other => panic!("flag {flag}: {other:?}"),
            }
        }
    }

    /// The labels' flag: 1 loads them with their links derived, 2 without (a graph that dropped
    /// them for its budget), anything else is corrupt, named.
    #[test]
    fn the_labels_flag_says_whether_their_links_are_derived() {
        let mesh = build(&Scene::default_map(), &BuildOptions::default()).unwrap();
        let graph = CornerGraph::build_with_views(&mesh);
        assert!(graph.labels.as_ref().is_some_and(HubLabels::has_links));
        let bytes = graph.to_bytes();
        // The flag is the first byte where the graph without labels differs (0 there).
        let mut bare = graph.clone();
        bare.labels = None;
        bare.views = None;
        let at = bare
            .to_bytes()
            .iter()
            .zip(&bytes)
            .position(|(a, b)| a != b)
            .unwrap();
        assert_eq!(bytes[at], 1);
        let mut unlinked = bytes.clone();
        unlinked[at] = 2;
        resum(&mut unlinked);
        let loaded = CornerGraph::from_bytes(&unlinked, &mesh).unwrap();
        let labels = loaded.labels.as_ref().unwrap();
        assert!(!labels.has_links());
        let mut expected = graph.labels.clone().unwrap();
        expected.drop_links();
        assert_eq!(labels, &expected);
        assert_eq!(loaded.to_bytes(), unlinked);
        let mut bad = bytes;
        bad[at] = 3;
        resum(&mut bad);
        match CornerGraph::from_bytes(&bad, &mesh) {
            Err(IndexError::Corrupt { what }) => assert!(what.contains("labels"), "{what}"),
            other => panic!("flag 3: {other:?}"),
        }
    }

    /// Files of the formats before (1: no sweeps flag; 2: no view trees; 3: the landmark table
    /// in `f64`; 4: edges in rows by target alone) are refused by their version, not misread.
    #[test]
    fn older_versions_are_refused() {
        let mesh = build(&Scene::default_map(), &BuildOptions::default()).unwrap();
        for old in [1u32, 2, 3, 4] {
            let mut bytes = CornerGraph::build_with_views(&mesh).to_bytes();
            bytes[8..12].copy_from_slice(&old.to_le_bytes());
            resum(&mut bytes);
            assert_eq!(
                CornerGraph::from_bytes(&bytes, &mesh).unwrap_err(),
                IndexError::Version {
                    found: old,
                    supported: VERSION
                }
            );
        }
    }

    /// An edge side that is neither left nor right, and a row whose edges are not grouped by
    /// side and then target, are corrupt, named: the corner search reads a row's taut edges as
    /// one run of it.
    #[test]
    fn ungrouped_edge_rows_are_corrupt() {
        let mesh = build(&Scene::default_map(), &BuildOptions::default()).unwrap();
        let graph = CornerGraph::build(&mesh);
        // A row with edges of two groups, and one with two edges of one group.
        let mixed = (0..mesh.vertex_count() as u32)
            .map(|v| graph.row(v))
            .find(|r| {
                let s = &graph.sides[r.clone()];
                s.iter().any(|&x| side_group(x) != side_group(s[0]))
            })
            .expect("a row with two groups");
        let same = (0..mesh.vertex_count() as u32)
            .map(|v| graph.row(v))
            .flat_map(|r| r.clone().skip(1).map(move |e| (r.start, e)))
            .find(|&(_, e)| side_group(graph.sides[e - 1]) == side_group(graph.sides[e]))
            .expect("two edges of one group in a row")
            .1;
        type Edit<'a> = &'a dyn Fn(&mut CornerGraph);
        let edits: [Edit; 3] = [
            &|g| g.sides[mixed.start] = 0,
            &|g| g.sides[mixed.clone()].reverse(),
            &|g| g.targets.swap(same - 1, same),
        ];
        for (i, edit) in edits.iter().enumerate() {
            let mut bad = graph.clone();
            edit(&mut bad);
            match CornerGraph::from_bytes(&bad.to_bytes(), &mesh) {
                Err(IndexError::Corrupt { what }) => {
                    assert!(what.contains("grouped by side"), "edit {i}: {what}")
                }
                other => panic!("edit {i}: {other:?}"),
            }
        }
    }

    /// Cells that do not fit their views are corrupt, named, even with a right checksum: an
    /// entry index past its polygon's entries (a query would read another polygon's), a cell
    /// count that is neither one nor a grid's, grid lines out of order, not numbers or in a
    /// number that no grid has (or lines for a polygon of one cell), the
    /// sure entries past the cell's, or arrays of the wrong lengths. Cells dropped whole (every
    /// array empty) load as none.
    #[test]
    fn bad_view_cells_are_corrupt() {
        let scene = crate::testkit::data_map("movingai/dao/den011d.map").to_scene();
        let mesh = build(&scene, &BuildOptions::cdt()).unwrap();
        let graph = CornerGraph::build_with_views(&mesh);
        let views = graph.views.as_ref().expect("views");
        let cells = &views.cells;
        // A polygon cut into a grid, and one that is a single cell.
        let cut = (0..mesh.polygon_count())
            .find(|&p| cells.start[p + 1] - cells.start[p] > 1)
            .expect("a polygon cut into cells");
        let whole = (0..mesh.polygon_count())
            .find(|&p| cells.start[p + 1] - cells.start[p] == 1)
            .expect("a polygon of one cell");
        let own = views.entries(PolyId(cut as u32)).len() as u16;
        let first = cells.start[cut] as usize;
        // A cell of it that keeps an entry, and one that takes one untested.
        let listing = (first..cells.start[cut + 1] as usize)
            .find(|&c| cells.at[c] < cells.at[c + 1])
            .expect("a cell keeping entries");
        let sure = (0..cells.sure.len())
            .find(|&c| cells.at[c] < cells.sure[c])
            .expect("a cell taking an entry untested");
        let not_corner = (0..mesh.vertex_count() as u32)
            .find(|&v| !graph.is_corner(VertexId(v)))
            .expect("a vertex that is not a corner");
        type Edit<'a> = &'a dyn Fn(&mut Views);
        let edits: [Edit; 9] = [
            &|v| {
                let k = v.cells.at[listing] as usize;
                v.cells.entries[k] = own;
            },
            &|v| {
                // Two grid lines for a polygon of one cell.
                let k = v.cells.line_at[whole] as usize;
                v.cells.lines.splice(k..k, [1.0, 1.0]);
                for x in &mut v.cells.line_at[whole + 1..] {
                    *x += 2;
                }
            },
            &|v| {
                let k = v.cells.line_at[cut] as usize;
                v.cells.lines[k] = v.cells.lines[k + 1] + 1.0;
            },
            &|v| v.cells.lines[v.cells.line_at[cut] as usize] = f64::NAN,
            &|v| v.cells.sure[first] = v.cells.at[first + 1] + 1,
            &|v| {
                v.cells.lines.pop();
            },
            &|v| {
                v.cells.start[cut + 1] -= 1;
            },
            &|v| {
                // An odd number of grid lines (one more, in order: 2k + 1 lines read as k + 1 a
                // side, whose cell count would still match): only their parity refuses them.
                let k = v.cells.line_at[cut + 1] as usize;
                let last = v.cells.lines[k - 1];
                v.cells.lines.insert(k, last);
                for x in &mut v.cells.line_at[cut + 1..] {
                    *x += 1;
                }
            },
            &|v| {
                // The polygon of the sure entry's cell, and its entry's corner made a vertex
                // that is not one.
                let p = v.cells.start.partition_point(|&s| s as usize <= sure) - 1;
                let e =
                    v.offsets[p] as usize + usize::from(v.cells.entries[v.cells.at[sure] as usize]);
                v.corner[e] = not_corner;
            },
        ];
        for (i, edit) in edits.iter().enumerate() {
            let mut bad = graph.clone();
            edit(bad.views.as_mut().unwrap());
            match CornerGraph::from_bytes(&bad.to_bytes(), &mesh) {
                Err(IndexError::Corrupt { what }) => {
                    assert!(what.contains("view cells"), "edit {i}: {what}");
                    // The grid edits name the polygon.
                    if (1..=3).contains(&i) || i == 7 {
                        let p = if i == 1 { whole } else { cut };
                        assert!(what.contains(&format!("polygon {p} ")), "edit {i}: {what}");
                    }
                }
                other => panic!("edit {i}: {other:?}"),
            }
        }
        let mut dropped = graph.clone();
        dropped.views.as_mut().unwrap().cells = Cells::default();
        let loaded = CornerGraph::from_bytes(&dropped.to_bytes(), &mesh).unwrap();
        assert_eq!(loaded, dropped);
        assert_eq!(
            CornerGraph::from_bytes(&graph.to_bytes(), &mesh).unwrap(),
            graph
        );
    }

    /// A view tree that is not one (a node before its parent, a polygon out of bounds, a node
    /// across no edge from its parent) or a cone whose node is in another polygon is corrupt,
    /// named, even with a right checksum: a chain read from it could be no channel, or never
    /// end.
    #[test]
    fn a_bad_view_tree_is_corrupt() {
        let mesh = build(&Scene::default_map(), &BuildOptions::default()).unwrap();
        let graph = CornerGraph::build_with_views(&mesh);
        let views = graph.views.as_ref().expect("views");
        // A node with a parent, and a polygon sharing no edge with its parent's.
        let child = views
            .tree
            .iter()
            .position(|x| x.1 != NONE)
            .expect("a node with a parent");
        let parent = PolyId(views.tree[views.tree[child].1 as usize].0 .0);
        let far = mesh
            .polygons()
            .find(|&p| p != parent && mesh.shared_edge(parent, p).is_none())
            .expect("a polygon away from the parent");
        type Edit<'a> = &'a dyn Fn(&mut Views);
        let edits: [(&str, Edit); 4] = [
            ("view tree", &|v| v.tree[child].1 = child as u32),
            ("view tree", &|v| {
                v.tree[child].0 = PolyId(mesh.polygon_count() as u32)
            }),
            ("view tree", &|v| v.tree[child].0 = far),
            ("cones' nodes", &|v| {
                // The first cone's node moved to a node of another polygon.
                let p = v.tree[v.cone_node[0] as usize].0;
                v.cone_node[0] = v.tree.iter().position(|x| x.0 != p).unwrap() as u32;
            }),
        ];
        for (name, edit) in edits {
            let mut bad = graph.clone();
            edit(bad.views.as_mut().unwrap());
            match CornerGraph::from_bytes(&bad.to_bytes(), &mesh) {
                Err(IndexError::Corrupt { what }) => assert!(what.contains(name), "{what}"),
                other => panic!("{name}: {other:?}"),
            }
        }
        // And the graph as built loads, trees and all.
        assert_eq!(
            CornerGraph::from_bytes(&graph.to_bytes(), &mesh).unwrap(),
            graph
        );
    }
}
