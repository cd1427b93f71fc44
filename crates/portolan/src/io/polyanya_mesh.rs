//! Polyanya navigation-mesh files (`.mesh`), versions 1, 2 and 3; writing version 2.
//!
//! These are the files of the Polyanya papers and benchmarks (Cui, Harabor and Grastien 2017; the
//! ShortestPathLab mesh benchmarks). All three versions list vertices, then convex polygons with
//! their vertex indices counter-clockwise (y up) and one neighbour per edge:
//!
//! ```text
//! v1 / v2                              v3
//! mesh                                 mesh
//! 1 | 2                                3
//! V P                                  V F
//! x y  k  p0 … pk-1     (V lines)      x y                      (V lines, vertex ids from 1)
//! n  v0 … vn-1  q0 … qn-1  (P lines)   t n  v1 … vn  q1 … qn    (F lines, face ids from 1)
//! ```
//!
//! | version | neighbour `q[i]` is across the edge | "no neighbour" | other |
//! | --- | --- | --- | --- |
//! | 1 | `v[i] → v[i+1]` | `-1` | vertex lines list the polygons around the vertex |
//! | 2 | `v[i-1] → v[i]` | `-1` | same as v1 |
//! | 3 | `v[i-1] → v[i]` | `0`, or `-k` for a constrained edge to face `k` | `t` = 1 traversable, 0 obstacle face (dropped); no vertex neighbour lists |
//!
//! The formats are whitespace-insensitive (only the token order matters); `//` starts a comment to
//! the end of the line (the v3 specification's examples use them).
//!
//! # Neighbours
//! Portolan does not trust the neighbour lists: [`NavMesh::from_polygons`] derives adjacency from
//! shared edges (two polygons are neighbours exactly when one has the edge `a → b` and the other
//! `b → a`). The reader then checks that every neighbour the file lists is the one the geometry
//! gives, and rejects the file at the offending token otherwise. A Portolan mesh has no way to
//! mark a shared edge as a wall, so a v3 constrained edge between two *traversable* faces is
//! rejected too (none of the published meshes has one: constrained edges separate traversable
//! faces from obstacle faces). The vertex neighbour lists of v1/v2 are range-checked and
//! otherwise ignored: they are derived data (Polyanya itself only counts their `-1`s).
//!
//! Every malformed input gives a [`ReadError::Syntax`] naming the line and column and saying what
//! was expected; structural problems of the polygons (clockwise, self-intersecting, overlapping,
//! ...) are reported the same way at the polygon's line. The reader never panics.
//!
//! # Faces that are not quite convex
//! Decided exactly, a face of a file can be non-convex where its author meant a straight run of
//! vertices: rotating a mesh rounds the middle vertex of three collinear ones an ulp to either
//! side (Polyanya's own `bad-collinear2-rot45.mesh` has three such faces). Polyanya decides with
//! an epsilon; Portolan keeps exact predicates and instead cuts any face that is simple and
//! counter-clockwise but not convex into convex pieces along diagonals
//! ([`convex_partition`]). The region is the same and every edge
//! of the file stays an edge of one piece, so paths are unchanged; [`MeshInfo::split_faces`]
//! lists the faces cut. Faces of more than [`MAX_SPLIT_VERTICES`] vertices are not cut.
//!
//! ```
//! use portolan::io::polyanya_mesh;
//! use portolan::PolyId;
//! // A unit square cut along its diagonal (version 2: neighbour i across edge v[i-1] → v[i]).
//! let text = "mesh\n2\n4 2\n\
//!             0 0 3 0 1 -1\n1 0 2 0 -1\n1 1 3 1 0 -1\n0 1 2 1 -1\n\
//!             3 0 1 2 1 -1 -1\n3 0 2 3 -1 0 -1\n";
//! let mesh = polyanya_mesh::read(text.as_bytes()).unwrap();
//! assert_eq!(mesh.neighbours(PolyId(0)), &[None, None, Some(PolyId(1))]);
//! let mut out = Vec::new();
//! polyanya_mesh::write_v2(&mesh, &mut out).unwrap();
//! assert_eq!(String::from_utf8(out).unwrap(), text);
//! ```

use super::{finite_number, words, ReadError};
use crate::geom::{convex_partition, convexity, orient, ConvexFault, Orientation, Vec2};
use crate::mesh::{InvariantError, MeshError, NavMesh, PolyId, VertexId};
use std::io::{Read, Write};

/// The version of a Polyanya mesh file.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum MeshVersion {
    /// Version 1: neighbour `i` across edge `v[i] → v[i+1]`.
    V1,
    /// Version 2: neighbour `i` across edge `v[i-1] → v[i]`.
    V2,
    /// Version 3: 1-based ids, traversable flags, signed neighbours.
    V3,
}

