use super::*;

fn square_mesh() -> NavMesh {
    // 2×2 square split into a left square and two right triangles.
    let v = vec![
        Vec2::new(0.0, 0.0),
        Vec2::new(1.0, 0.0),
        Vec2::new(2.0, 0.0),
        Vec2::new(2.0, 1.0),
        Vec2::new(1.0, 1.0),
        Vec2::new(0.0, 1.0),
    ];
    NavMesh::from_polygons(v, vec![vec![0, 1, 4, 5], vec![1, 2, 3], vec![1, 3, 4]]).unwrap()
}

#[test]
fn adjacency_is_found_from_shared_edges() {
    let m = square_mesh();
    m.check_invariants().unwrap();
    assert_eq!(
        m.neighbours(PolyId(0)),
        &[None, Some(PolyId(2)), None, None]
    );
    assert_eq!(m.neighbours(PolyId(1)), &[None, None, Some(PolyId(2))]);
    assert_eq!(
        m.neighbours(PolyId(2)),
        &[Some(PolyId(1)), None, Some(PolyId(0))]
    );
    assert_eq!(m.area(), 2.0);
    assert!(m.is_corner(VertexId(0)));
}

#[test]
fn locate_classifies_every_case() {
    let m = square_mesh();
    assert_eq!(
        m.locate(Vec2::new(0.5, 0.5)),
        Location::InPolygon(PolyId(0))
    );
    assert_eq!(
        m.locate(Vec2::new(1.9, 0.1)),
        Location::InPolygon(PolyId(1))
    );
    match m.locate(Vec2::new(1.0, 0.5)) {
        Location::OnEdge {
            polygon, neighbour, ..
        } => {
            let pair = [polygon, neighbour.unwrap()];
            assert!(pair.contains(&PolyId(0)) && pair.contains(&PolyId(2)));
        }
        other => panic!("expected OnEdge, got {other:?}"),
    }
    assert!(matches!(
        m.locate(Vec2::new(1.0, 1.0)),
        Location::OnVertex {
            vertex: VertexId(4),
            ..
        }
    ));
    assert_eq!(m.locate(Vec2::new(3.0, 0.5)), Location::Outside);
    assert_eq!(m.locate(Vec2::new(f64::NAN, 0.5)), Location::Outside);
    for (x, y) in [(0.3, 0.7), (1.5, 0.2), (1.8, 0.9), (0.0, 0.0), (2.0, 1.0)] {
        let p = Vec2::new(x, y);
        assert_eq!(
            m.locate(p).polygon().is_some(),
            m.locate_linear(p).polygon().is_some()
        );
    }
}

#[test]
fn nearest_point_snaps_onto_the_mesh() {
    let m = square_mesh();
    let (poly, q) = m.nearest_point(Vec2::new(0.5, -3.0), 10.0).unwrap();
    assert_eq!(q, Vec2::new(0.5, 0.0));
    assert_eq!(poly, PolyId(0));
    assert!(m.nearest_point(Vec2::new(0.5, -3.0), 1.0).is_none());
    assert_eq!(
        m.nearest_point(Vec2::new(0.5, 0.5), 0.0).unwrap().1,
        Vec2::new(0.5, 0.5)
    );
    let (_, q) = m.nearest_point(Vec2::new(5.0, 5.0), 100.0).unwrap();
    assert_eq!(q, Vec2::new(2.0, 1.0));
}

