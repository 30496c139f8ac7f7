-- Run-length encoding with a flag array, scan and scatter, and decoding
-- back with a sequential loop.
-- ==
-- input { [1, 1, 2, 2, 2, 3, 1, 1] }
-- output { [1, 2, 3, 1] [2, 3, 1, 2] [1, 1, 2, 2, 2, 3, 1, 1] }
-- input { [7] }
-- output { [7] [1] [7] }
-- input { [4, 5, 6] }
-- output { [4, 5, 6] [1, 1, 1] [4, 5, 6] }

def encode [n] (xs: [n]i32) : ?[k].([k]i32, [k]i32) =
  let starts = map (\i -> i == 0 || xs[i] != xs[i - 1]) (iota n)
  let seg = map (\b -> i64.bool b) starts |> scan (+) 0 |> map (\s -> s - 1)
  let k = if n == 0 then 0 else seg[n - 1] + 1
  let vals = scatter (replicate k 0) (map2 (\s b -> if b then s else -1) seg starts) xs
  let lens = hist (+) 0 k seg (replicate n 1)
  in (vals, lens)

def decode [k] (vals: [k]i32) (lens: [k]i32) : []i32 =
  let total = i64.i32 (i32.sum lens)
  let out = replicate total 0
  let (out, _) =
    loop (out, pos) = (out, 0) for i < k do
      let out = loop out for j < i64.i32 lens[i] do out with [pos + j] = vals[i]
      in (out, pos + i64.i32 lens[i])
  in out

def main [n] (xs: [n]i32) : ([]i32, []i32, []i32) =
  let (vals, lens) = encode xs
  in (vals, lens, decode vals lens)