/// What [`read_with_info`] learnt about a file besides the mesh.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MeshInfo {
    /// The file's version.
    pub version: MeshVersion,
    /// Polygons (faces) listed in the file, traversable or not.
    pub faces: usize,
    /// For each face of the file, the polygon it became (`None` for v3 obstacle faces; the
    /// first piece of a split face).
    pub face_polygon: Vec<Option<PolyId>>,
    /// Faces (0-based, in file order) that were not convex in exact arithmetic and were cut
    /// into convex pieces; their pieces follow one another in the mesh's polygon order.
    pub split_faces: Vec<usize>,
}

/// Reads a Polyanya mesh of any version (1, 2 or 3).
pub fn read(r: impl Read) -> Result<NavMesh, ReadError> {
    read_with_info(r).map(|(m, _)| m)
}

/// Reads a Polyanya mesh and reports its version and how faces map to polygons.
pub fn read_with_info(mut r: impl Read) -> Result<(NavMesh, MeshInfo), ReadError> {
    let mut text = String::new();
    r.read_to_string(&mut text)?;
    Parser::new(&text).parse()
}

/// Writes a mesh in Polyanya format version 2.
///
/// Vertex lines list the polygons around the vertex counter-clockwise, with one `-1` for each
/// obstacle sector (as the format asks: adjacent obstacles merged into one). Coordinates are
/// written in Rust's shortest round-trip form, so reading the file back gives the same `f64`s.
pub fn write_v2(mesh: &NavMesh, mut w: impl Write) -> std::io::Result<()> {
    writeln!(
        w,
        "mesh\n2\n{} {}",
        mesh.vertex_count(),
        mesh.polygon_count()
    )?;
    let around = vertex_fans(mesh);
    let mut line = String::new();
    for (v, fan) in around.iter().enumerate() {
        use std::fmt::Write as _;
        line.clear();
        let p = mesh.vertices()[v];
        let _ = write!(line, "{} {} {}", p.x, p.y, fan.len());
        for q in fan {
            let _ = write!(line, " {}", q.map_or(-1, |q| i64::from(q.0)));
        }
        writeln!(w, "{line}")?;
    }
    for p in mesh.polygons() {
        use std::fmt::Write as _;
        line.clear();
        let vs = mesh.polygon_vertices(p);
        let nbs = mesh.neighbours(p);
        let n = vs.len();
        let _ = write!(line, "{n}");
        for v in vs {
            let _ = write!(line, " {}", v.0);
        }
        // v2: entry i is across edge v[i-1] → v[i], which is Portolan's slot i - 1.
        for i in 0..n {
            let q = nbs[(i + n - 1) % n];
            let _ = write!(line, " {}", q.map_or(-1, |q| i64::from(q.0)));
        }
        writeln!(w, "{line}")?;
    }
    Ok(())
}

/// For every vertex, the polygons around it counter-clockwise, with `None` for each obstacle
/// sector. Sectors are ordered by the direction of their clockwise boundary edge, compared exactly.
fn vertex_fans(mesh: &NavMesh) -> Vec<Vec<Option<PolyId>>> {
    let mut out = Vec::with_capacity(mesh.vertex_count());
    let mut items: Vec<(Vec2, PolyId, bool)> = Vec::new();
    for v in 0..mesh.vertex_count() {
        let vid = VertexId(v as u32);
        let c = mesh.vertex(vid);
        items.clear();
        for &p in mesh.vertex_polygons(vid) {
            let vs = mesh.polygon_vertices(p);
            let n = vs.len();
            // The polygon list comes from the polygons' own vertex lists, so v is found.
            let k = vs
                .iter()
                .position(|&x| x == vid)
                .expect("vertex of its polygon");
            // The sector of p around v runs counter-clockwise from edge v → v[k+1] to v[k-1] → v;
            // beyond the latter lies neighbour slot k - 1.
            let first = mesh.vertex(vs[(k + 1) % n]);
            let wall_after = mesh.neighbours(p)[(k + n - 1) % n].is_none();
            items.push((first, p, wall_after));
        }
        let upper = |d: Vec2| d.y > c.y || (d.y == c.y && d.x > c.x);
        items.sort_by(|a, b| {
            let (ua, ub) = (upper(a.0), upper(b.0));
            if ua != ub {
                return ub.cmp(&ua);
            }
            match orient(c, a.0, b.0) {
                Orientation::CounterClockwise => std::cmp::Ordering::Less,
                Orientation::Clockwise => std::cmp::Ordering::Greater,
                Orientation::Collinear => std::cmp::Ordering::Equal,
            }
        });
        let mut fan = Vec::with_capacity(items.len() + 1);
        for &(_, p, wall_after) in &items {
            fan.push(Some(p));
            if wall_after {
                fan.push(None);
            }
        }
        out.push(fan);
    }
    out
}

/// A whitespace-separated token with its 1-based line and column.
#[derive(Copy, Clone, Debug)]
struct Token<'a> {
    text: &'a str,
    line: usize,
    column: usize,
}

struct Parser<'a> {
    tokens: Vec<Token<'a>>,
    next: usize,
    last_line: usize,
}