#[test]
fn bad_polygons_are_rejected_by_name() {
    let v = vec![
        Vec2::new(0.0, 0.0),
        Vec2::new(1.0, 0.0),
        Vec2::new(0.0, 1.0),
        Vec2::new(1.0, 1.0),
    ];
    assert_eq!(
        NavMesh::from_polygons(v.clone(), vec![vec![0, 2, 1]]).unwrap_err(),
        MeshError::NotConvex {
            polygon: 0,
            corner: 1
        }
    );
    assert_eq!(
        NavMesh::from_polygons(v.clone(), vec![vec![0, 1, 2], vec![0, 1, 9]]).unwrap_err(),
        MeshError::VertexOutOfRange {
            polygon: 1,
            vertex: 9,
            vertex_count: 4
        }
    );
    assert_eq!(
        NavMesh::from_polygons(v.clone(), vec![vec![0, 1]]).unwrap_err(),
        MeshError::TooFewVertices {
            polygon: 0,
            count: 2
        }
    );
    assert_eq!(
        NavMesh::from_polygons(v.clone(), vec![vec![0]])
            .unwrap_err()
            .to_string(),
        "polygon 0 has 1 vertex; at least 3 are needed"
    );
    assert_eq!(
        NavMesh::from_polygons(v.clone(), vec![vec![0, 0, 1]]).unwrap_err(),
        MeshError::DegenerateEdge {
            polygon: 0,
            edge: 0
        }
    );
    assert!(matches!(
        NavMesh::from_polygons(v.clone(), vec![vec![0, 1, 2], vec![0, 1, 3]]).unwrap_err(),
        MeshError::NonManifoldEdge { second: 1, .. }
    ));
    let mut bad = v.clone();
    bad[3] = Vec2::new(f64::NAN, 0.0);
    assert_eq!(
        NavMesh::from_polygons(bad, vec![vec![0, 1, 2]]).unwrap_err(),
        MeshError::NonFiniteVertex { vertex: 3 }
    );
    assert_eq!(
        NavMesh::from_polygons(v, vec![]).unwrap_err(),
        MeshError::Empty
    );
    // A pentagram turns left at every corner but winds twice.
    let star: Vec<Vec2> = (0..5)
        .map(|i| {
            let a = (i as f64) * 4.0 * std::f64::consts::PI / 5.0;
            Vec2::new(a.cos(), a.sin())
        })
        .collect();
    assert!(matches!(
        NavMesh::from_polygons(star, vec![vec![0, 1, 2, 3, 4]]).unwrap_err(),
        MeshError::NotConvex { .. }
    ));
}

#[test]
fn invariants_catch_overlap_and_t_junctions() {
    let v = vec![
        Vec2::new(0.0, 0.0),
        Vec2::new(2.0, 0.0),
        Vec2::new(2.0, 2.0),
        Vec2::new(0.0, 2.0),
        Vec2::new(1.0, 1.0),
        Vec2::new(3.0, 1.0),
        Vec2::new(3.0, 3.0),
    ];
    let m = NavMesh::from_polygons(v.clone(), vec![vec![0, 1, 2, 3], vec![4, 5, 6]]).unwrap();
    assert_eq!(
        m.check_invariants(),
        Err(InvariantError::Overlap {
            first: PolyId(0),
            second: PolyId(1)
        })
    );
    // Square [0,1]² next to a rectangle [1,2]×[0,2]: vertex (1,1) is not on the rectangle.
    let v = vec![
        Vec2::new(0.0, 0.0),
        Vec2::new(1.0, 0.0),
        Vec2::new(1.0, 1.0),
        Vec2::new(0.0, 1.0),
        Vec2::new(2.0, 0.0),
        Vec2::new(2.0, 2.0),
        Vec2::new(1.0, 2.0),
    ];
    let m = NavMesh::from_polygons(v, vec![vec![0, 1, 2, 3], vec![1, 4, 5, 6]]).unwrap();
    assert!(matches!(
        m.check_invariants(),
        Err(InvariantError::TJunction {
            polygon: PolyId(1),
            ..
        })
    ));
}

#[test]
fn json_round_trip() {
    let m = square_mesh();
    let s = serde_json::to_string(&m).unwrap();
    let back: NavMesh = serde_json::from_str(&s).unwrap();
    assert_eq!(
        NavMeshData::from(&back).polygons,
        NavMeshData::from(&m).polygons
    );
    assert_eq!(back.vertices(), m.vertices());
    let bad = r#"{"vertices": [[0,0],[1,0],[0,1]], "polygons": [[0,2,1]]}"#;
    let err = serde_json::from_str::<NavMesh>(bad)
        .unwrap_err()
        .to_string();
    assert!(err.contains("polygon 0"), "{err}");
}

