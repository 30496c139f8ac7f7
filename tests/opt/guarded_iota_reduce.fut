-- Reductions over `iota n` whose mapped function is `if c < x then e else
-- neutral` (and `<=`, `>`, the neutral branch first): the optimiser runs
-- them over the first `min n (max x 0)` elements only (x + 1 for `<=`), or
-- over the rest for `c >= x` (`rest`), with no `if` left in their maps (the
-- two left are `f64.min`'s, the operator of `f64.minimum`). The bound below
-- zero, at zero, inside, at and above `n`, and an empty `xs`.
-- ==
-- structure { If 2 Cmp 2 }
-- input { [5.0, 3.0, 4.0, 1.0, 2.0] -2i64 }
-- output { 0.0 0.0 1.0 f64.inf 0i64 15.0 }
-- input { [5.0, 3.0, 4.0, 1.0, 2.0] 0i64 }
-- output { 0.0 10.0 1.0 f64.inf 0i64 15.0 }
-- input { [5.0, 3.0, 4.0, 1.0, 2.0] 3i64 }
-- output { 12.0 26.0 60.0 3.0 5i64 3.0 }
-- input { [5.0, 3.0, 4.0, 1.0, 2.0] 5i64 }
-- output { 15.0 30.0 120.0 1.0 30i64 0.0 }
-- input { [5.0, 3.0, 4.0, 1.0, 2.0] 9i64 }
-- output { 15.0 30.0 120.0 1.0 30i64 0.0 }
-- input { empty([0]f64) 3i64 }
-- output { 0.0 0.0 1.0 f64.inf 0i64 0.0 }

def main [n] (xs: [n]f64) (x: i64) : (f64, f64, f64, f64, i64, f64) =
  let below = f64.sum (map (\c -> if c < x then xs[c] else 0) (iota n))
  let upto = f64.sum (map (\c -> if c <= x then xs[c] * 2 else 0) (iota n))
  let prod = f64.product (map (\c -> if x > c then xs[c] else 1) (iota n))
  let least = f64.minimum (map (\c -> if c >= x then f64.inf else xs[c]) (iota n))
  let squares = i64.sum (map (\c -> if x > c then c * c else 0) (iota n))
  let rest = f64.sum (map (\c -> if c >= x then xs[c] else 0) (iota n))
  in (below, upto, prod, least, squares, rest)
