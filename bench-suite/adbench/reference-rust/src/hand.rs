//! ADBench's hand tracking: a skinned hand model posed by 26 parameters, and the
//! residuals between observed points and their matched vertices (simple variant) or
//! points of matched triangles (complicated variant) (`bench-suite/adbench/hand.fut`).
//! The bone transforms are computed once; the residuals in parallel over the points,
//! each posing only the vertices it reads.

use rayon::prelude::*;
use values::Value;

use crate::args;

type Mat4 = [[f64; 4]; 4];
type Mat3 = [[f64; 3]; 3];

/// A hand instance with checked indices.
pub struct Hand {
    parents: Vec<Option<usize>>,
    base_relatives: Vec<Mat4>,
    inverse_base_absolutes: Vec<Mat4>,
    /// `[b][M]`: the weight of each bone for each vertex.
    weights: Vec<f64>,
    /// `[4][M]`: homogeneous base positions, one coordinate per row.
    base_positions: Vec<f64>,
    vertex_count: usize,
    triangles: Vec<[usize; 3]>,
    is_mirrored: bool,
    correspondences: Vec<usize>,
    /// `[3][N]`: the observed points, one coordinate per row.
    points: Vec<f64>,
    theta: [f64; 26],
    /// Empty (simple variant) or u1, u2 of each point in turn.
    us: Vec<f64>,
}

fn matmul<const N: usize>(a: &[[f64; N]; N], b: &[[f64; N]; N]) -> [[f64; N]; N] {
    let mut out = [[0.0; N]; N];
    for (r, row) in out.iter_mut().enumerate() {
        for (c, x) in row.iter_mut().enumerate() {
            *x = (0..N).map(|k| a[r][k] * b[k][c]).sum();
        }
    }
    out
}

/// The 25 pose columns of 3 values that θ describes.
fn pose_columns(theta: &[f64; 26]) -> [[f64; 3]; 25] {
    let mut pose = [[0.0; 3]; 25];
    pose[0] = [theta[0], theta[1], theta[2]];
    pose[1] = [1.0, 1.0, 1.0];
    pose[2] = [theta[3], theta[4], theta[5]];
    for finger in 0..5 {
        let i = 6 + 4 * finger;
        let c = 5 + 4 * finger;
        pose[c] = [theta[i], theta[i + 1], 0.0];
        pose[c + 1] = [theta[i + 2], 0.0, 0.0];
        pose[c + 2] = [theta[i + 3], 0.0, 0.0];
    }
    pose
}

/// A bone's rotation from its pose column (x, z, y angles): Rz·Ry·Rx.
fn euler_rotation(a: &[f64; 3]) -> Mat3 {
    let (sx, cx) = a[0].sin_cos();
    let (sz, cz) = a[1].sin_cos();
    let (sy, cy) = a[2].sin_cos();
    let rx = [[1.0, 0.0, 0.0], [0.0, cx, -sx], [0.0, sx, cx]];
    let ry = [[cy, 0.0, sy], [0.0, 1.0, 0.0], [-sy, 0.0, cy]];
    let rz = [[cz, -sz, 0.0], [sz, cz, 0.0], [0.0, 0.0, 1.0]];
    matmul(&rz, &matmul(&ry, &rx))
}

/// The rotation matrix of an angle-axis vector; the identity below 1e−4.
fn angle_axis_rotation(r: &[f64; 3]) -> Mat3 {
    let n = (r[0] * r[0] + r[1] * r[1] + r[2] * r[2]).sqrt();
    if n < 0.0001 {
        return [[1.0, 0.0, 0.0], [0.0, 1.0, 0.0], [0.0, 0.0, 1.0]];
    }
    let (x, y, z) = (r[0] / n, r[1] / n, r[2] / n);
    let (s, c) = n.sin_cos();
    let t = 1.0 - c;
    [
        [x * x * t + c, x * y * t - z * s, x * z * t + y * s],
        [x * y * t + z * s, y * y * t + c, y * z * t - x * s],
        [x * z * t - y * s, y * z * t + x * s, z * z * t + c],
    ]
}

fn mat4s(v: &Value, name: &str, b: usize) -> Result<Vec<Mat4>, String> {
    let (s, xs) = args::f64s(v, name, 3)?;
    args::dim(name, "the number of bones", s[0], b)?;
    args::dim(name, "the matrix height", s[1], 4)?;
    args::dim(name, "the matrix width", s[2], 4)?;
    Ok(xs
        .chunks_exact(16)
        .map(|m| [0, 1, 2, 3].map(|r| [0, 1, 2, 3].map(|c| m[4 * r + c])))
        .collect())
}

