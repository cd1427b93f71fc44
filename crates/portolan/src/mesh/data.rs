//! Serde: a mesh as `{"vertices": [...], "polygons": [...]}`, checked again when read.

use super::*;

/// The plain serialisable form of a mesh: `{"vertices": [[x, y], ...], "polygons": [[i, j, k, ...], ...]}`.
#[derive(Clone, Debug, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct NavMeshData {
    /// Vertex positions.
    pub vertices: Vec<Vec2>,
    /// Polygons as counter-clockwise vertex indices.
    pub polygons: Vec<Vec<u32>>,
}

impl From<&NavMesh> for NavMeshData {
    fn from(m: &NavMesh) -> NavMeshData {
        NavMeshData {
            vertices: m.vertices.clone(),
            polygons: m
                .polygons()
                .map(|p| m.polygon_vertices(p).iter().map(|v| v.0).collect())
                .collect(),
        }
    }
}

impl TryFrom<NavMeshData> for NavMesh {
    type Error = MeshError;
    fn try_from(d: NavMeshData) -> Result<NavMesh, MeshError> {
        NavMesh::from_polygons(d.vertices, d.polygons)
    }
}

impl Serialize for NavMesh {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        NavMeshData::from(self).serialize(s)
    }
}

impl<'de> Deserialize<'de> for NavMesh {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<NavMesh, D::Error> {
        let data = NavMeshData::deserialize(d)?;
        NavMesh::try_from(data).map_err(serde::de::Error::custom)
    }
}
