-- Histogram equalisation of a grey-level image: `hist` builds the histogram,
-- `scan` the cumulative distribution, and each pixel is remapped through it
-- (integer arithmetic, rounding down).
-- ==
-- entry: equalise
-- input { 8i64 [[0i64, 1i64, 1i64, 2i64], [2i64, 2i64, 3i64, 7i64], [7i64, 7i64, 7i64, 1i64]] }
-- output { [[0i64, 1i64, 1i64, 3i64], [3i64, 3i64, 4i64, 7i64], [7i64, 7i64, 7i64, 1i64]] }
-- input { 4i64 [[3i64, 3i64], [3i64, 3i64]] }
-- output { [[0i64, 0i64], [0i64, 0i64]] }
-- input { 16i64 [[5i64, 6i64, 7i64], [5i64, 5i64, 12i64], [15i64, 6i64, 6i64], [7i64, 7i64, 8i64]] }
-- output { [[0i64, 5i64, 10i64], [0i64, 0i64, 13i64], [15i64, 5i64, 5i64], [10i64, 10i64, 11i64]] }
-- input { 256i64 [[52i64, 55i64, 61i64, 59i64, 79i64], [62i64, 59i64, 55i64, 104i64, 94i64], [63i64, 65i64, 66i64, 113i64, 144i64]] }
-- output { [[0i64, 36i64, 91i64, 72i64, 182i64], [109i64, 72i64, 36i64, 218i64, 200i64], [127i64, 145i64, 163i64, 236i64, 255i64]] }

-- ==
-- entry: histogram_
-- input { 8i64 [[0i64, 1i64, 1i64, 2i64], [2i64, 2i64, 3i64, 7i64], [7i64, 7i64, 7i64, 1i64]] }
-- output { [1i64, 3i64, 3i64, 1i64, 0i64, 0i64, 0i64, 4i64] }
-- input { 4i64 [[3i64, 3i64], [3i64, 3i64]] }
-- output { [0i64, 0i64, 0i64, 4i64] }
-- input { 16i64 [[5i64, 6i64, 7i64], [5i64, 5i64, 12i64], [15i64, 6i64, 6i64], [7i64, 7i64, 8i64]] }
-- output { [0i64, 0i64, 0i64, 0i64, 0i64, 3i64, 3i64, 3i64, 1i64, 0i64, 0i64, 0i64, 1i64, 0i64, 0i64, 1i64] }
-- input { 256i64 [[52i64, 55i64, 61i64, 59i64, 79i64], [62i64, 59i64, 55i64, 104i64, 94i64], [63i64, 65i64, 66i64, 113i64, 144i64]] }
-- output { [0i64, 0i64, 0i64, 0i64, 0i64, 0i64, 0i64, 0i64, 0i64, 0i64, 0i64, 0i64, 0i64, 0i64, 0i64, 0i64, 0i64, 0i64, 0i64, 0i64, 0i64, 0i64, 0i64, 0i64, 0i64, 0i64, 0i64, 0i64, 0i64, 0i64, 0i64, 0i64, 0i64, 0i64, 0i64, 0i64, 0i64, 0i64, 0i64, 0i64, 0i64, 0i64, 0i64, 0i64, 0i64, 0i64, 0i64, 0i64, 0i64, 0i64, 0i64, 0i64, 1i64, 0i64, 0i64, 2i64, 0i64, 0i64, 0i64, 2i64, 0i64, 1i64, 1i64, 1i64, 0i64, 1i64, 1i64, 0i64, 0i64, 0i64, 0i64, 0i64, 0i64, 0i64, 0i64, 0i64, 0i64, 0i64, 0i64, 1i64, 0i64, 0i64, 0i64, 0i64, 0i64, 0i64, 0i64, 0i64, 0i64, 0i64, 0i64, 0i64, 0i64, 0i64, 1i64, 0i64, 0i64, 0i64, 0i64, 0i64, 0i64, 0i64, 0i64, 0i64, 1i64, 0i64, 0i64, 0i64, 0i64, 0i64, 0i64, 0i64, 0i64, 1i64, 0i64, 0i64, 0i64, 0i64, 0i64, 0i64, 0i64, 0i64, 0i64, 0i64, 0i64, 0i64, 0i64, 0i64, 0i64, 0i64, 0i64, 0i64, 0i64, 0i64, 0i64, 0i64, 0i64, 0i64, 0i64, 0i64, 0i64, 0i64, 0i64, 0i64, 1i64, 0i64, 0i64, 0i64, 0i64, 0i64, 0i64, 0i64, 0i64, 0i64, 0i64, 0i64, 0i64, 0i64, 0i64, 0i64, 0i64, 0i64, 0i64, 0i64, 0i64, 0i64, 0i64, 0i64, 0i64, 0i64, 0i64, 0i64, 0i64, 0i64, 0i64, 0i64, 0i64, 0i64, 0i64, 0i64, 0i64, 0i64, 0i64, 0i64, 0i64, 0i64, 0i64, 0i64, 0i64, 0i64, 0i64, 0i64, 0i64, 0i64, 0i64, 0i64, 0i64, 0i64, 0i64, 0i64, 0i64, 0i64, 0i64, 0i64, 0i64, 0i64, 0i64, 0i64, 0i64, 0i64, 0i64, 0i64, 0i64, 0i64, 0i64, 0i64, 0i64, 0i64, 0i64, 0i64, 0i64, 0i64, 0i64, 0i64, 0i64, 0i64, 0i64, 0i64, 0i64, 0i64, 0i64, 0i64, 0i64, 0i64, 0i64, 0i64, 0i64, 0i64, 0i64, 0i64, 0i64, 0i64, 0i64, 0i64, 0i64, 0i64, 0i64, 0i64, 0i64, 0i64, 0i64, 0i64, 0i64, 0i64, 0i64, 0i64] }

