//! Plain Rust implementations of the objectives of ADBench's four problems (GMM,
//! BA, Hand, LSTM), computing what `calculate_objective` of the programs in
//! `bench-suite/adbench/` computes, for comparing the compiled programs' speed with
//! straightforward hand-written code.
//!
//! Each problem reads the Futhark binary inputs that `tools/adbench/adbench.py
//! convert` writes (the entry's parameters in order), computes its objective in
//! parallel with rayon over its natural outer dimension (points for GMM,
//! observations for BA, matched points for Hand; LSTM is sequential over time), and
//! returns the results as values, in the entry's result order, to compare with the
//! NumPy reference outputs.

pub mod args;
pub mod ba;
pub mod gmm;
pub mod hand;
pub mod lstm;
pub mod timing;

use values::Value;

/// One of the four problems, with its input read and checked.
pub enum Instance {
    /// Gaussian mixture model.
    Gmm(gmm::Gmm),
    /// Bundle adjustment.
    Ba(ba::Ba),
    /// Hand tracking (simple or complicated).
    Hand(Box<hand::Hand>),
    /// Diagonal LSTM.
    Lstm(lstm::Lstm),
}

/// The problem names `Instance::from_values` accepts.
pub const PROBLEMS: [&str; 4] = ["gmm", "ba", "hand", "lstm"];

impl Instance {
    /// Reads `problem`'s input from the entry arguments `args`.
    pub fn from_values(problem: &str, args: &[Value]) -> Result<Instance, String> {
        match problem {
            "gmm" => gmm::Gmm::from_values(args).map(Instance::Gmm),
            "ba" => ba::Ba::from_values(args).map(Instance::Ba),
            "hand" => hand::Hand::from_values(args).map(|h| Instance::Hand(Box::new(h))),
            "lstm" => lstm::Lstm::from_values(args).map(Instance::Lstm),
            _ => Err(format!(
                "unknown problem `{problem}` (expected one of {})",
                PROBLEMS.join(", ")
            )),
        }
    }

    /// Reads `problem`'s input from the bytes of a binary value file.
    pub fn from_bytes(problem: &str, bytes: &[u8]) -> Result<Instance, String> {
        let args = values::read_values(bytes).map_err(|e| e.to_string())?;
        Instance::from_values(problem, &args)
    }

    /// Computes the objective and returns it as the entry's results.
    pub fn objective_values(&self) -> Vec<Value> {
        match self {
            Instance::Gmm(p) => vec![Value::scalar(p.objective())],
            Instance::Ba(p) => {
                let (reproj, werr) = p.objective();
                let n = werr.len();
                vec![
                    Value::array(vec![n, 2], reproj).expect("2 values per observation"),
                    Value::vector(werr),
                ]
            }
            Instance::Hand(p) => {
                let r = p.objective();
                let n = r.len() / 3;
                vec![Value::array(vec![n, 3], r).expect("3 values per point")]
            }
            Instance::Lstm(p) => vec![Value::scalar(p.objective())],
        }
    }

    /// Computes the objective only, for timing: the result is dropped after a
    /// cheap use that keeps the computation from being optimised away.
    pub fn run_objective(&self) -> f64 {
        match self {
            Instance::Gmm(p) => p.objective(),
            Instance::Ba(p) => {
                let (reproj, werr) = p.objective();
                reproj.first().copied().unwrap_or(0.0) + werr.last().copied().unwrap_or(0.0)
            }
            Instance::Hand(p) => p.objective().first().copied().unwrap_or(0.0),
            Instance::Lstm(p) => p.objective(),
        }
    }
}
