-- A two-layer tanh network whose parameters are a size-parameterised record of
-- weight matrices and biases; `vjp` over the record gives the backward pass,
-- checked against hand-written backpropagation.
-- ==
-- entry: loss_
-- input { [[0.1, -0.2], [0.4, 0.3], [-0.5, 0.2]] [0.0, 0.1, -0.1] [[0.3, -0.1, 0.2]] [0.05] [[1.0, 0.0], [0.0, 1.0], [1.0, 1.0], [0.5, -0.5]] [[1.0], [1.0], [0.0], [0.5]] }
-- output { 1.2388743517458192 }
-- input { [[0.2, 0.1, -0.3]] [0.0] [[1.0], [-1.0]] [0.5, 0.25] [[1.0, 2.0, 3.0], [0.0, -1.0, 0.5]] [[1.0, 0.0], [0.0, 1.0]] }
-- output { 0.8764769581680656 }

-- ==
-- entry: gradients
-- input { [[0.1, -0.2], [0.4, 0.3], [-0.5, 0.2]] [0.0, 0.1, -0.1] [[0.3, -0.1, 0.2]] [0.05] [[1.0, 0.0], [0.0, 1.0], [1.0, 1.0], [0.5, -0.5]] [[1.0], [1.0], [0.0], [0.5]] }
-- output { [[-0.429252878046675, -0.25848741258179786], [0.115950334091386, 0.07006357115559428], [-0.21521351725914536, -0.18286331425949487]] [-0.7994417963934782, 0.22851874223585525, -0.4601057796452475] [[0.03280385237380265, -1.0428320816158727, 0.733612038319785]] [-2.7278917862967784] }
-- input { [[0.2, 0.1, -0.3]] [0.0] [[1.0], [-1.0]] [0.5, 0.25] [[1.0, 2.0, 3.0], [0.0, -1.0, 0.5]] [[1.0, 0.0], [0.0, 1.0]] }
-- output { [[-1.316697781108033, -3.347959764405472, -3.5928112422293954]] [-0.6021335789186265] [[0.3821366656558449], [-0.20537771073991526]] [-0.707035819663719, 0.20703581966371898] }

-- ==
-- entry: train
-- input { [[0.1, -0.2], [0.4, 0.3], [-0.5, 0.2]] [0.0, 0.1, -0.1] [[0.3, -0.1, 0.2]] [0.05] [[1.0, 0.0], [0.0, 1.0], [1.0, 1.0], [0.5, -0.5]] [[1.0], [1.0], [0.0], [0.5]] }
-- output { 9.890996584697094e+26 }
-- input { [[0.2, 0.1, -0.3]] [0.0] [[1.0], [-1.0]] [0.5, 0.25] [[1.0, 2.0, 3.0], [0.0, -1.0, 0.5]] [[1.0, 0.0], [0.0, 1.0]] }
-- output { 5.970302092617162e-26 }

type net [i] [h] [o] = {w1: [h][i]f64, b1: [h]f64, w2: [o][h]f64, b2: [o]f64}

local def matvec [r] [c] (m: [r][c]f64) (v: [c]f64) : [r]f64 =
  map (\row -> f64.sum (map2 (*) row v)) m

def forward [i] [h] [o] (p: net [i] [h] [o]) (x: [i]f64) : [o]f64 =
  let hidden = map2 (\z b -> f64.tanh (z + b)) (matvec p.w1 x) p.b1
  in map2 (+) (matvec p.w2 hidden) p.b2

def loss [n] [i] [h] [o] (xs: [n][i]f64) (ys: [n][o]f64) (p: net [i] [h] [o]) : f64 =
  f64.sum (map2 (\x y -> 0.5 * f64.sum (map2 (\a b -> (a - b) * (a - b)) (forward p x) y)) xs ys)

def grad [n] [i] [h] [o] (xs: [n][i]f64) (ys: [n][o]f64) (p: net [i] [h] [o]) : net [i] [h] [o] =
  vjp (loss xs ys) p 1

def sgd [i] [h] [o] (rate: f64) (p: net [i] [h] [o]) (g: net [i] [h] [o]) : net [i] [h] [o] =
  let upd1 [m] (a: [m]f64) (b: [m]f64) : [m]f64 = map2 (\x d -> x - rate * d) a b
  let upd2 [r] [c] (a: [r][c]f64) (b: [r][c]f64) : [r][c]f64 = map2 upd1 a b
  in {w1 = upd2 p.w1 g.w1, b1 = upd1 p.b1 g.b1, w2 = upd2 p.w2 g.w2, b2 = upd1 p.b2 g.b2}

entry loss_ [n] [i] [h] [o] (w1: [h][i]f64) (b1: [h]f64) (w2: [o][h]f64) (b2: [o]f64)
                            (xs: [n][i]f64) (ys: [n][o]f64) : f64 =
  loss xs ys {w1, b1, w2, b2}

entry gradients [n] [i] [h] [o] (w1: [h][i]f64) (b1: [h]f64) (w2: [o][h]f64) (b2: [o]f64)
                                (xs: [n][i]f64) (ys: [n][o]f64) : ([h][i]f64, [h]f64, [o][h]f64, [o]f64) =
  let g = grad xs ys {w1, b1, w2, b2}
  in (g.w1, g.b1, g.w2, g.b2)

entry train [n] [i] [h] [o] (w1: [h][i]f64) (b1: [h]f64) (w2: [o][h]f64) (b2: [o]f64)
                            (xs: [n][i]f64) (ys: [n][o]f64) : f64 =
  let p = loop p = {w1, b1, w2, b2} for _k < 20 do sgd 0.5 p (grad xs ys p)
  in loss xs ys p