impl<'a> Parser<'a> {
    fn new(text: &'a str) -> Parser<'a> {
        let mut tokens = Vec::new();
        let mut last_line = 1;
        for (li, raw) in text.lines().enumerate() {
            last_line = li + 1;
            let content = raw.split("//").next().unwrap_or("");
            tokens.extend(words(content).map(|(column, text)| Token {
                text,
                line: li + 1,
                column,
            }));
        }
        Parser {
            tokens,
            next: 0,
            last_line,
        }
    }

    fn token(&mut self, what: &str) -> Result<Token<'a>, ReadError> {
        match self.tokens.get(self.next) {
            Some(&t) => {
                self.next += 1;
                Ok(t)
            }
            None => Err(ReadError::syntax(
                self.last_line,
                0,
                format!("unexpected end of file: expected {what}"),
            )),
        }
    }

    fn int(&mut self, what: &str) -> Result<(i64, Token<'a>), ReadError> {
        let t = self.token(what)?;
        match t.text.parse::<i64>() {
            Ok(v) => Ok((v, t)),
            Err(_) => Err(ReadError::syntax(
                t.line,
                t.column,
                format!("expected {what} (an integer), found {:?}", t.text),
            )),
        }
    }

    /// An integer in `lo..=hi`.
    fn int_in(&mut self, what: &str, lo: i64, hi: i64) -> Result<(i64, Token<'a>), ReadError> {
        let (v, t) = self.int(what)?;
        if v < lo || v > hi {
            return Err(ReadError::syntax(
                t.line,
                t.column,
                format!("expected {what} between {lo} and {hi}, found {v}"),
            ));
        }
        Ok((v, t))
    }

    fn count(&mut self, what: &str) -> Result<usize, ReadError> {
        let (v, _) = self.int_in(what, 0, i64::from(u32::MAX))?;
        Ok(v as usize)
    }

    fn number(&mut self, what: &str) -> Result<f64, ReadError> {
        let t = self.token(what)?;
        finite_number(t.text, t.line, t.column, what)
    }

