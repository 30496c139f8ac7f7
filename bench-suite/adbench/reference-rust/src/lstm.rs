//! ADBench's diagonal LSTM: the prediction loss over a sequence of characters of b
//! bits, through l layers whose products are all element-wise
//! (`bench-suite/adbench/lstm.fut`). Sequential: each step needs the state the
//! previous one left, and a step's vectors (b = 14) are too short to share out.

use values::Value;

use crate::args;

/// An LSTM instance, row-major as in the input.
pub struct Lstm {
    layers: usize,
    b: usize,
    chars: usize,
    /// `[2l][4b]`: per layer its weights row then its biases row, each four blocks
    /// of b (forget, input, output, change).
    main_params: Vec<f64>,
    /// `[3][b]`: input weights, output weights, output biases.
    extra_params: Vec<f64>,
    /// `[2l][b]`: per layer its hidden state then its cell state.
    state: Vec<f64>,
    /// `[c][b]`.
    sequence: Vec<f64>,
}

fn sigmoid(x: f64) -> f64 {
    1.0 / (1.0 + (-x).exp())
}

impl Lstm {
    /// Reads `main_params, extra_params, state, sequence`.
    pub fn from_values(v: &[Value]) -> Result<Lstm, String> {
        args::count(v, &["main_params", "extra_params", "state", "sequence"])?;
        let (sm, main_params) = args::f64s(&v[0], "main_params", 2)?;
        let (se, extra_params) = args::f64s(&v[1], "extra_params", 2)?;
        let (ss, state) = args::f64s(&v[2], "state", 2)?;
        let (sq, sequence) = args::f64s(&v[3], "sequence", 2)?;
        let b = se[1];
        args::dim("extra_params", "the number of rows", se[0], 3)?;
        if sm[0] % 2 != 0 {
            return Err(format!(
                "argument `main_params`: {} rows, expected two per layer",
                sm[0]
            ));
        }
        args::dim("main_params", "the row length", sm[1], 4 * b)?;
        args::dim("state", "the number of rows", ss[0], sm[0])?;
        args::dim("state", "the row length", ss[1], b)?;
        args::dim("sequence", "the row length", sq[1], b)?;
        if sq[0] < 2 {
            return Err(format!(
                "argument `sequence`: {} characters, expected at least 2",
                sq[0]
            ));
        }
        Ok(Lstm {
            layers: sm[0] / 2,
            b,
            chars: sq[0],
            main_params: main_params.to_vec(),
            extra_params: extra_params.to_vec(),
            state: state.to_vec(),
            sequence: sequence.to_vec(),
        })
    }

    /// The loss.
    pub fn objective(&self) -> f64 {
        let b = self.b;
        let mut state = self.state.clone();
        let (in_w, rest) = self.extra_params.split_at(b);
        let (out_w, out_b) = rest.split_at(b);
        let mut input = vec![0.0; b];
        let mut y = vec![0.0; b];
        let mut total = 0.0;
        for t in 0..self.chars - 1 {
            let x = &self.sequence[t * b..(t + 1) * b];
            for j in 0..b {
                input[j] = x[j] * in_w[j];
            }
            for layer in 0..self.layers {
                let w = &self.main_params[2 * layer * 4 * b..(2 * layer + 1) * 4 * b];
                let u = &self.main_params[(2 * layer + 1) * 4 * b..(2 * layer + 2) * 4 * b];
                let (h, c) = state[2 * layer * b..(2 * layer + 2) * b].split_at_mut(b);
                for j in 0..b {
                    let forget = sigmoid(input[j] * w[j] + u[j]);
                    let ingate = sigmoid(h[j] * w[b + j] + u[b + j]);
                    let outgate = sigmoid(input[j] * w[2 * b + j] + u[2 * b + j]);
                    let change = (h[j] * w[3 * b + j] + u[3 * b + j]).tanh();
                    c[j] = c[j] * forget + ingate * change;
                    h[j] = outgate * c[j].tanh();
                }
                input.copy_from_slice(h);
            }
            for j in 0..b {
                y[j] = input[j] * out_w[j] + out_b[j];
            }
            let norm = (2.0 + y.iter().map(|v| v.exp()).sum::<f64>()).ln();
            let target = &self.sequence[(t + 1) * b..(t + 2) * b];
            total += target
                .iter()
                .zip(&y)
                .map(|(s, v)| s * (v - norm))
                .sum::<f64>();
        }
        -(total / ((self.chars - 1) * b) as f64)
    }
}