impl Hand {
    /// Reads the model, then `correspondences, points, theta, us`.
    pub fn from_values(v: &[Value]) -> Result<Hand, String> {
        args::count(
            v,
            &[
                "parents",
                "base_relatives",
                "inverse_base_absolutes",
                "weights",
                "base_positions",
                "triangles",
                "is_mirrored",
                "correspondences",
                "points",
                "theta",
                "us",
            ],
        )?;
        let (sp, parents) = args::i32s(&v[0], "parents", 1)?;
        let b = sp[0];
        if b > 22 {
            return Err(format!(
                "argument `parents`: {b} bones, but the pose has columns for at most 22"
            ));
        }
        let parents = parents
            .iter()
            .enumerate()
            .map(|(i, &p)| {
                if p < 0 {
                    Ok(None)
                } else {
                    args::index("parents", i, p, b).map(Some)
                }
            })
            .collect::<Result<Vec<_>, String>>()?;
        let base_relatives = mat4s(&v[1], "base_relatives", b)?;
        let inverse_base_absolutes = mat4s(&v[2], "inverse_base_absolutes", b)?;
        let (sw, weights) = args::f64s(&v[3], "weights", 2)?;
        args::dim("weights", "the number of rows", sw[0], b)?;
        let m = sw[1];
        let (sb, base_positions) = args::f64s(&v[4], "base_positions", 2)?;
        args::dim("base_positions", "the number of rows", sb[0], 4)?;
        args::dim("base_positions", "the row length", sb[1], m)?;
        let (st, tris) = args::i32s(&v[5], "triangles", 2)?;
        args::dim("triangles", "the row length", st[1], 3)?;
        let triangles = tris
            .chunks_exact(3)
            .enumerate()
            .map(|(t, tri)| {
                let corner = |k: usize| args::index("triangles", 3 * t + k, tri[k], m);
                Ok([corner(0)?, corner(1)?, corner(2)?])
            })
            .collect::<Result<Vec<_>, String>>()?;
        let is_mirrored = args::bool_scalar(&v[6], "is_mirrored")?;
        let (sc, corr) = args::i32s(&v[7], "correspondences", 1)?;
        let n = sc[0];
        let (spts, points) = args::f64s(&v[8], "points", 2)?;
        args::dim("points", "the number of rows", spts[0], 3)?;
        args::dim("points", "the row length", spts[1], n)?;
        let (sth, theta) = args::f64s(&v[9], "theta", 1)?;
        args::dim("theta", "the length", sth[0], 26)?;
        let (su, us) = args::f64s(&v[10], "us", 1)?;
        if su[0] != 0 {
            args::dim("us", "the length", su[0], 2 * n)?;
        }
        let bound = if us.is_empty() { m } else { triangles.len() };
        let correspondences = corr
            .iter()
            .enumerate()
            .map(|(i, &c)| args::index("correspondences", i, c, bound))
            .collect::<Result<Vec<_>, String>>()?;
        Ok(Hand {
            parents,
            base_relatives,
            inverse_base_absolutes,
            weights: weights.to_vec(),
            base_positions: base_positions.to_vec(),
            vertex_count: m,
            triangles,
            is_mirrored,
            correspondences,
            points: points.to_vec(),
            theta: theta.try_into().expect("26 values"),
            us: us.to_vec(),
        })
    }

    /// Each bone's posed transform (its first three rows: the last is 0 0 0 1).
    fn bone_transforms(&self, pose: &[[f64; 3]; 25]) -> Vec<[[f64; 4]; 3]> {
        let relatives: Vec<Mat4> = self
            .base_relatives
            .iter()
            .enumerate()
            .map(|(i, br)| {
                let r = euler_rotation(&pose[3 + i]);
                let mut h = [[0.0; 4]; 4];
                for (row, rrow) in h.iter_mut().zip(&r) {
                    row[..3].copy_from_slice(rrow);
                }
                h[3][3] = 1.0;
                matmul(br, &h)
            })
            .collect();
        let mut absolutes = relatives.clone();
        for (i, parent) in self.parents.iter().enumerate() {
            if let Some(p) = *parent {
                absolutes[i] = matmul(&absolutes[p], &relatives[i]);
            }
        }
        absolutes
            .iter()
            .zip(&self.inverse_base_absolutes)
            .map(|(a, iba)| {
                let t = matmul(a, iba);
                [t[0], t[1], t[2]]
            })
            .collect()
    }

    /// The residuals, `[N][3]` row-major.
    pub fn objective(&self) -> Vec<f64> {
        let pose = pose_columns(&self.theta);
        let transforms = self.bone_transforms(&pose);
        let rotation = angle_axis_rotation(&pose[0]);
        let scaled = rotation.map(|row| [0, 1, 2].map(|c| row[c] * pose[1][c]));
        let m = self.vertex_count;
        // The posed position of vertex j.
        let vertex = |j: usize| -> [f64; 3] {
            let mut blend = [[0.0; 4]; 3];
            for (bone, t) in transforms.iter().enumerate() {
                let w = self.weights[bone * m + j];
                for (brow, trow) in blend.iter_mut().zip(t) {
                    for (x, y) in brow.iter_mut().zip(trow) {
                        *x += w * y;
                    }
                }
            }
            let pos = [0, 1, 2, 3].map(|r| self.base_positions[r * m + j]);
            let mut v = blend.map(|row| (0..4).map(|c| row[c] * pos[c]).sum::<f64>());
            if self.is_mirrored {
                v[0] = -v[0];
            }
            [0, 1, 2].map(|r| (0..3).map(|c| scaled[r][c] * v[c]).sum::<f64>() + pose[2][r])
        };
        let n = self.correspondences.len();
        let mut out = vec![0.0; 3 * n];
        out.par_chunks_exact_mut(3).enumerate().for_each(|(i, e)| {
            let c = self.correspondences[i];
            let target = if self.us.is_empty() {
                vertex(c)
            } else {
                let [a, b, cc] = self.triangles[c].map(vertex);
                let (u1, u2) = (self.us[2 * i], self.us[2 * i + 1]);
                let u3 = 1.0 - u1 - u2;
                [0, 1, 2].map(|k| u1 * a[k] + u2 * b[k] + u3 * cc[k])
            };
            for (k, ek) in e.iter_mut().enumerate() {
                *ek = self.points[k * n + i] - target[k];
            }
        });
        out
    }
}
