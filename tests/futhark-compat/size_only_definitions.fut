-- Definitions with size parameters and no value parameters are evaluated at
-- each use, with the sizes the type checker infers there: the same
-- definition gives arrays of different sizes at different uses, also from
-- inside a module.
-- ==
-- input { 3i64 }
-- output { [0i64, 1i64, 2i64, 3i64, 4i64, 5i64] [7, 7, 7, 7, 7, 7] [0i64, 1i64, 2i64] 9i64 }
-- input { 0i64 }
-- output { empty([0]i64) empty([0]i32) empty([0]i64) 0i64 }

def counting [n] : [n]i64 = iota n

module grid = {
  def squares [n] : [n]i64 = map (\i -> i * i) (iota n)
}

def main (k: i64) =
  let (a, b) = unzip (zip counting (replicate (2 * k) 7i32))
  let c : [k]i64 = counting
  let s = i64.sum (zip grid.squares (replicate k true) |> map (.0))
  in (a, b, c, s - (k * (k - 1) * (2 * k - 1)) / 6 + k * k)
