-- A polynomial module parameterised over a `real` field: evaluation by
-- Horner's rule, derivative, multiplication, and a Newton root finder,
-- instantiated for f64 and f32.
-- ==
-- entry: eval64
-- input { [1.0, -3.0, 2.0] 2.0 } output { 3.0 5.0 }
-- input { [0.0, 0.0, 0.0, 1.0] 3.0 } output { 27.0 27.0 }

-- ==
-- entry: mul32
-- input { [1.0f32, 1.0f32] [1.0f32, -1.0f32] } output { [1.0f32, 0.0f32, -1.0f32] }
-- input { [2.0f32] [1.0f32, 2.0f32, 3.0f32] } output { [2.0f32, 4.0f32, 6.0f32] }

-- ==
-- entry: root64
-- input { [-2.0, 0.0, 1.0] 1.0 } output { 1.4142135623730951 }
-- input { [-6.0, 11.0, -6.0, 1.0] 3.6 } output { 3.0 }

module poly (R: real) = {
  type t = R.t

  -- | Coefficients in increasing order of degree.
  def eval [n] (cs: [n]t) (x: t) : t =
    foldr (\c acc -> c R.+ (x R.* acc)) (R.i32 0) cs

  def deriv [n] (cs: [n]t) : []t =
    if n <= 1 then [] else map (\i -> R.i64 i R.* cs[i]) (1..<n)

  def mul [n][m] (a: [n]t) (b: [m]t) : []t =
    let k = n + m - 1
    in tabulate k (\d ->
         R.sum (map (\i -> if d - i >= 0 && d - i < m then a[i] R.* b[d - i] else R.i32 0)
                    (iota n)))

  def root [n] (cs: [n]t) (x0: t) : t =
    let ds = deriv cs
    in loop x = x0 for _i < 60 do
         let d = eval ds x
         in if d R.== R.i32 0 then x else x R.- (eval cs x R./ d)
}

module p64 = poly f64
module p32 = poly f32

entry eval64 (cs: []f64) (x: f64) : (f64, f64) = (p64.eval cs x, p64.eval (p64.deriv cs) x + 0)
entry mul32 (a: []f32) (b: []f32) : []f32 = p32.mul a b
entry root64 (cs: []f64) (x0: f64) : f64 = p64.root cs x0