#[test]
fn mesh_is_send_and_sync() {
    fn assert_send_sync<T: Send + Sync>() {}
    assert_send_sync::<NavMesh>();
}

#[test]
fn locate_on_a_side_with_collinear_vertices_names_the_right_edge() {
    // Regression: a trapezoid's side carrying an obstacle's corners, (4,0) (4,4) (4,6) (4,10);
    // a point on the middle piece used to be reported on the last collinear edge.
    let v = vec![
        Vec2::new(0.0, 0.0),
        Vec2::new(4.0, 0.0),
        Vec2::new(4.0, 4.0),
        Vec2::new(4.0, 6.0),
        Vec2::new(4.0, 10.0),
        Vec2::new(0.0, 10.0),
    ];
    let m = NavMesh::from_polygons(v, vec![vec![0, 1, 2, 3, 4, 5]]).unwrap();
    for (y, edge) in [(2.0, 1), (5.0, 2), (8.0, 3)] {
        assert_eq!(
            m.locate(Vec2::new(4.0, y)),
            Location::OnEdge {
                polygon: PolyId(0),
                edge,
                neighbour: None
            },
            "y = {y}"
        );
    }
}

#[test]
fn snapped_points_are_always_on_the_mesh() {
    // Regression (found by the web demo's drag): a point inside a slanted obstacle of the default
    // map projects onto its edge a rounding error outside the mesh.
    let scene = crate::scene::Scene::default_map();
    let m = crate::build::build(&scene, &crate::build::BuildOptions::trapezoid()).unwrap();
    let mut state = 0x9E37_79B9_7F4A_7C15u64;
    let mut next = || {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        (state >> 11) as f64 / (1u64 << 53) as f64
    };
    for _ in 0..2000 {
        let p = Vec2::new(next() * 800.0, next() * 450.0);
        let (poly, q) = m.nearest_point(p, 1000.0).unwrap();
        assert!(
            m.locate_in(poly, q).is_some(),
            "{p} snapped to {q}, outside {poly}"
        );
        assert!(m.locate(q).polygon().is_some());
    }
}

#[test]
fn an_edge_shared_by_three_polygons_is_named() {
    let v = vec![
        Vec2::new(0.0, 0.0),
        Vec2::new(1.0, 0.0),
        Vec2::new(0.5, 1.0),
        Vec2::new(0.5, -1.0),
        Vec2::new(0.5, 2.0),
    ];
    // Triangles 0 and 1 share edge 0–1 (opposite ways); triangle 2 claims it a third time.
    let err =
        NavMesh::from_polygons(v, vec![vec![0, 1, 2], vec![1, 0, 3], vec![0, 1, 4]]).unwrap_err();
    assert_eq!(
        err,
        MeshError::NonManifoldEdge {
            a: 0,
            b: 1,
            first: 0,
            second: 2
        }
    );
}

/// Debug builds check what a builder hands to `from_known_adjacency` and return a typed error
/// for a broken mesh (they used to panic); release builds trust the builder.
#[test]
#[cfg(debug_assertions)]
fn broken_known_adjacency_is_an_error_in_debug_builds() {
    let vertices = vec![
        Vec2::new(0.0, 0.0),
        Vec2::new(1.0, 0.0),
        Vec2::new(1.0, 1.0),
        Vec2::new(0.0, 1.0),
    ];
    let ring = [0, 1, 2, 0, 2, 3].map(VertexId).to_vec();
    let good = vec![None, None, Some(PolyId(1)), Some(PolyId(0)), None, None];
    let offsets = vec![0, 3, 6];
    assert!(
        NavMesh::from_known_adjacency(vertices.clone(), offsets.clone(), ring.clone(), good)
            .is_ok()
    );
    // Polygon 1 does not name polygon 0 back across their shared edge.
    let one_sided = vec![None, None, Some(PolyId(1)), None, None, None];
    assert!(matches!(
        NavMesh::from_known_adjacency(vertices, offsets, ring, one_sided),
        Err(InvariantError::AsymmetricAdjacency { .. })
    ));
}

