//! SVG pictures of scenes, meshes and paths, as the chapter draws them.
//!
//! Obstacles dark, the mesh in thin grey lines, the channel's polygons shaded, the portals in ochre
//! with the left endpoint filled and the right one hollow, the path in blue. The picture is drawn
//! with y up (Portolan's convention), so "left" looks left.

use crate::geom::Vec2;
use crate::mesh::NavMesh;
use crate::scene::Scene;
use crate::search::funnel::channel_portals;
use crate::search::Path;
use std::fmt::Write;

fn pts(points: impl IntoIterator<Item = Vec2>) -> String {
    let mut s = String::new();
    for p in points {
        let _ = write!(s, "{:.3},{:.3} ", p.x, p.y);
    }
    s.trim_end().to_owned()
}

/// A closed ring as SVG path data (`M x,y L x,y ... Z`).
fn ring_path(ring: &[Vec2]) -> String {
    let mut d = String::new();
    for (i, p) in ring.iter().enumerate() {
        let _ = write!(
            d,
            "{}{:.3},{:.3} ",
            if i == 0 { "M" } else { "L" },
            p.x,
            p.y
        );
    }
    d.push('Z');
    d
}

/// Renders the scene and mesh, and a query `(start, goal, path)` if given, as a standalone SVG.
pub fn render(scene: &Scene, mesh: &NavMesh, query: Option<(Vec2, Vec2, &Path)>) -> String {
    render_inner(scene, mesh, query, None)
}

/// Like [`render`] for one query, with a reference path (the optimum, say) drawn over it as a
/// dashed green line and a one-line caption at the top: how the evaluation draws its worst cases.
pub fn render_comparison(
    scene: &Scene,
    mesh: &NavMesh,
    query: (Vec2, Vec2, &Path),
    reference: &[Vec2],
    caption: &str,
) -> String {
    render_inner(scene, mesh, Some(query), Some((reference, caption)))
}