    fn parse(mut self) -> Result<(NavMesh, MeshInfo), ReadError> {
        let head = self.token("the header \"mesh\"")?;
        if head.text != "mesh" {
            return Err(ReadError::syntax(
                head.line,
                head.column,
                format!("expected the header \"mesh\", found {:?}", head.text),
            ));
        }
        let (version, vt) = self.int("the format version (1, 2 or 3)")?;
        let version = match version {
            1 => MeshVersion::V1,
            2 => MeshVersion::V2,
            3 => MeshVersion::V3,
            v => {
                return Err(ReadError::syntax(
                    vt.line,
                    vt.column,
                    format!("expected the format version 1, 2 or 3, found {v}"),
                ))
            }
        };
        let nv = self.count("the number of vertices")?;
        let np = self.count("the number of polygons")?;
        // Each vertex and polygon takes at least two tokens: refuse absurd counts before
        // allocating for them.
        let remaining = self.tokens.len() - self.next;
        if nv.saturating_add(np).saturating_mul(2) > remaining {
            let t = self.tokens[self.next - 1];
            return Err(ReadError::syntax(
                t.line,
                t.column,
                format!(
                    "the header announces {nv} vertices and {np} polygons, but the file is too short for them"
                ),
            ));
        }
        let mut vertices = Vec::with_capacity(nv);
        for i in 0..nv {
            let x = self.number(&format!("the x coordinate of vertex {i}"))?;
            let y = self.number(&format!("the y coordinate of vertex {i}"))?;
            vertices.push(Vec2::new(x, y));
            if version != MeshVersion::V3 {
                let k = self.count(&format!("the number of polygons around vertex {i}"))?;
                for _ in 0..k {
                    self.int_in(
                        &format!("a polygon index around vertex {i} (-1 for an obstacle)"),
                        -1,
                        np as i64 - 1,
                    )?;
                }
            }
        }
        // Polygons: vertex lists, file neighbours (in Portolan's slot order) and token positions.
        struct Face<'t> {
            line: usize,
            traversable: bool,
            vertices: Vec<u32>,
            /// Per Portolan slot: the face the file names across it (`None`: none) and the token.
            neighbours: Vec<(Option<usize>, Token<'t>)>,
        }
        // Each face with, per slot, whether the file lets the agent cross that edge (false for
        // v3 constrained edges).
        let mut faces: Vec<(Face, Vec<bool>)> = Vec::with_capacity(np);
        for i in 0..np {
            let (traversable, line) = if version == MeshVersion::V3 {
                let (t, tok) =
                    self.int_in(&format!("face {}'s traversable flag (0 or 1)", i + 1), 0, 1)?;
                (t == 1, tok.line)
            } else {
                (
                    true,
                    self.tokens
                        .get(self.next)
                        .map_or(self.last_line, |t| t.line),
                )
            };
            let (n, nt) = self.int_in(
                &format!("the vertex count of polygon {i} (at least 3)"),
                3,
                i64::from(u32::MAX),
            )?;
            let n = n as usize;
            if n > self.tokens.len() - self.next {
                return Err(ReadError::syntax(
                    nt.line,
                    nt.column,
                    format!("polygon {i} announces {n} vertices, but the file ends before them"),
                ));
            }
            let one = i64::from(version == MeshVersion::V3);
            let mut vs = Vec::with_capacity(n);
            for _ in 0..n {
                let (v, _) = self.int_in(
                    &format!("a vertex index of polygon {i}"),
                    one,
                    nv as i64 - 1 + one,
                )?;
                vs.push((v - one) as u32);
            }
            let mut file_nbs = Vec::with_capacity(n);
            for _ in 0..n {
                let (q, t) = if version == MeshVersion::V3 {
                    let (q, t) = self.int_in(
                        &format!("a neighbour of face {} (0 for none, ±face id)", i + 1),
                        -(np as i64),
                        np as i64,
                    )?;
                    (q, t)
                } else {
                    self.int_in(
                        &format!("a neighbour of polygon {i} (-1 for none)"),
                        -1,
                        np as i64 - 1,
                    )?
                };
                let face = match version {
                    MeshVersion::V3 if q != 0 => Some(q.unsigned_abs() as usize - 1),
                    MeshVersion::V3 => None,
                    _ if q >= 0 => Some(q as usize),
                    _ => None,
                };
                file_nbs.push((face, q > 0 || version != MeshVersion::V3, t));
            }
            // Into Portolan's slot order: slot j is across v[j] → v[j+1].
            let neighbours: Vec<(Option<usize>, bool, Token)> = match version {
                MeshVersion::V1 => file_nbs,
                MeshVersion::V2 | MeshVersion::V3 => {
                    (0..n).map(|j| file_nbs[(j + 1) % n]).collect()
                }
            };
            faces.push((
                Face {
                    line,
                    traversable,
                    vertices: vs,
                    neighbours: neighbours.iter().map(|&(f, _, t)| (f, t)).collect(),
                },
                neighbours
                    .iter()
                    .map(|&(_, open, _)| open)
                    .collect::<Vec<bool>>(),
            ));
        }
        if let Some(t) = self.tokens.get(self.next) {
            return Err(ReadError::syntax(
                t.line,
                t.column,
                format!(
                    "expected the end of the file after {np} polygon{}, found {:?}",
                    if np == 1 { "" } else { "s" },
                    t.text
                ),
            ));
        }

        // Keep traversable faces (all of them before v3).
        let polygon_face: Vec<usize> = (0..np).filter(|&i| faces[i].0.traversable).collect();
        if polygon_face.is_empty() {
            return Err(ReadError::syntax(
                self.last_line,
                0,
                "the file has no traversable polygon".to_owned(),
            ));
        }
        // A face that is simple and counter-clockwise but not convex in exact arithmetic (a
        // rotated file's rounding can bend a straight run of vertices inwards) is cut into
        // convex pieces along diagonals: the same region, and every original edge is still an
        // edge of one piece.
        let mut polygons: Vec<Vec<u32>> = Vec::with_capacity(polygon_face.len());
        let mut piece_face: Vec<usize> = Vec::with_capacity(polygon_face.len());
        let mut split_faces = Vec::new();
        // Per face, its polygons: consecutive, from the first (`None` for v3 obstacle faces).
        let mut face_pieces: Vec<Option<std::ops::Range<usize>>> = vec![None; np];
        for &fi in &polygon_face {
            let first = polygons.len();
            let vs = &faces[fi].0.vertices;
            match convex_pieces(&vertices, vs) {
                Some(pieces) => {
                    split_faces.push(fi);
                    for piece in pieces {
                        polygons.push(piece.iter().map(|&k| vs[k]).collect());
                        piece_face.push(fi);
                    }
                }
                None => {
                    polygons.push(vs.clone());
                    piece_face.push(fi);
                }
            }
            face_pieces[fi] = Some(first..polygons.len());
        }
        let face_polygon: Vec<Option<PolyId>> = face_pieces
            .iter()
            .map(|r| r.as_ref().map(|r| PolyId(r.start as u32)))
            .collect();
        let at_polygon = |p: usize, e: &dyn std::fmt::Display| {
            let f = piece_face.get(p).copied().unwrap_or(0);
            ReadError::syntax(faces[f].0.line, 0, format!("{e}"))
        };
        let mesh = NavMesh::from_polygons(vertices, polygons).map_err(|e| match &e {
            MeshError::TooFewVertices { polygon, .. }
            | MeshError::VertexOutOfRange { polygon, .. }
            | MeshError::DegenerateEdge { polygon, .. }
            | MeshError::NotConvex { polygon, .. }
            | MeshError::ZeroArea { polygon } => at_polygon(*polygon, &e),
            MeshError::NonManifoldEdge { second, .. } => at_polygon(*second, &e),
            _ => ReadError::Mesh(e),
        })?;
        mesh.check_invariants().map_err(|e| match &e {
            InvariantError::AsymmetricAdjacency { polygon, .. }
            | InvariantError::SharedEdges { polygon, .. }
            | InvariantError::TJunction { polygon, .. } => at_polygon(polygon.index(), &e),
            InvariantError::Overlap { second, .. } => at_polygon(second.index(), &e),
            InvariantError::Structure(_) => at_polygon(0, &e),
        })?;

        // The file's neighbour lists must agree with the adjacency of shared edges (compared
        // as faces: a split face's pieces all stand for it).
        for &fi in &polygon_face {
            let pieces = face_pieces[fi]
                .clone()
                .expect("a traversable face has polygons");
            let (face, open) = &faces[fi];
            let vs = &face.vertices;
            for (slot, &(named, tok)) in face.neighbours.iter().enumerate() {
                let (a, b) = (vs[slot], vs[(slot + 1) % vs.len()]);
                // The piece holding the edge a → b (an unsplit face is its polygon, slot for
                // slot), and the face across it.
                let derived = if pieces.len() == 1 {
                    Some(mesh.neighbours(PolyId(pieces.start as u32))[slot])
                } else {
                    pieces.clone().find_map(|p| {
                        let pv = mesh.polygon_vertices(PolyId(p as u32));
                        let k = (0..pv.len())
                            .find(|&k| pv[k].0 == a && pv[(k + 1) % pv.len()].0 == b)?;
                        Some(mesh.neighbours(PolyId(p as u32))[k])
                    })
                }
                .map(|n| n.map(|q| piece_face[q.index()]));
                // Every original edge is an edge of one piece (the cut runs along diagonals).
                let derived = derived.flatten();
                let expected = match named {
                    Some(q) if open[slot] && face_polygon[q].is_some() => Some(q),
                    // A v3 constrained edge: a wall, whatever lies behind it.
                    _ => None,
                };
                if expected != derived {
                    let show = |q: Option<usize>| {
                        q.map_or("none (a wall)".to_owned(), |q| {
                            format!("face {}", q + one_based(version))
                        })
                    };
                    let what = if named.is_some_and(|q| !open[slot] && face_polygon[q].is_some()) {
                        " (a constrained edge between two traversable faces cannot be represented)"
                    } else {
                        ""
                    };
                    return Err(ReadError::syntax(
                        tok.line,
                        tok.column,
                        format!(
                            "the neighbour across the edge from vertex {} to vertex {} disagrees with the geometry: the file names {}, the polygons sharing that edge give {}{what}",
                            a as usize + one_based(version),
                            b as usize + one_based(version),
                            show(expected),
                            show(derived),
                        ),
                    ));
                }
            }
        }
        Ok((
            mesh,
            MeshInfo {
                version,
                faces: np,
                face_polygon,
                split_faces,
            },
        ))
    }
}

