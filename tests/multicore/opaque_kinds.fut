-- Entry points that take and return values of sum types, of types named by
-- abbreviations and of a module's type, arrays of records and tuples, and a
-- unique result: opaque values of the executables' server
-- (compiler/cli/tests/opaque.rs drives them with `variants`, `construct`,
-- `destruct`, `variant`, `fields`, `project`, `zip`, `unzip` and `index`).
-- Test blocks cannot give opaque arguments, so only the transparent entry
-- has one; every entry is still compiled by each backend that runs it.

type shape = #circle f64 | #rect f64 f64 | #empty
type point = {x: f64, y: f64}

module M = {
  type t = {a: i32, b: []f64}
}

def area_of (s: shape) : f64 =
  match s
  case #circle r -> 3.0 * r * r
  case #rect w h -> w * h
  case #empty -> 0.0

def square_of (w: f64) : shape = if w > 0 then #rect w w else #empty

-- ==
-- entry: total_area
-- input { [1.0, 0.0, 2.0, -1.0] } output { 5.0 }
entry total_area (ws: []f64) : f64 = f64.sum (map (\w -> area_of (square_of w)) ws)

entry area (s: shape) : f64 = area_of s

entry square (w: f64) : shape = square_of w

entry grow (s: shape) (d: f64) : (shape, bool) =
  match s
  case #circle r -> (#circle (r + d), true)
  case #rect w h -> (#rect (w + d) (h + d), true)
  case #empty -> (#circle d, false)

entry shift (p: point) (d: f64) : point = {x = p.x + d, y = p.y + d}

entry mk_t (a: i32) (b: []f64) : M.t = {a, b}

entry t_sum (t: M.t) : f64 = f64.i32 t.a + f64.sum t.b

entry ones (n: i64) : *[]f64 = replicate n 1

entry nonempty (xs: []i32) : #some []i32 | #none =
  if length xs > 0 then #some xs else #none

entry count (o: #some []i32 | #none) : i64 =
  match o
  case #some xs -> length xs
  case #none -> 0

entry dot (ps: []{x: f64, y: f64}) : f64 = f64.sum (map (\p -> p.x * p.y) ps)

entry dots (ps: []point) (q: point) : []f64 = map (\p -> p.x * q.x + p.y * q.y) ps

entry points (n: i64) : []{x: f64, y: f64} =
  map (\i -> {x = f64.i64 i, y = 2}) (iota n)

entry pair_rows (xss: [][](i32, bool)) : [](i32, bool) =
  map (\xs -> (i32.sum (map (.0) xs), all (.1) xs)) xss
