-- Ridge regression trained by gradient descent, where the model is a
-- size-parameterised record `{w: [d]f64, b: f64}` and `vjp2` returns the loss
-- together with a gradient record.
-- ==
-- entry: loss_and_grad
-- input { [[1.0, 2.0], [2.0, 0.5], [3.0, 1.0], [0.0, 1.0]] [5.0, 3.5, 7.0, 2.0] [0.5, -0.5] 0.25 0.1 }
-- output { 18.034375 [-13.65, -9.975] -7.875 }
-- input { [[1.0], [2.0], [3.0]] [2.0, 4.0, 6.0] [0.0] 0.0 0.0 }
-- output { 18.666666666666668 [-18.666666666666664] -8.0 }
-- input { [[0.5, 1.0, -1.0], [1.0, 0.0, 2.0], [-1.0, 1.5, 0.5], [2.0, 2.0, 2.0], [0.0, -1.0, 1.0]] [1.0, 2.0, -0.5, 3.0, 0.0] [0.1, 0.2, 0.3] -0.1 0.05 }
-- output { 1.498 [-2.6, -1.51, -1.9999999999999998] -1.48 }

-- ==
-- entry: train
-- input { [[1.0, 2.0], [2.0, 0.5], [3.0, 1.0], [0.0, 1.0]] [5.0, 3.5, 7.0, 2.0] [0.5, -0.5] 0.25 0.1 }
-- output { [1.4034907702516182, 1.063589042483866] 1.0935574706699964 0.6688639614201662 }
-- input { [[1.0], [2.0], [3.0]] [2.0, 4.0, 6.0] [0.0] 0.0 0.0 }
-- output { [1.760325643132965] 0.5448361410346103 0.04258446802752824 }
-- input { [[0.5, 1.0, -1.0], [1.0, 0.0, 2.0], [-1.0, 1.5, 0.5], [2.0, 2.0, 2.0], [0.0, -1.0, 1.0]] [1.0, 2.0, -0.5, 3.0, 0.0] [0.1, 0.2, 0.3] -0.1 0.05 }
-- output { [0.8957723624047678, 0.2806986029712154, 0.300456645279187] 0.1485674853799589 0.13834931421619281 }

type model [d] = {w: [d]f64, b: f64}

def predict [d] (m: model [d]) (x: [d]f64) : f64 = f64.sum (map2 (*) m.w x) + m.b

def objective [n] [d] (lambda: f64) (xs: [n][d]f64) (ys: [n]f64) (m: model [d]) : f64 =
  let residuals = map2 (\x y -> predict m x - y) xs ys
  let mse = f64.sum (map (\r -> r * r) residuals) / f64.i64 n
  in mse + lambda * f64.sum (map (\w -> w * w) m.w)

-- Loss and gradient in one reverse pass.
def loss_grad [n] [d] (lambda: f64) (xs: [n][d]f64) (ys: [n]f64) (m: model [d]) : (f64, model [d]) =
  vjp2 (objective lambda xs ys) m 1

def descend [n] [d] (lambda: f64) (rate: f64) (xs: [n][d]f64) (ys: [n]f64) (m: model [d]) : model [d] =
  let (_, g) = loss_grad lambda xs ys m
  in {w = map2 (\w dw -> w - rate * dw) m.w g.w, b = m.b - rate * g.b}

entry loss_and_grad [n] [d] (xs: [n][d]f64) (ys: [n]f64) (w: [d]f64) (b: f64) (lambda: f64) : (f64, [d]f64, f64) =
  let (l, g) = loss_grad lambda xs ys {w, b}
  in (l, g.w, g.b)

entry train [n] [d] (xs: [n][d]f64) (ys: [n]f64) (w: [d]f64) (b: f64) (lambda: f64) : ([d]f64, f64, f64) =
  let m = loop m = {w, b} for _i < 25 do descend lambda 0.05 xs ys m
  in (m.w, m.b, objective lambda xs ys m)