/// Faces with more vertices than this are not cut (they are reported as not convex): the cut
/// costs up to O(n³) in a face's vertex count, and a nearly convex face of a real mesh has a
/// handful.
pub const MAX_SPLIT_VERTICES: usize = 64;

/// The convex pieces of a face that is simple and counter-clockwise but not convex (indices
/// into `face`); `None` for a convex face, and for one that cannot be cut (bad indices, a
/// zero-length edge, clockwise, self-intersecting): [`NavMesh::from_polygons`] then reports it.
fn convex_pieces(vertices: &[Vec2], face: &[u32]) -> Option<Vec<Vec<usize>>> {
    let pts: Vec<Vec2> = face
        .iter()
        .map(|&v| vertices.get(v as usize).copied())
        .collect::<Option<_>>()?;
    let n = pts.len();
    if !(4..=MAX_SPLIT_VERTICES).contains(&n) || (0..n).any(|i| pts[i] == pts[(i + 1) % n]) {
        return None;
    }
    if !matches!(
        convexity(n, |i| pts[i]),
        Err(ConvexFault::Reflex(_) | ConvexFault::WindsTwice)
    ) {
        return None;
    }
    convex_partition(&pts).filter(|pieces| pieces.len() > 1)
}

fn one_based(v: MeshVersion) -> usize {
    usize::from(v == MeshVersion::V3)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A unit square split along its diagonal, v2, y up and counter-clockwise.
    const SQUARE_V2: &str = "mesh
2
4 2
0 0 3 0 1 -1
1 0 2 0 -1
1 1 3 1 0 -1
0 1 2 1 -1
3 0 1 2 1 -1 -1
3 0 2 3 -1 0 -1
";

    fn syntax(text: &str) -> (usize, usize, String) {
        super::super::syntax_parts(read(text.as_bytes()))
    }

    #[test]
    fn reads_v2_and_agrees_with_the_file_neighbours() {
        let (m, info) = read_with_info(SQUARE_V2.as_bytes()).unwrap();
        assert_eq!(info.version, MeshVersion::V2);
        assert_eq!(m.polygon_count(), 2);
        // Edge 1 → 2 ... the diagonal is polygon 0's edge 2 → 0, slot 2.
        assert_eq!(m.neighbours(PolyId(0)), &[None, None, Some(PolyId(1))]);
        assert_eq!(m.neighbours(PolyId(1)), &[Some(PolyId(0)), None, None]);
    }

    #[test]
    fn text_after_the_last_polygon_is_named_with_the_polygon_count() {
        let (l, c, m) = syntax(&format!("{SQUARE_V2}5\n"));
        assert_eq!((l, c), (10, 1));
        assert!(m.contains("after 2 polygons, found \"5\""), "{m}");
        let one = "mesh\n2\n3 1\n0 0 1 0\n1 0 1 0\n0 1 1 0\n3 0 1 2 -1 -1 -1\nx\n";
        let (_, _, m) = syntax(one);
        assert!(m.contains("after 1 polygon, found \"x\""), "{m}");
    }

    #[test]
    fn reads_v1() {
        // Same mesh, v1 order: q[i] across v[i] → v[i+1].
        let v1 = SQUARE_V2
            .replacen("\n2\n", "\n1\n", 1)
            .replace("3 0 1 2 1 -1 -1", "3 0 1 2 -1 -1 1")
            .replace("3 0 2 3 -1 0 -1", "3 0 2 3 0 -1 -1");
        let (m, info) = read_with_info(v1.as_bytes()).unwrap();
        assert_eq!(info.version, MeshVersion::V1);
        assert_eq!(m.neighbours(PolyId(0)), &[None, None, Some(PolyId(1))]);
    }

    #[test]
    fn reads_v3_dropping_obstacle_faces() {
        // The v3 specification's example (10 × 10 square around a centre vertex, face 1 blocked),
        // with its comments.
        let text = "mesh
3
5 4  // 5 vertices 4 faces
0 0   // vertex 1
0 10  // vertex 2
10 10 // vertex 3
10 0  // vertex 4
5 5   // vertex 5
0 3   4 1 5   -4 0 -2
1 3   1 2 5   -1 0 3
1 3   2 3 5   2 0 4
1 3   3 4 5   3 0 -1
";
        // The example lists its faces clockwise in y-up coordinates; mirror x to make them CCW.
        let mirrored = text
            .replace("10 10 //", "-10 10 //")
            .replace("10 0  //", "-10 0  //")
            .replace("5 5   //", "-5 5   //");
        let (m, info) = read_with_info(mirrored.as_bytes()).unwrap();
        assert_eq!(info.version, MeshVersion::V3);
        assert_eq!(m.polygon_count(), 3);
        assert_eq!(
            info.face_polygon,
            vec![None, Some(PolyId(0)), Some(PolyId(1)), Some(PolyId(2))]
        );
        // Face 2 = polygon 0 (vertices 1 2 5 → ids 0 1 4): slot 1 (2 → 5) borders face 3.
        assert_eq!(m.neighbours(PolyId(0)), &[None, Some(PolyId(1)), None]);
        // The unmirrored example is clockwise: rejected at the first face's line.
        let (line, _, msg) = syntax(text);
        assert_eq!(line, 10, "{msg}");
        assert!(msg.contains("counter-clockwise"), "{msg}");
    }

    #[test]
    fn v2_round_trip_is_exact() {
        let m = read(SQUARE_V2.as_bytes()).unwrap();
        let mut out = Vec::new();
        write_v2(&m, &mut out).unwrap();
        let text = String::from_utf8(out).unwrap();
        assert_eq!(text, SQUARE_V2);
        let again = read(text.as_bytes()).unwrap();
        assert_eq!(again.vertices(), m.vertices());
        for p in m.polygons() {
            assert_eq!(again.polygon_vertices(p), m.polygon_vertices(p));
            assert_eq!(again.neighbours(p), m.neighbours(p));
        }
    }

    #[test]
    fn vertex_fans_mark_every_obstacle_sector() {
        // Two squares touching at one vertex (a pinch): the shared vertex has two obstacle
        // sectors.
        let v = vec![
            Vec2::new(0.0, 0.0),
            Vec2::new(1.0, 0.0),
            Vec2::new(1.0, 1.0),
            Vec2::new(0.0, 1.0),
            Vec2::new(2.0, 1.0),
            Vec2::new(2.0, 2.0),
            Vec2::new(1.0, 2.0),
        ];
        let m = NavMesh::from_polygons(v, vec![vec![0, 1, 2, 3], vec![2, 4, 5, 6]]).unwrap();
        let fans = vertex_fans(&m);
        assert_eq!(fans[2].len(), 4);
        assert_eq!(fans[2].iter().filter(|q| q.is_none()).count(), 2);
        assert_eq!(fans[0], vec![Some(PolyId(0)), None]);
    }

    #[test]
    fn malformed_header() {
        let (l, c, m) = syntax("");
        assert_eq!((l, c), (1, 0));
        assert!(m.contains("\"mesh\""), "{m}");
        let (l, c, m) = syntax("  nav\n2\n");
        assert_eq!((l, c), (1, 3));
        assert!(m.contains("expected the header"), "{m}");
        let (l, _, m) = syntax("mesh\n4\n");
        assert_eq!(l, 2);
        assert!(m.contains("1, 2 or 3"), "{m}");
        let (l, _, m) = syntax("mesh\ntwo\n");
        assert_eq!(l, 2);
        assert!(m.contains("integer"), "{m}");
        let (l, c, m) = syntax("mesh\n2\n4 x\n");
        assert_eq!((l, c), (3, 3));
        assert!(m.contains("number of polygons"), "{m}");
        let (l, _, m) = syntax("mesh\n2\n-4 2\n");
        assert_eq!(l, 3);
        assert!(m.contains("number of vertices"), "{m}");
    }

    #[test]
    fn header_counts_larger_than_the_file() {
        let (l, _, m) = syntax("mesh\n2\n4000000000 2\n0 0\n");
        assert_eq!(l, 3);
        assert!(m.contains("too short"), "{m}");
    }

    #[test]
    fn malformed_vertex() {
        let bad = SQUARE_V2.replacen("1 0 2 0 -1", "1 zero 2 0 -1", 1);
        let (l, c, m) = syntax(&bad);
        assert_eq!((l, c), (5, 3));
        assert!(m.contains("y coordinate of vertex 1"), "{m}");
        let bad = SQUARE_V2.replacen("1 0 2 0 -1", "1 inf 2 0 -1", 1);
        assert!(syntax(&bad).2.contains("finite"));
        let bad = SQUARE_V2.replacen("1 0 2 0 -1", "1 0 2 0 7", 1);
        let (l, _, m) = syntax(&bad);
        assert_eq!(l, 5);
        assert!(m.contains("between -1 and 1"), "{m}");
    }

    #[test]
    fn malformed_polygon() {
        let bad = SQUARE_V2.replace("3 0 2 3 -1 0 -1", "2 0 2 -1 0");
        let (l, _, m) = syntax(&bad);
        assert_eq!(l, 9);
        assert!(m.contains("at least 3"), "{m}");
        let bad = SQUARE_V2.replace("3 0 2 3 -1 0 -1", "3 0 2 9 -1 0 -1");
        let (l, c, m) = syntax(&bad);
        assert_eq!((l, c), (9, 7));
        assert!(m.contains("vertex index of polygon 1"), "{m}");
        let bad = SQUARE_V2.replace("3 0 2 3 -1 0 -1", "3 0 2 3 -1 0");
        let (l, _, m) = syntax(&bad);
        assert_eq!(l, 9);
        assert!(m.contains("end of file"), "{m}");
        let bad = format!("{SQUARE_V2}7\n");
        let (l, c, m) = syntax(&bad);
        assert_eq!((l, c), (10, 1));
        assert!(m.contains("end of the file"), "{m}");
    }

    #[test]
    fn clockwise_polygon_is_reported_at_its_line() {
        let bad = SQUARE_V2.replace("3 0 2 3 -1 0 -1", "3 0 3 2 -1 -1 0");
        let (l, _, m) = syntax(&bad);
        assert_eq!(l, 9);
        assert!(m.contains("polygon 1"), "{m}");
    }

    #[test]
    fn a_concave_face_is_cut_into_convex_pieces() {
        // An L-shaped face beside a square: the L is split, the square's neighbour is still
        // checked against the file (across the edge 2 → 1 of the L, now a piece's edge).
        let text = "mesh\n2\n8 2\n\
                    0 0 2 0 -1\n2 0 3 0 1 -1\n2 1 3 0 1 -1\n1 1 2 0 -1\n\
                    1 2 2 0 -1\n0 2 2 0 -1\n3 0 2 1 -1\n3 1 2 1 -1\n\
                    6 0 1 2 3 4 5 -1 -1 1 -1 -1 -1\n4 1 6 7 2 0 -1 -1 -1\n";
        let (mesh, info) = read_with_info(text.as_bytes()).unwrap();
        assert_eq!(info.split_faces, vec![0]);
        assert_eq!(mesh.polygon_count(), 3);
        assert_eq!(info.face_polygon, vec![Some(PolyId(0)), Some(PolyId(2))]);
        mesh.check_invariants().unwrap();
        assert_eq!(mesh.area(), 4.0);
        // The square's neighbour is the piece of the L that holds the shared edge.
        let across = mesh.neighbours(PolyId(2))[3].unwrap();
        assert!(across.index() < 2);
        // A wrong neighbour for the L is still caught, at its token.
        let bad = text.replace("6 0 1 2 3 4 5 -1 -1 1", "6 0 1 2 3 4 5 -1 1 -1");
        let (l, _, m) = syntax(&bad);
        assert_eq!(l, 12);
        assert!(m.contains("disagrees with the geometry"), "{m}");
    }

    #[test]
    fn a_large_concave_face_is_not_cut() {
        // A star of 2k vertices alternating between radii 2 and 1: concave, simple, CCW.
        let star = |k: usize| {
            let n = 2 * k;
            let mut text = format!("mesh\n2\n{n} 1\n");
            for i in 0..n {
                let t = std::f64::consts::TAU * i as f64 / n as f64;
                let r = if i % 2 == 0 { 2.0 } else { 1.0 };
                text += &format!("{} {} 2 0 -1\n", r * t.cos(), r * t.sin());
            }
            text += &format!("{n}");
            for i in 0..n {
                text += &format!(" {i}");
            }
            text += &" -1".repeat(n);
            text + "\n"
        };
        let (_, info) = read_with_info(star(MAX_SPLIT_VERTICES / 2).as_bytes()).unwrap();
        assert_eq!(info.split_faces, vec![0]);
        let (line, _, message) = syntax(&star(MAX_SPLIT_VERTICES / 2 + 1));
        assert_eq!(line, 4 + MAX_SPLIT_VERTICES + 2);
        assert!(message.contains("not convex"), "{message}");
    }

    #[test]
    fn overlapping_polygons_are_rejected() {
        let text = "mesh\n2\n6 2\n0 0 1 0\n2 0 1 0\n0 2 1 0\n0.5 0.5 1 1\n3 0.5 1 1\n0.5 3 1 1\n\
                    3 0 1 2 -1 -1 -1\n3 3 4 5 -1 -1 -1\n";
        let (l, _, m) = syntax(text);
        assert_eq!(l, 11);
        assert!(m.contains("overlap"), "{m}");
    }

    #[test]
    fn neighbour_lists_must_match_the_geometry() {
        // The file says polygon 0 has no neighbour across the diagonal.
        let bad = SQUARE_V2.replace("3 0 1 2 1 -1 -1", "3 0 1 2 -1 -1 -1");
        let (l, c, m) = syntax(&bad);
        assert_eq!((l, c), (8, 9));
        assert!(m.contains("disagrees"), "{m}");
        // ... or names itself.
        let bad = SQUARE_V2.replace("3 0 1 2 1 -1 -1", "3 0 1 2 1 0 -1");
        let (l, c, _) = syntax(&bad);
        assert_eq!((l, c), (8, 11));
    }

    #[test]
    fn v3_constrained_edge_between_traversable_faces_is_rejected() {
        let text = "mesh\n3\n4 2\n0 0\n1 0\n1 1\n0 1\n1 3 1 2 3 -2 0 0\n1 3 1 3 4 0 -1 0\n";
        let (l, _, m) = syntax(text);
        assert_eq!(l, 8);
        assert!(m.contains("constrained"), "{m}");
    }

    #[test]
    fn v3_bad_flag_and_ids() {
        let text = "mesh\n3\n4 2\n0 0\n1 0\n1 1\n0 1\n2 3 1 2 3 2 0 0\n1 3 1 3 4 0 0 1\n";
        let (l, c, m) = syntax(text);
        assert_eq!((l, c), (8, 1));
        assert!(m.contains("traversable flag"), "{m}");
        let text = "mesh\n3\n4 2\n0 0\n1 0\n1 1\n0 1\n1 3 0 2 3 2 0 0\n1 3 1 3 4 0 0 1\n";
        let (l, c, m) = syntax(text);
        assert_eq!((l, c), (8, 5));
        assert!(m.contains("between 1 and 4"), "{m}");
    }

    #[test]
    fn only_obstacles_is_an_error() {
        let text = "mesh\n3\n3 1\n0 0\n1 0\n1 1\n0 3 1 2 3 0 0 0\n";
        assert!(syntax(text).2.contains("no traversable"));
    }

    #[test]
    fn bytes_that_are_not_text() {
        assert!(matches!(read(&[0xff, 0xfe][..]), Err(ReadError::Io(_))));
    }

    /// Two faces sharing two collinear edges in a row (the mesh has one portal per pair of
    /// neighbours) are refused at the first face's line, with what to do about it.
    #[test]
    fn faces_sharing_two_edges_are_refused_at_their_line() {
        let v = [
            (0.0, 0.0),
            (1.0, 0.0),
            (1.0, 1.0),
            (1.0, 2.0),
            (0.0, 2.0),
            (2.0, 0.0),
            (2.0, 2.0),
        ]
        .map(|(x, y)| Vec2::new(x, y))
        .to_vec();
        let mesh =
            NavMesh::from_polygons(v, vec![vec![0, 1, 2, 3, 4], vec![1, 5, 6, 3, 2]]).unwrap();
        let mut text = Vec::new();
        write_v2(&mesh, &mut text).unwrap();
        let e = read(&text[..]).unwrap_err().to_string();
        assert_eq!(
            e,
            "line 11: polygon 0 and polygon 1 share more than one edge (edges 1 and 2 of \
             polygon 0); drop the vertex between them from both"
        );
    }
}
