-- An entry point may be defined point-free: its parameters are those of
-- the function type of its body (here a partially applied function and
-- a function bound by a module).
-- ==
-- entry: scale_all
-- input { [1i32, 2i32, 3i32] }
-- output { [3i32, 6i32, 9i32] }

-- ==
-- entry: pairs
-- input { [1i32, 2i32] [5i32, 6i32] }
-- output { [[5i32, 6i32], [10i32, 12i32]] }

def scale (k: i32) (xs: []i32) = map (* k) xs
module m = { def outer [n][k] (xs: [n]i32) (ys: [k]i32) : [n][k]i32 = map (\x -> map (* x) ys) xs }

entry scale_all = scale 3
entry pairs = m.outer
