-- A size parameter named only as `2 ** k` takes its value from the extent:
-- a tournament of rounds, each keeping the larger of two neighbours.
-- ==
-- input { [3, 9, 4, 1] } output { 9 }
-- input { [5, 2, 8, 7, 1, 1, 6, 0] } output { 8 }
-- input { [4] } output { 4 }

def round [k] (xs: [2 ** k]i32) : [2 ** (k - 1)]i32 =
  tabulate (2 ** (k - 1)) (\i -> i32.max xs[2 * i] xs[2 * i + 1])

def winner [k] (xs: [2 ** k]i32) : i32 =
  let last = loop ys = xs for j in reverse (iota k) do round (ys :> [2 ** (j + 1)]i32)
  in last[0]

def main (xs: []i32) : i32 =
  let k = i64.i32 (63 - i64.clz (length xs))
  in winner (xs :> [2 ** k]i32)
