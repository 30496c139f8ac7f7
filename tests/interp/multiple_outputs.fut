-- An entry point returning a tuple of arrays and scalars has several outputs.
-- ==
-- input { [1, 2, 3, 4] } output { [1, 3] [2, 4] 10 2.5 }

def main (xs: []i32) : ([]i32, []i32, i32, f64) =
  let (evens, odds) = partition (\x -> x % 2 == 0) xs
  let s = i32.sum xs
  in (odds, evens, s, f64.i32 s / f64.i64 (length xs))
