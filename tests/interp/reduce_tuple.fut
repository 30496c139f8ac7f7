-- reduce with a tuple operator: index of the maximum (first one on ties).
-- ==
-- input { [3, 9, 2, 9, 1] } output { 9 1i64 }
-- input { [5] } output { 5 0i64 }

def argmax [n] (xs: [n]i32) : (i32, i64) =
  let op (a: i32, i: i64) (b: i32, j: i64) =
    if a > b then (a, i) else if b > a then (b, j) else (a, i64.min i j)
  in reduce op (i32.lowest, -1) (zip xs (iota n))

def main (xs: []i32) : (i32, i64) = argmax xs
