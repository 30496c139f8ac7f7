-- Arrays of records through map and reduce.
-- ==
-- input { [1.0, 2.0, 3.0] } output { 6.0 14.0 }

def main (xs: []f64) : (f64, f64) =
  let rs = map (\x -> {v = x, sq = x * x}) xs
  let r = reduce (\a b -> {v = a.v + b.v, sq = a.sq + b.sq}) {v = 0, sq = 0} rs
  in (r.v, r.sq)