-- ==
-- entry: cdf_percentile
-- input { 8i64 [[0i64, 1i64, 1i64, 2i64], [2i64, 2i64, 3i64, 7i64], [7i64, 7i64, 7i64, 1i64]] }
-- output { 2i64 }
-- input { 4i64 [[3i64, 3i64], [3i64, 3i64]] }
-- output { 3i64 }
-- input { 16i64 [[5i64, 6i64, 7i64], [5i64, 5i64, 12i64], [15i64, 6i64, 6i64], [7i64, 7i64, 8i64]] }
-- output { 6i64 }
-- input { 256i64 [[52i64, 55i64, 61i64, 59i64, 79i64], [62i64, 59i64, 55i64, 104i64, 94i64], [63i64, 65i64, 66i64, 113i64, 144i64]] }
-- output { 63i64 }

def histogram [h] [w] (levels: i64) (img: [h][w]i64) : [levels]i64 =
  let flat = flatten img
  in hist (+) 0 levels flat (map (const 1) flat)

def cdf [levels] (hs: [levels]i64) : [levels]i64 = scan (+) 0 hs

def equalise_image [h] [w] (levels: i64) (img: [h][w]i64) : [h][w]i64 =
  let c = cdf (histogram levels img)
  let total = h * w
  -- The smallest non-zero entry of the cdf; the cdf is non-decreasing.
  let cmin = reduce i64.min total (map (\x -> if x > 0 then x else total) c)
  let remap = map (\x -> if total == cmin then 0 else (x - cmin) * (levels - 1) / (total - cmin)) c
  let out = map (\v -> remap[v]) (flatten img)
  in unflatten out

entry equalise [h] [w] (levels: i64) (img: [h][w]i64) : [h][w]i64 = equalise_image levels img

entry histogram_ [h] [w] (levels: i64) (img: [h][w]i64) : [levels]i64 = histogram levels img

-- The median grey level: the first level whose cumulative count reaches half.
entry cdf_percentile [h] [w] (levels: i64) (img: [h][w]i64) : i64 =
  let c = cdf (histogram levels img)
  let hits = map2 (\i x -> if 2 * x >= h * w then i else levels) (iota levels) c
  in reduce i64.min levels hits
