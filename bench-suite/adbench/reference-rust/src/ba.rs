//! ADBench's bundle adjustment: the weighted reprojection error of each observation
//! of a point by a camera with radial distortion, and the error of each weight
//! (`bench-suite/adbench/ba.fut`). Parallel over the observations.

use rayon::prelude::*;
use values::Value;

use crate::args;

/// A BA instance; `obs` holds checked (camera, point) indices.
pub struct Ba {
    cams: Vec<[f64; 11]>,
    points: Vec<[f64; 3]>,
    w: Vec<f64>,
    obs: Vec<(usize, usize)>,
    feat: Vec<[f64; 2]>,
}

fn dot(a: &[f64; 3], b: &[f64; 3]) -> f64 {
    a[0] * b[0] + a[1] * b[1] + a[2] * b[2]
}

fn cross(a: &[f64; 3], b: &[f64; 3]) -> [f64; 3] {
    [
        a[1] * b[2] - a[2] * b[1],
        a[2] * b[0] - a[0] * b[2],
        a[0] * b[1] - a[1] * b[0],
    ]
}

/// Rodrigues' rotation of `x` by the angle-axis vector `r` (first order at zero).
fn rotate(r: &[f64; 3], x: &[f64; 3]) -> [f64; 3] {
    let sqtheta = dot(r, r);
    if sqtheta != 0.0 {
        let theta = sqtheta.sqrt();
        let (s, c) = theta.sin_cos();
        let axis = [r[0] / theta, r[1] / theta, r[2] / theta];
        let ax = cross(&axis, x);
        let along = dot(&axis, x) * (1.0 - c);
        [0, 1, 2].map(|i| x[i] * c + ax[i] * s + axis[i] * along)
    } else {
        let rx = cross(r, x);
        [x[0] + rx[0], x[1] + rx[1], x[2] + rx[2]]
    }
}

/// The image coordinates of `x` seen by `cam`.
fn project(cam: &[f64; 11], x: &[f64; 3]) -> [f64; 2] {
    let r = [cam[0], cam[1], cam[2]];
    let moved = [x[0] - cam[3], x[1] - cam[4], x[2] - cam[5]];
    let xc = rotate(&r, &moved);
    let p0 = xc[0] / xc[2];
    let p1 = xc[1] / xc[2];
    let rsq = p0 * p0 + p1 * p1;
    let distortion = 1.0 + cam[9] * rsq + cam[10] * rsq * rsq;
    [
        cam[6] * p0 * distortion + cam[7],
        cam[6] * p1 * distortion + cam[8],
    ]
}

impl Ba {
    /// Reads `cams, X, w, obs, feat`.
    pub fn from_values(v: &[Value]) -> Result<Ba, String> {
        args::count(v, &["cams", "X", "w", "obs", "feat"])?;
        let (sc, cams) = args::f64s(&v[0], "cams", 2)?;
        let (sx, xs) = args::f64s(&v[1], "X", 2)?;
        let (sw, w) = args::f64s(&v[2], "w", 1)?;
        let (so, obs) = args::i32s(&v[3], "obs", 2)?;
        let (sf, feat) = args::f64s(&v[4], "feat", 2)?;
        args::dim("cams", "the row length", sc[1], 11)?;
        args::dim("X", "the row length", sx[1], 3)?;
        let p = sw[0];
        args::dim("obs", "the number of rows", so[0], p)?;
        args::dim("obs", "the row length", so[1], 2)?;
        args::dim("feat", "the number of rows", sf[0], p)?;
        args::dim("feat", "the row length", sf[1], 2)?;
        let obs = obs
            .chunks_exact(2)
            .enumerate()
            .map(|(i, o)| {
                Ok((
                    args::index("obs", 2 * i, o[0], sc[0])?,
                    args::index("obs", 2 * i + 1, o[1], sx[0])?,
                ))
            })
            .collect::<Result<Vec<_>, String>>()?;
        Ok(Ba {
            cams: cams
                .chunks_exact(11)
                .map(|c| c.try_into().expect("rows of 11"))
                .collect(),
            points: xs
                .chunks_exact(3)
                .map(|c| c.try_into().expect("rows of 3"))
                .collect(),
            w: w.to_vec(),
            obs,
            feat: feat
                .chunks_exact(2)
                .map(|c| c.try_into().expect("rows of 2"))
                .collect(),
        })
    }

    /// The reprojection errors (`[p][2]`, row-major) and the weight errors (`[p]`).
    pub fn objective(&self) -> (Vec<f64>, Vec<f64>) {
        let p = self.w.len();
        let mut reproj = vec![0.0; 2 * p];
        reproj
            .par_chunks_exact_mut(2)
            .zip(self.obs.par_iter())
            .zip(self.w.par_iter().zip(self.feat.par_iter()))
            .for_each(|((out, &(c, x)), (&w, f))| {
                let proj = project(&self.cams[c], &self.points[x]);
                out[0] = w * (proj[0] - f[0]);
                out[1] = w * (proj[1] - f[1]);
            });
        let werr = self.w.par_iter().map(|w| 1.0 - w * w).collect();
        (reproj, werr)
    }
}