/// Two polygons sharing two collinear edges in a row (a vertex between them that nothing else
/// uses) are built, but the invariants name the fault instead of calling it asymmetric; the
/// messages name each polygon once ("polygon 0", not "polygon polygon 0").
#[test]
fn two_shared_edges_are_named_as_such() {
    let v = vec![
        Vec2::new(0.0, 0.0),
        Vec2::new(1.0, 0.0),
        Vec2::new(1.0, 1.0),
        Vec2::new(1.0, 2.0),
        Vec2::new(0.0, 2.0),
        Vec2::new(2.0, 0.0),
        Vec2::new(2.0, 2.0),
    ];
    let mesh = NavMesh::from_polygons(v, vec![vec![0, 1, 2, 3, 4], vec![1, 5, 6, 3, 2]]).unwrap();
    let e = mesh.check_invariants().unwrap_err();
    assert_eq!(
        e,
        InvariantError::SharedEdges {
            polygon: PolyId(0),
            neighbour: PolyId(1),
            first_edge: 1,
            second_edge: 2,
        }
    );
    assert_eq!(
        e.to_string(),
        "polygon 0 and polygon 1 share more than one edge (edges 1 and 2 of polygon 0); \
         drop the vertex between them from both"
    );
    let e = InvariantError::Overlap {
        first: PolyId(40),
        second: PolyId(41),
    };
    assert_eq!(e.to_string(), "polygon 40 and polygon 41 overlap");
}

#[test]
fn connected_components_join_across_edges_only() {
    assert_eq!(square_mesh().connected_components(), [0, 0, 0]);
    // Two squares touching at one vertex: no shared edge, two parts.
    let (v, polys) = crate::testkit::scenes::pinched_squares();
    let pinched = NavMesh::from_polygons(v, polys).unwrap();
    assert_eq!(pinched.connected_components(), [0, 1]);
    // Each half of the split map is one part.
    let split = crate::testkit::scenes::split_map();
    let part = split.connected_components();
    let of = |x: f64| part[split.locate(Vec2::new(x, 5.0)).polygon().unwrap().index()];
    assert_ne!(of(1.0), of(9.0));
    assert!(part.iter().all(|&c| c == of(1.0) || c == of(9.0)));
}

#[test]
fn the_largest_component_is_the_part_of_greatest_area() {
    // One part: every polygon.
    assert_eq!(square_mesh().largest_component(), [true; 3]);
    // Two unit squares touching at a vertex: equal areas, the part numbered first.
    let (v, polys) = crate::testkit::scenes::pinched_squares();
    let pinched = NavMesh::from_polygons(v, polys).unwrap();
    assert_eq!(pinched.largest_component(), [true, false]);
    // A small square listed first and a larger one apart: the larger wins.
    let v = [(0.0, 0.0), (1.0, 0.0), (1.0, 1.0), (0.0, 1.0)]
        .into_iter()
        .chain([(5.0, 0.0), (9.0, 0.0), (9.0, 4.0), (5.0, 4.0)])
        .map(|(x, y)| Vec2::new(x, y))
        .collect();
    let apart = NavMesh::from_polygons(v, vec![vec![0, 1, 2, 3], vec![4, 5, 6, 7]]).unwrap();
    assert_eq!(apart.largest_component(), [false, true]);
}