fn render_inner(
    scene: &Scene,
    mesh: &NavMesh,
    query: Option<(Vec2, Vec2, &Path)>,
    overlay: Option<(&[Vec2], &str)>,
) -> String {
    let b = scene.bounds;
    let size = b.size();
    let scale = (900.0 / size.x).min(600.0 / size.y);
    let unit = 1.0 / scale; // one screen pixel in scene units
    let mut s = String::new();
    let _ = writeln!(
        s,
        r#"<svg xmlns="http://www.w3.org/2000/svg" width="{:.0}" height="{:.0}" viewBox="0 0 {:.3} {:.3}">"#,
        size.x * scale,
        size.y * scale,
        size.x,
        size.y
    );
    let _ = writeln!(
        s,
        r#"<g transform="translate({:.3},{:.3}) scale(1,-1)">"#,
        -b.min.x, b.max.y
    );
    let _ = writeln!(
        s,
        r##"<rect x="{}" y="{}" width="{}" height="{}" fill="#fbfaf6" stroke="#333" stroke-width="{}"/>"##,
        b.min.x,
        b.min.y,
        size.x,
        size.y,
        2.0 * unit
    );
    if let Some((_, _, path)) = query {
        for &p in &path.channel {
            let _ = writeln!(
                s,
                r##"<polygon points="{}" fill="#dbe8f5"/>"##,
                pts(mesh.polygon_points(p))
            );
        }
    }
    for p in mesh.polygons() {
        let _ = writeln!(
            s,
            r##"<polygon points="{}" fill="none" stroke="#9aa" stroke-width="{}"/>"##,
            pts(mesh.polygon_points(p)),
            unit
        );
    }
    // Outside a walkable boundary polygon: blocked like an obstacle (the bounds with the
    // boundary cut out).
    if let Some(boundary) = &scene.boundary {
        let rect = scene.bounds.corners();
        let _ = writeln!(
            s,
            r##"<path d="{} {}" fill="#4a4a4a" fill-rule="evenodd"/>"##,
            ring_path(&rect),
            ring_path(boundary)
        );
    }
    let mut holes_of: Vec<Vec<&[Vec2]>> = vec![Vec::new(); scene.obstacles.len()];
    for h in &scene.holes {
        if let Some(v) = holes_of.get_mut(h.obstacle) {
            v.push(&h.ring);
        }
    }
    for (o, holes) in scene.obstacles.iter().zip(holes_of) {
        if holes.is_empty() {
            let _ = writeln!(
                s,
                r##"<polygon points="{}" fill="#4a4a4a"/>"##,
                pts(o.iter().copied())
            );
        } else {
            // An obstacle with walkable holes: one path, the holes cut out.
            let mut d = ring_path(o);
            for h in holes {
                d.push(' ');
                d.push_str(&ring_path(h));
            }
            let _ = writeln!(s, r##"<path d="{d}" fill="#4a4a4a" fill-rule="evenodd"/>"##);
        }
    }
    if let Some((start, goal, path)) = query {
        let portals = channel_portals(mesh, &path.channel, start, goal);
        let r = 4.0 * unit;
        for p in &portals[1..portals.len() - 1] {
            let _ = writeln!(
                s,
                r##"<line x1="{}" y1="{}" x2="{}" y2="{}" stroke="#c8961e" stroke-width="{}"/>"##,
                p.left.x,
                p.left.y,
                p.right.x,
                p.right.y,
                2.0 * unit
            );
            let _ = writeln!(
                s,
                r##"<circle cx="{}" cy="{}" r="{r}" fill="#c8961e"/><circle cx="{}" cy="{}" r="{r}" fill="#fff" stroke="#c8961e" stroke-width="{}"/>"##,
                p.left.x,
                p.left.y,
                p.right.x,
                p.right.y,
                1.5 * unit
            );
        }
        let _ = writeln!(
            s,
            r##"<polyline points="{}" fill="none" stroke="#1f5fbf" stroke-width="{}" stroke-linejoin="round"/>"##,
            pts(path.points.iter().copied()),
            3.0 * unit
        );
        if let Some((reference, _)) = overlay {
            let _ = writeln!(
                s,
                r##"<polyline points="{}" fill="none" stroke="#2a9d3a" stroke-width="{}" stroke-dasharray="{} {}" stroke-linejoin="round"/>"##,
                pts(reference.iter().copied()),
                2.0 * unit,
                8.0 * unit,
                5.0 * unit
            );
        }
        for (p, colour) in [(start, "#2a9d3a"), (goal, "#c0392b")] {
            let _ = writeln!(
                s,
                r##"<circle cx="{}" cy="{}" r="{}" fill="{colour}"/>"##,
                p.x,
                p.y,
                7.0 * unit
            );
        }
    }
    s.push_str("</g>\n");
    if let Some((_, caption)) = overlay {
        let _ = writeln!(
            s,
            r##"<text x="{}" y="{}" font-family="sans-serif" font-size="{}" fill="#222" stroke="#fff" stroke-width="{}" paint-order="stroke">{}</text>"##,
            8.0 * unit,
            20.0 * unit,
            14.0 * unit,
            3.0 * unit,
            escape(caption)
        );
    }
    s.push_str("</svg>\n");
    s
}

/// Escapes text for an SVG text node.
fn escape(text: &str) -> String {
    text.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::build::{build, BuildOptions};

    #[test]
    fn draws_every_polygon_obstacle_and_portal() {
        let (scene, mesh, path) = crate::testkit::scenes::default_query();
        let (a, b) = (Scene::DEFAULT_START, Scene::DEFAULT_GOAL);
        let svg = render(&scene, &mesh, Some((a, b, &path)));
        let polygons = svg.matches("<polygon").count();
        assert_eq!(
            polygons,
            path.channel.len() + mesh.polygon_count() + scene.obstacles.len()
        );
        assert_eq!(svg.matches("<line").count(), path.channel.len() - 1);
        assert!(svg.starts_with("<svg") && svg.ends_with("</svg>\n"));
    }

    #[test]
    fn holes_and_a_boundary_polygon_are_drawn() {
        let scene: Scene = serde_json::from_str(
            r#"{"bounds": {"min": [0, 0], "max": [100, 100]},
                "boundary": [[5, 5], [95, 5], [95, 95], [50, 60], [5, 95]],
                "obstacles": [[[20, 20], [80, 20], [80, 50], [20, 50]]],
                "holes": [{"obstacle": 0, "ring": [[30, 30], [40, 30], [40, 40], [30, 40]]}]}"#,
        )
        .unwrap();
        let mesh = build(&scene, &BuildOptions::default()).unwrap();
        let svg = render(&scene, &mesh, None);
        // The bounds with the boundary cut out, and the obstacle with its hole.
        assert_eq!(svg.matches(r#"fill-rule="evenodd""#).count(), 2, "{svg}");
        assert!(svg.contains("M0.000,0.000 L100.000,0.000"));
        assert!(svg.contains("M5.000,5.000 L95.000,5.000 L95.000,95.000 L50.000,60.000"));
        assert!(svg.contains("M30.000,30.000 L40.000,30.000"));
        // No obstacle drawn as a plain polygon: it has a hole.
        assert_eq!(svg.matches("<polygon").count(), mesh.polygon_count());
    }

    #[test]
    fn comparison_adds_the_reference_and_caption() {
        let (scene, mesh, path) = crate::testkit::scenes::default_query();
        let (a, b) = (Scene::DEFAULT_START, Scene::DEFAULT_GOAL);
        let plain = render(&scene, &mesh, Some((a, b, &path)));
        let svg = render_comparison(&scene, &mesh, (a, b, &path), &[a, b], "worst <case> & co");
        assert_eq!(svg.matches("<polyline").count(), 2);
        assert_eq!(plain.matches("<polyline").count(), 1);
        assert!(svg.contains("stroke-dasharray"));
        assert!(svg.contains(">worst &lt;case&gt; &amp; co</text>"));
        assert!(svg.ends_with("</svg>\n"));
    }
}
