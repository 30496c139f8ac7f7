-- Futhark computes a Jacobian with `jmp` on a function of a pair and splits
-- each row of the transposed result back into the pair's parts, the sizes
-- of `split` coming from the entry point's size parameters. Upstream
-- tests/ad/hist_add.fut (histograms under forward and reverse mode) failed
-- to internalise with "unknown name n".
-- ==
-- entry: fwd rev
-- input { [0i64, 1i64, 0i64] [1f32, 2f32, 3f32] [10f32, 20f32] }
-- output { [[10f32, 0f32, 10f32], [0f32, 20f32, 0f32]] [[4f32, 0f32], [0f32, 2f32]] }

def scaled_hist [n] [m] (is: [n]i64) (vs: [n]f32, c: [m]f32) =
  map2 (*) (hist (+) 0 m is vs) c

entry fwd [n] [m] (is: [n]i64) (vs: [n]f32) (c: [m]f32) =
  let unit i = (tabulate n (\j -> f32.bool (i == j)), tabulate m (\j -> f32.bool (i - n == j)))
  in jmp (scaled_hist is) (vs, c) (tabulate (n + m) unit)
     |> transpose
     |> map split
     |> unzip

entry rev [n] [m] (is: [n]i64) (vs: [n]f32) (c: [m]f32) =
  tabulate m (\i -> vjp (scaled_hist is) (vs, c) (tabulate m (\j -> f32.bool (i == j))))
  |> unzip
