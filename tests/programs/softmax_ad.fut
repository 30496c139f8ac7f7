-- Numerically stable softmax and cross-entropy; the gradient of the
-- cross-entropy with respect to the logits is softmax - onehot.
-- ==
-- input { [1.0, 2.0, 3.0] 2i64 }
-- output { [0.09003057317038046, 0.24472847105479764, 0.6652409557748218] 0.40760596444438046 [0.09003057317038046, 0.24472847105479764, -0.3347590442251782] }
-- input { [0.0, 0.0] 0i64 }
-- output { [0.5, 0.5] 0.6931471805599453 [-0.5, 0.5] }

def softmax [n] (xs: [n]f64) : [n]f64 =
  let m = f64.maximum xs
  let es = map (\x -> f64.exp (x - m)) xs
  let s = f64.sum es
  in map (/ s) es

def cross_entropy [n] (label: i64) (logits: [n]f64) : f64 =
  -(f64.log (softmax logits)[label])

def main [n] (logits: [n]f64) (label: i64) : ([n]f64, f64, [n]f64) =
  (softmax logits, cross_entropy label logits, vjp (cross_entropy label) logits 1)
