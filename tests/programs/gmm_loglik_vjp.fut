-- Log-likelihood of a one-dimensional Gaussian mixture and its gradient with
-- respect to a tuple of parameter arrays, computed by `vjp`; expected
-- gradients come from the closed form with responsibilities.
-- ==
-- entry: loglik
-- input { [0.0, 0.0] [-1.0, 1.0] [0.0, 0.0] [-1.5, -0.5, 0.3, 1.2, 2.0] }
-- output { -8.17110549917348 }
-- input { [0.5, -0.2, 0.1] [0.0, 3.0, -2.0] [0.1, -0.3, 0.2] [0.1, 2.9, -2.5, 3.3, 0.4, -1.0] }
-- output { -11.59307991308792 }
-- input { [1.0] [0.5] [0.5] [0.0, 1.0, 2.0] }
-- output { -4.762649831224751 }

-- ==
-- entry: grad
-- input { [0.0, 0.0] [-1.0, 1.0] [0.0, 0.0] [-1.5, -0.5, 0.3, 1.2, 2.0] }
-- output { [-0.3608646943173437, 0.3608646943173436] [0.5868275899831555, 0.1914430213821574] [-0.554954546151733, -0.6242763166462708] }
-- input { [0.5, -0.2, 0.1] [0.0, 3.0, -2.0] [0.1, -0.3, 0.2] [0.1, 2.9, -2.5, 3.3, 0.4, -1.0] }
-- output { [-0.1932644333515886, 0.5680813655087957, -0.374816932157207] [-0.22974159010569045, 0.3540524918467438, 0.2812195655223077] [-0.89387044792834, -1.7408693475929515, -0.37230749976395927] }
-- input { [1.0] [0.5] [0.5] [0.0, 1.0, 2.0] }
-- output { [0.0] [0.5518191617571635] [-1.9883315367785337] }

-- ==
-- entry: ascent
-- input { [0.0, 0.0] [-1.0, 1.0] [0.0, 0.0] [-1.5, -0.5, 0.3, 1.2, 2.0] }
-- output { -7.816117731282707 [-0.8352456672932643, 1.1160404019497532] }
-- input { [0.5, -0.2, 0.1] [0.0, 3.0, -2.0] [0.1, -0.3, 0.2] [0.1, 2.9, -2.5, 3.3, 0.4, -1.0] }
-- output { -9.478391876410075 [-0.05733625701067298, 3.0998775874757154, -1.9290557546380445] }
-- input { [1.0] [0.5] [0.5] [0.0, 1.0, 2.0] }
-- output { -3.7136456354139935 [0.8556749946628078] }

type params [k] = ([k]f64, [k]f64, [k]f64)

def logsumexp [n] (xs: [n]f64) : f64 =
  let m = f64.maximum xs
  in m + f64.log (f64.sum (map (\x -> f64.exp (x - m)) xs))

-- Log-likelihood of the data under a 1-D mixture with mixing logits,
-- means and log standard deviations.
def log_likelihood [k] [n] (xs: [n]f64) ((logits, mus, logsig): params [k]) : f64 =
  let lse = logsumexp logits
  let log_pi = map (\l -> l - lse) logits
  let half_log_2pi = 0.5 * f64.log (2 * f64.pi)
  let point x =
    logsumexp (map3 (\lp mu ls ->
                       let z = (x - mu) / f64.exp ls
                       in lp - half_log_2pi - ls - 0.5 * z * z) log_pi mus logsig)
  in f64.sum (map point xs)

def gradient [k] [n] (xs: [n]f64) (p: params [k]) : params [k] =
  vjp (log_likelihood xs) p 1

entry loglik [k] [n] (logits: [k]f64) (mus: [k]f64) (logsig: [k]f64) (xs: [n]f64) : f64 =
  log_likelihood xs (logits, mus, logsig)

entry grad [k] [n] (logits: [k]f64) (mus: [k]f64) (logsig: [k]f64) (xs: [n]f64) : ([k]f64, [k]f64, [k]f64) =
  gradient xs (logits, mus, logsig)

-- Ten steps of gradient ascent; returns the final log-likelihood and means.
entry ascent [k] [n] (logits: [k]f64) (mus: [k]f64) (logsig: [k]f64) (xs: [n]f64) : (f64, [k]f64) =
  let step (l, m, s) =
    let (gl, gm, gs) = gradient xs (l, m, s)
    let upd a g = map2 (\x d -> x + 0.05 * d) a g
    in (upd l gl, upd m gm, upd s gs)
  let p = loop p = (logits, mus, logsig) for _i < 10 do step p
  in (log_likelihood xs p, p.1)
