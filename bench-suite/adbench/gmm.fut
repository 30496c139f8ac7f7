-- ADBench's Gaussian mixture model (GMM): the log-likelihood of the points `x` under
-- a mixture of `k` Gaussians, with a Wishart prior on the inverse covariances, and its
-- gradient with respect to the mixture parameters (reverse mode, `vjp`).
--
-- Each component `j` has a log mixture weight `alphas[j]` (unnormalised), a mean
-- `means[j]` and the inverse covariance factor `icf[j]`: its first `d` values are the
-- logs of the diagonal of the lower-triangular matrix Q_j, the remaining d(d-1)/2 its
-- strictly lower part, column by column. The definitions are in the ADBench data
-- folder's README.md; `tools/adbench/gmm.py` computes the same values with NumPy.
--
-- The `data/` files come from `python3 tools/adbench/adbench.py prepare`.
-- ==
-- entry: calculate_objective
-- input @ data/gmm_test.in output @ data/gmm_test.objective.out
-- input @ data/gmm_small.in output @ data/gmm_small.objective.out
-- input @ data/gmm_1k_d2_K10.in output @ data/gmm_1k_d2_K10.objective.out

-- | `log (sum (map exp xs))`, computed without overflow by shifting by the maximum.
def logsumexp [n] (xs: [n]f64) : f64 =
  let top = f64.maximum xs
  in top + f64.log (f64.sum (map (\x -> f64.exp (x - top)) xs))

-- | The log of the multivariate gamma function of dimension `d` at `a`.
def log_gamma_d (d: i64) (a: f64) : f64 =
  let df = f64.i64 d
  in 0.25 * df * (df - 1) * f64.log f64.pi
     + f64.sum (map (\j -> f64.lgamma (a + (1 - f64.i64 j) / 2)) (1...d))

-- | Where the entry (r, c), r > c, of the strictly lower part of Q sits in a row of
-- `icf`: after the `d` diagonal logs, the columns one after the other.
def lower_index (d: i64) (r: i64) (c: i64) : i64 =
  d + c * (d - 1) - c * (c - 1) / 2 + (r - c - 1)

-- | `Q v`, where Q is the lower-triangular matrix that `icf` describes and `qdiag`
-- holds the exponentials of its diagonal logs (computed once per component).
def q_times [d] [t] (qdiag: [d]f64) (icf: [t]f64) (v: [d]f64) : [d]f64 =
  tabulate d (\r ->
                qdiag[r] * v[r]
                + f64.sum (map (\c -> if c < r then icf[lower_index d r c] * v[c] else 0)
                               (iota d)))

def sum_sq [n] (xs: [n]f64) : f64 = f64.sum (map (\x -> x * x) xs)

-- | The log of the Wishart prior's density on the inverse covariances, up to the
-- normalising constant that `wishart_constant` gives per component.
def wishart_prior [k] [t] (d: i64) (icf: [k][t]f64) (w_gamma: f64) (w_m: i64) : f64 =
  let per_component (row: [t]f64) =
    let diag = row[:d]
    let lower = row[d:]
    in 0.5 * w_gamma * w_gamma * (sum_sq (map f64.exp diag) + sum_sq lower)
       - f64.i64 w_m * f64.sum diag
  in f64.sum (map per_component icf)

-- | The Wishart prior's log normalising constant, C in the README's definition.
def wishart_constant (d: i64) (w_gamma: f64) (w_m: i64) : f64 =
  let n' = d + w_m + 1
  in f64.i64 (n' * d) * (f64.log w_gamma - 0.5 * f64.log 2)
     - log_gamma_d d (0.5 * f64.i64 n')

def gmm_objective [d] [k] [n] [t]
                  (alphas: [k]f64)
                  (means: [k][d]f64)
                  (icf: [k][t]f64)
                  (x: [n][d]f64)
                  (w_gamma: f64)
                  (w_m: i64) : f64 =
  let diag_sums = map (\row -> f64.sum row[:d]) icf
  let diag_exps = map (\row -> map f64.exp row[:d]) icf
  let point_term (xi: [d]f64) =
    logsumexp (map5 (\a s q mu row -> a + s - 0.5 * sum_sq (q_times q row (map2 (-) xi mu)))
                    alphas diag_sums diag_exps means icf)
  let constant = -(f64.i64 (n * d) * 0.5 * f64.log (2 * f64.pi))
  in constant
     + f64.sum (map point_term x)
     - f64.i64 n * logsumexp alphas
     + wishart_prior d icf w_gamma w_m
     - f64.i64 k * wishart_constant d w_gamma w_m

entry calculate_objective [d] [k] [n] [t]
                          (alphas: [k]f64)
                          (means: [k][d]f64)
                          (icf: [k][t]f64)
                          (x: [n][d]f64)
                          (w_gamma: f64)
                          (w_m: i64) : f64 =
  gmm_objective alphas means icf x w_gamma w_m

-- The gradient of the objective with respect to alphas, means and icf.
-- ==
-- entry: calculate_jacobian
-- input @ data/gmm_test.in output @ data/gmm_test.jacobian.out
-- input @ data/gmm_small.in output @ data/gmm_small.jacobian.out
-- input @ data/gmm_1k_d2_K10.in output @ data/gmm_1k_d2_K10.jacobian.out

entry calculate_jacobian [d] [k] [n] [t]
                         (alphas: [k]f64)
                         (means: [k][d]f64)
                         (icf: [k][t]f64)
                         (x: [n][d]f64)
                         (w_gamma: f64)
                         (w_m: i64) : ([k]f64, [k][d]f64, [k][t]f64) =
  vjp (\(a, mu, q) -> gmm_objective a mu q x w_gamma w_m) (alphas, means, icf) 1
