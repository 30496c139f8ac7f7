-- Entry points of several shapes, for the library-crate test
-- (compiler/cli/tests/library.rs builds a Rust program against the crate
-- `fut multicore --library` writes for this file and checks its results).
-- The blocks below check the same entries on every backend.

-- ==
-- entry: scale
-- input { 2.0 [1.0, 2.5, -3.0] } output { [2.0, 5.0, -6.0] }
entry scale (k: f64) (xs: []f64) : []f64 = map (* k) xs

-- ==
-- entry: row_sums
-- input { [[1, 2, 3], [4, 5, 6]] } output { [6, 15] 21 }
entry row_sums (m: [][]i32) : ([]i32, i32) =
  let rs = map i32.sum m
  in (rs, i32.sum rs)

-- ==
-- entry: negate_count
-- input { [true, false, true] } output { [false, true, false] 2i64 }
entry negate_count (bs: []bool) : ([]bool, i64) =
  (map (\b -> !b) bs, i64.sum (map (\b -> if b then 1 else 0) bs))

-- ==
-- entry: transpose_scaled
-- input { [[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]] 10.0 }
-- output { [[10.0, 30.0, 50.0], [20.0, 40.0, 60.0]] }
entry transpose_scaled (m: [][]f64) (k: f64) : [][]f64 =
  transpose (map (map (* k)) m)

-- ==
-- entry: pick
-- input { [1.0, 2.0] 1i64 } output { 2.0 }
-- input { [1.0, 2.0] 5i64 } error: out of bounds
entry pick (xs: []f64) (i: i64) : f64 = xs[i]

-- ==
-- entry: move
-- input { 3i32 } output { 4i32 }
entry move (x: i32) : i32 = x + 1

-- ==
-- entry: new
-- input { } output { 7i64 }
entry new : i64 = 7

-- ==
-- entry: set_first
-- input { [1.0, 2.0] 9.0 } output { [9.0, 2.0] }
entry set_first (xs: *[]f64) (v: f64) : *[]f64 = xs with [0] = v

-- Tuple and record parameters (opaque to the interpreter's input reader,
-- so no test block): the library takes a Rust tuple and a struct.
entry combine (p: (f64, i32)) (r: {b: []i64, a: f64}) : (f64, i32, []i64) =
  (p.0 + r.a, p.1 + i32.i64 (length r.b), map (+ 1) r.b)

-- The record and tuple parameters of `combine` from a script.
-- ==
-- entry: combine
-- script input { ((1.5, 2), {a = 0.25, b = [10, 20, 30]}) }
-- output { 1.75 5 [11i64, 21i64, 31i64] }

-- Sum types: the library takes and returns an enum per sum type (`Sum0`
-- for `shape`, `Sum1` for `bag`), holding the payload's scalars and arrays.
type shape = #circle f64 | #rect f64 f64 | #empty

-- ==
-- entry: area
-- script input { square 2.0 } output { 4.0 }
-- script input { square -1.0 } output { 0.0 }
entry area (s: shape) : f64 =
  match s
  case #circle r -> 3.0 * r * r
  case #rect w h -> w * h
  case #empty -> 0.0

entry square (w: f64) : shape = if w > 0 then #rect w w else #empty

type bag = #items []i32 | #nothing

-- ==
-- entry: bag_sum
-- script input { fill 3i64 } output { 3 }
-- script input { fill 0i64 } output { 0 }
entry bag_sum (b: bag) : i32 =
  match b
  case #items xs -> i32.sum xs
  case #nothing -> 0

entry fill (n: i64) : bag = if n > 0 then #items (map i32.i64 (iota n)) else #nothing

-- Arrays of a sum type with scalar payloads: a `Vec<Sum0>` result and a
-- `&[Sum0]` parameter.
-- ==
-- entry: total_area
-- script input { squares [1.0, -1.0, 2.0] } output { 5.0 }
entry total_area (ss: []shape) : f64 = f64.sum (map area ss)

entry squares (ws: []f64) : []shape = map square ws

-- Arrays of sums of two dimensions (nested `Vec`s of `Sum0`) and sums whose
-- payloads hold sums (`Sum2` for `opt`, holding a `Sum0`), alone and in
-- arrays.
type opt = #none | #some shape

-- ==
-- entry: grid_area
-- script input { grid 2i64 } output { [[3.0, 0.0], [1.0, 12.0]] }
entry grid_area (g: [][]shape) : [][]f64 = map (map area) g
entry grid (n: i64) : [][]shape =
  tabulate_2d n 2 (\i j -> if i == j then #circle (f64.i64 (i + 1))
                           else if j == 0 then #rect 1 (f64.i64 i)
                           else #empty)

-- ==
-- entry: unwrap_area
-- script input { wrap 2.0 } output { 4.0 }
-- script input { wrap (-1.0) } output { -1.0 }
entry unwrap_area (o: opt) : f64 = match o case #some s -> area s case #none -> -1.0
entry wrap (w: f64) : opt = if w > 0 then #some (square w) else #none

-- ==
-- entry: unwrap_areas
-- script input { wraps [3.0, 0.0] } output { [9.0, -1.0] }
entry unwrap_areas (os: []opt) : []f64 = map unwrap_area os
entry wraps (ws: []f64) : []opt = map wrap ws
