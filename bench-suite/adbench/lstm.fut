-- ADBench's LSTM: the prediction loss of an l-layer "diagonal" LSTM (every product
-- element-wise) over a sequence of c characters of b bits, and its gradient with
-- respect to the parameters (reverse mode, `vjp`).
--
-- `main_params` has two rows per layer, its weights then its biases, each four blocks
-- of b values (forget gate, input gate, output gate, cell change). `extra_params` are
-- the input weights, the output weights and the output biases. `state` has two rows
-- per layer, its hidden state then its cell state. The definitions are in the ADBench
-- data folder's README.md; `tools/adbench/lstm.py` computes the same values with
-- NumPy.
--
-- The `data/` files come from `python3 tools/adbench/adbench.py prepare`.
-- ==
-- entry: calculate_objective
-- input @ data/lstm_small.in output @ data/lstm_small.objective.out
-- input @ data/lstm_l2_c1024.in output @ data/lstm_l2_c1024.objective.out

def sigmoid (x: f64) : f64 = 1 / (1 + f64.exp (-x))

-- | One layer's step: with weights `w` and biases `u` (rows: forget, input, output,
-- change), the input `x` and the layer's hidden and cell state, the new hidden and
-- cell state. The hidden state is also the next layer's input.
def lstm_cell [b] (w: [4][b]f64) (u: [4][b]f64) (x: [b]f64) (h: [b]f64) (c: [b]f64)
    : (*[b]f64, *[b]f64) =
  unzip (map5 (\wj uj xj hj cj ->
                 let forget = sigmoid (xj * wj[0] + uj[0])
                 let ingate = sigmoid (hj * wj[1] + uj[1])
                 let outgate = sigmoid (xj * wj[2] + uj[2])
                 let change = f64.tanh (hj * wj[3] + uj[3])
                 let c' = cj * forget + ingate * change
                 in (outgate * f64.tanh c', c'))
              (transpose w) (transpose u) x h c)

-- | One prediction: `x` scaled by the input weights goes through the layers in turn,
-- each updating its state; the last layer's output is scaled and shifted by the
-- output weights and biases. Returns the prediction and the new states.
def predict [l] [b]
            (ws: [l][4][b]f64)
            (us: [l][4][b]f64)
            (extra: [3][b]f64)
            (hs: *[l][b]f64)
            (cs: *[l][b]f64)
            (x: [b]f64) : ([b]f64, *[l][b]f64, *[l][b]f64) =
  let (out, hs, cs) =
    loop (input, hs, cs) = (map2 (*) x extra[0], hs, cs) for i < l do
      let (h, c) = lstm_cell ws[i] us[i] input hs[i] cs[i]
      in (h, hs with [i] = h, cs with [i] = c)
  in (map3 (\o w b -> o * w + b) out extra[1] extra[2], hs, cs)

-- | The loss: minus the mean over the predictions of each step of the log-probability
-- given to the next character's bits.
def lstm_objective [h] [b4] [b] [c]
                   (main_params: [h][b4]f64)
                   (extra_params: [3][b]f64)
                   (state: [h][b]f64)
                   (sequence: [c][b]f64) : f64 =
  let l = h / 2
  let layer_rows (k: i64) = map (\i -> unflatten (main_params[2 * i + k] :> [4 * b]f64)) (iota l)
  let ws = layer_rows 0
  let us = layer_rows 1
  let hs = map (\i -> state[2 * i]) (iota l)
  let cs = map (\i -> state[2 * i + 1]) (iota l)
  let (total, _, _) =
    loop (total, hs, cs) = (0, hs, cs) for t < c - 1 do
      let (y, hs, cs) = predict ws us extra_params hs cs sequence[t]
      let norm = f64.log (2 + f64.sum (map f64.exp y))
      in (total + f64.sum (map2 (\target yj -> target * (yj - norm)) sequence[t + 1] y), hs, cs)
  in -(total / f64.i64 ((c - 1) * b))

entry calculate_objective [h] [b4] [b] [c]
                          (main_params: [h][b4]f64)
                          (extra_params: [3][b]f64)
                          (state: [h][b]f64)
                          (sequence: [c][b]f64) : f64 =
  lstm_objective main_params extra_params state sequence

-- The gradient: the derivatives with respect to the main parameters, row by row, then
-- those with respect to the extra parameters.
-- ==
-- entry: calculate_jacobian
-- input @ data/lstm_small.in output @ data/lstm_small.jacobian.out
-- input @ data/lstm_l2_c1024.in output @ data/lstm_l2_c1024.jacobian.out

entry calculate_jacobian [h] [b4] [b] [c]
                         (main_params: [h][b4]f64)
                         (extra_params: [3][b]f64)
                         (state: [h][b]f64)
                         (sequence: [c][b]f64) : []f64 =
  let (d_main, d_extra) =
    vjp (\(m, e) -> lstm_objective m e state sequence) (main_params, extra_params) 1
  in flatten d_main ++ flatten d_extra
