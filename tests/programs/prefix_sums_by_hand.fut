-- Prefix sums written by hand: a sequential loop with in-place updates, and
-- the Hillis-Steele doubling algorithm; both compared with scan.
-- ==
-- input { [3, 1, 4, 1, 5, 9, 2, 6] }
-- output { [3, 4, 8, 9, 14, 23, 25, 31] [3, 4, 8, 9, 14, 23, 25, 31] [0, 3, 4, 8, 9, 14, 23, 25] true }
-- input { [7] }
-- output { [7] [7] [0] true }
-- input { empty([0]i32) }
-- output { empty([0]i32) empty([0]i32) empty([0]i32) true }

def sequential [n] (xs: [n]i32) : [n]i32 =
  let out = copy xs
  in loop out for i in 1..<(i64.max 1 n) do
       out with [i] = out[i - 1] + out[i]

def hillis_steele [n] (xs: [n]i32) : [n]i32 =
  let (res, _) =
    loop (ys, d) = (copy xs, 1) while d < n do
      let ys' = map (\i -> if i >= d then ys[i] + ys[i - d] else ys[i]) (iota n)
      in (ys', d * 2)
  in res

def exclusive [n] (xs: [n]i32) : [n]i32 =
  let inc = sequential xs
  in map (\i -> if i == 0 then 0 else inc[i - 1]) (iota n)

def main [n] (xs: [n]i32) : ([n]i32, [n]i32, [n]i32, bool) =
  let a = sequential xs
  let b = hillis_steele xs
  let c = exclusive xs
  in (a, b, c, and (map2 (==) a (scan (+) 0 xs)))
