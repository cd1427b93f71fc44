//! Why polygons do not make a mesh ([`MeshError`]) and which invariant a mesh breaks
//! ([`InvariantError`]).

use super::*;

/// Why a set of polygons does not make a navigation mesh.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
#[non_exhaustive]
pub enum MeshError {
    /// A vertex coordinate is NaN or infinite.
    #[error("vertex {vertex} has a non-finite coordinate")]
    NonFiniteVertex {
        /// The vertex index.
        vertex: usize,
    },
    /// A vertex coordinate is outside the range the library accepts
    /// ([`coordinate_in_range`](crate::geom::coordinate_in_range): 0 or a magnitude from 2⁻³⁰⁰
    /// to 2³⁰⁰).
    #[error("vertex {vertex} at ({:e}, {:e}) is out of the supported coordinate range (each coordinate 0 or of magnitude 2^-300 to 2^300)", .point.x, .point.y)]
    CoordinateRange {
        /// The vertex index.
        vertex: usize,
        /// Its position.
        point: crate::geom::Vec2,
    },
    /// A polygon has fewer than three vertices.
    #[error(
        "polygon {polygon} has {count} {}; at least 3 are needed",
        if *count == 1 { "vertex" } else { "vertices" }
    )]
    TooFewVertices {
        /// The polygon index.
        polygon: usize,
        /// How many it has.
        count: usize,
    },
    /// A polygon refers to a vertex that does not exist.
    #[error("polygon {polygon} refers to vertex {vertex}, but there are only {vertex_count}")]
    VertexOutOfRange {
        /// The polygon index.
        polygon: usize,
        /// The bad vertex index.
        vertex: usize,
        /// How many vertices there are.
        vertex_count: usize,
    },
    /// A polygon lists the same vertex twice in a row (a zero-length edge).
    #[error("polygon {polygon} has a zero-length edge {edge}")]
    DegenerateEdge {
        /// The polygon index.
        polygon: usize,
        /// The edge index (from vertex `edge` to the next).
        edge: usize,
    },
    /// A polygon is not convex and counter-clockwise at one of its vertices.
    #[error("polygon {polygon} is not convex and counter-clockwise at its vertex {corner}")]
    NotConvex {
        /// The polygon index.
        polygon: usize,
        /// The position of the offending vertex in the polygon.
        corner: usize,
    },
    /// A polygon has zero area.
    #[error("polygon {polygon} has zero area")]
    ZeroArea {
        /// The polygon index.
        polygon: usize,
    },
    /// More than two polygons share one edge, or two polygons share it in the same direction
    /// (one of them is clockwise or they overlap).
    #[error("edge between vertices {a} and {b} is used by polygons {first} and {second} in a way a manifold mesh cannot have")]
    NonManifoldEdge {
        /// One endpoint.
        a: usize,
        /// The other endpoint.
        b: usize,
        /// The polygon that had the edge first.
        first: usize,
        /// The polygon that could not share it.
        second: usize,
    },
    /// The mesh has no polygons.
    #[error("the mesh has no polygons")]
    Empty,
    /// A mesh larger than `u32` indices can hold.
    #[error("the mesh is too large: {0} elements do not fit in 32-bit ids")]
    TooLarge(usize),
}

/// A broken invariant found by [`NavMesh::check_invariants`]; each names the polygon at fault.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
#[non_exhaustive]
pub enum InvariantError {
    /// The structural checks that [`NavMesh::from_polygons`] makes failed.
    #[error(transparent)]
    Structure(#[from] MeshError),
    /// Polygon `polygon` names `neighbour` across edge `edge`, but not the other way round.
    #[error(
        "{polygon} names {neighbour} across edge {edge}, but {neighbour} does not name it back"
    )]
    AsymmetricAdjacency {
        /// The polygon.
        polygon: PolyId,
        /// Its edge.
        edge: usize,
        /// The neighbour that does not agree.
        neighbour: PolyId,
    },
    /// Two polygons share two or more edges (a run of collinear edges with a vertex between them
    /// that nothing else uses): the mesh has one portal per pair of neighbours
    /// ([`NavMesh::shared_edge`](crate::NavMesh::shared_edge)). Dropping the vertex between the
    /// edges from both polygons makes them one edge.
    #[error("{polygon} and {neighbour} share more than one edge (edges {first_edge} and {second_edge} of {polygon}); drop the vertex between them from both")]
    SharedEdges {
        /// The polygon.
        polygon: PolyId,
        /// The neighbour across both edges.
        neighbour: PolyId,
        /// One shared edge of `polygon`.
        first_edge: usize,
        /// Another.
        second_edge: usize,
    },
    /// Two polygons overlap (their interiors share area).
    #[error("{first} and {second} overlap")]
    Overlap {
        /// One polygon.
        first: PolyId,
        /// The other.
        second: PolyId,
    },
    /// A vertex of one polygon lies inside an edge of another: the two touch along a segment that
    /// is not a portal.
    #[error("{vertex} lies inside edge {edge} of {polygon} (a T-junction: a contact that is not a portal)")]
    TJunction {
        /// The polygon whose edge holds the vertex.
        polygon: PolyId,
        /// The edge.
        edge: usize,
        /// The vertex.
        vertex: VertexId,
    },
}