/// Issue 16, item 3: the point-location grid lists each polygon in every cell its bounding box
/// overlaps, and a convex obstacle of many vertices makes a fan of long thin triangles around
/// it, each overlapping about as many cells as there are polygons: 10k vertices took 44 MB and
/// 40k 584 MB. The lists now hold at most 16 entries per polygon, and location still works.
#[test]
fn point_location_memory_is_linear_for_a_fan_of_thin_triangles() {
    let n = 4000;
    let mut v = vec![Vec2::new(0.0, 0.0)];
    for i in 0..n {
        let (s, c) = crate::random::sin_cos(i as f64 * std::f64::consts::TAU / n as f64);
        v.push(Vec2::new(100.0 * c, 100.0 * s));
    }
    let polys: Vec<Vec<u32>> = (0..n as u32)
        .map(|i| vec![0, 1 + i, 1 + (i + 1) % n as u32])
        .collect();
    let mesh = NavMesh::from_polygons(v, polys).unwrap();
    let items = mesh.locator.item_count();
    assert!(items <= 16 * n, "{items} entries for {n} polygons");
    for i in 0..n as u32 {
        let p = PolyId(i);
        assert_eq!(mesh.locate(mesh.centroid(p)), Location::InPolygon(p));
    }
    // An ordinary mesh keeps its fine grid: about one cell per polygon, few entries each.
    let grid = crate::build::build(
        &crate::random::quad_grid_scene(20, 7),
        &crate::build::BuildOptions::cdt(),
    )
    .unwrap();
    let n = grid.polygon_count();
    assert!(
        grid.locator.cell_count() * 2 >= n,
        "{} cells",
        grid.locator.cell_count()
    );
    assert!(
        grid.locator.item_count() <= 8 * n,
        "{} entries",
        grid.locator.item_count()
    );
}

/// Issue 16, item 7: a valid mesh scaled to 1e160 gave an exact path detouring via
/// (-1e160, 0) (squared distances overflowed), and one scaled by 1e-170 was called "not convex"
/// (orientation products underflowed). Coordinates outside 0 ∪ [2⁻³⁰⁰, 2³⁰⁰] in magnitude are
/// refused, naming the vertex, by every mesh reader (they all build through `from_polygons`).
#[test]
fn out_of_range_coordinates_are_refused_by_name() {
    for scale in [1e160, 1e-170, 1e308] {
        let v: Vec<Vec2> = [(0.0, 0.0), (1.0, 0.0), (1.0, 1.0)]
            .iter()
            .map(|&(x, y)| Vec2::new(x * scale, y * scale))
            .collect();
        match NavMesh::from_polygons(v, vec![vec![0, 1, 2]]) {
            Err(MeshError::CoordinateRange { vertex: 1, .. }) => {}
            other => panic!("scale {scale}: {other:?}"),
        }
    }
    let e = NavMesh::from_polygons(
        vec![
            Vec2::new(0.0, 0.0),
            Vec2::new(1e160, 0.0),
            Vec2::new(0.0, 1.0),
        ],
        vec![vec![0, 1, 2]],
    )
    .unwrap_err();
    assert_eq!(
        e.to_string(),
        "vertex 1 at (1e160, 0e0) is out of the supported coordinate range (each coordinate 0 or of magnitude 2^-300 to 2^300)"
    );
    // The range's ends are accepted.
    let big = crate::geom::MAX_COORDINATE;
    let v = vec![
        Vec2::new(0.0, 0.0),
        Vec2::new(big, 0.0),
        Vec2::new(big, big),
    ];
    assert!(NavMesh::from_polygons(v, vec![vec![0, 1, 2]]).is_ok());
}

/// Query points far beyond the range (snapping from ±1e300 picked the wrong point: the
/// distances overflowed) are a typed error naming the end, for both searches, snapping or not.
#[test]
fn out_of_range_query_points_are_refused_by_both_searches() {
    use crate::search::{EndpointRole, PathError, PathFinder, SearchOptions, Snap};
    let m = square_mesh();
    let inside = Vec2::new(0.5, 0.5);
    for options in [SearchOptions::funnel(), SearchOptions::exact()] {
        for snap in [Snap::Reject, Snap::Within(f64::INFINITY)] {
            let o = options.clone().with_snap(snap);
            for far in [
                Vec2::new(1e300, 0.0),
                Vec2::new(-1e300, -1e300),
                Vec2::new(5e-324, 0.5),
            ] {
                assert_eq!(
                    PathFinder::new().find_path(&m, far, inside, &o),
                    Err(PathError::OutOfRange {
                        role: EndpointRole::Start,
                        point: far
                    })
                );
                assert_eq!(
                    PathFinder::new().find_path(&m, inside, far, &o),
                    Err(PathError::OutOfRange {
                        role: EndpointRole::Goal,
                        point: far
                    })
                );
            }
        }
    }
}
