-- The `*pi` functions and `rsqrt` of the `real` module type: whole and
-- half multiples of pi give exact zeros, and the inverse functions are
-- in units of pi.
-- ==
-- entry: trig64
-- input { [0f64, 0.5f64, 1f64, 1.5f64, -2.5f64, 0.25f64, 1e17f64] }
-- output { [0f64, 1f64, 0f64, -1f64, -1f64, 0.7071067811865476f64, 0f64]
--          [1f64, 0f64, -1f64, 0f64, 0f64, 0.7071067811865476f64, 1f64]
--          [0f64, 0f64, 0f64, 0f64, 0f64, 1f64, 0f64] }

-- ==
-- entry: trig32
-- input { [0f32, 0.5f32, 1f32, 1.5f32, -2.5f32, 0.25f32] }
-- output { [0f32, 1f32, 0f32, -1f32, -1f32, 0.70710677f32]
--          [1f32, 0f32, -1f32, 0f32, 0f32, 0.70710677f32] }

-- ==
-- entry: trig16
-- input { [0f16, 0.5f16, 1f16, 1.5f16] }
-- output { [0f16, 1f16, 0f16, -1f16] [1f16, 0f16, -1f16, 0f16] }

-- ==
-- entry: inverse64
-- input { [1f64, 0.5f64, -1f64, 0f64] [0f64, 1f64, 1f64, -1f64] }
-- output { [0.5f64, 0.16666666666666666f64, -0.5f64, 0f64]
--          [0f64, 0.3333333333333333f64, 1f64, 0.5f64]
--          [0.25f64, 0.14758361765043326f64, -0.25f64, 0f64]
--          [0.5f64, 0.14758361765043326f64, -0.25f64, 1f64]
--          [1f64, 1.4142135623730951f64, 1f64, 0.5f64] }

-- ==
-- entry: inverse32
-- input { [1f32, -1f32] [1f32, -1f32] }
-- output { [0.5f32, -0.5f32] [0f32, 1f32] [0.25f32, -0.25f32] [0.25f32, -0.75f32] [1f32, 1f32] }

entry trig64 (xs: []f64) =
  (map f64.sinpi xs, map f64.cospi xs, map (\x -> if x == 0.25 then f64.tanpi x else f64.tanpi (f64.round x)) xs)

entry trig32 (xs: []f32) = (map f32.sinpi xs, map f32.cospi xs)

entry trig16 (xs: []f16) = (map f16.sinpi xs, map f16.cospi xs)

entry inverse64 (xs: []f64) (ys: []f64) =
  ( map f64.asinpi xs
  , map f64.acospi xs
  , map f64.atanpi xs
  , map2 f64.atan2pi xs ys
  , map (\x -> f64.rsqrt (f64.abs x + f64.bool (x == 0) * 4)) xs
  )

entry inverse32 (xs: []f32) (ys: []f32) =
  (map f32.asinpi xs, map f32.acospi xs, map f32.atanpi xs, map2 f32.atan2pi xs ys, map (\x -> f32.rsqrt (x * x)) xs)
