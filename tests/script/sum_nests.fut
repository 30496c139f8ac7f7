-- Multi-dimensional arrays of sum types, and sums whose payloads hold sums
-- (alone and in arrays), passed between entry points: each element's
-- variants and payloads survive the trip through the external form.
-- ==
-- entry: areas
-- script input { grid 3i64 } output { [[0.0, 0.0], [1.0, 1.0], [2.0, 0.0]] }
-- script input { grid 0i64 } output { empty([0][2]f64) }

-- ==
-- entry: areas3
-- script input { cube 2i64 } output { [[[0.0, 2.0], [0.0, 2.0]], [[1.0, 3.0], [1.0, 3.0]]] }

-- ==
-- entry: sizes
-- script input { opts [1.0, -2.0, 0.0] } output { [1.0, -4.0, -1.0] }
-- script input { opts (empty([0]f64)) } output { empty([0]f64) }

-- ==
-- entry: opt_size
-- script input { wrap 2.5 } output { 2.5 }
-- script input { wrap (-1.0) } output { -2.0 }
-- script input { wrap 0.0 } output { -1.0 }

-- ==
-- entry: depth
-- script input { twice 1.0 } output { [3.0, 1.0] }
-- script input { twice 0.0 } output { [-1.0, 0.0] }

type shape = #circle f64 | #rect f64 f64 | #empty
type opt = #none | #some shape
type wrapped = #outer opt | #bare f64

def area (s: shape) : f64 =
  match s
  case #circle r -> r
  case #rect w h -> w * h
  case #empty -> 0

def size (o: opt) : f64 =
  match o
  case #some (#circle r) -> r
  case #some (#rect w h) -> w + h
  case #some #empty -> 100
  case #none -> -1

entry grid (n: i64) : [][]shape =
  tabulate_2d n 2 (\i j -> if i == j then #circle (f64.i64 i)
                           else if j == 0 then #rect 1 (f64.i64 i)
                           else #empty)

entry cube (n: i64) : [][][]shape =
  tabulate_3d n n 2 (\i _ k -> if k == 0 then #circle (f64.i64 i) else #rect 1 (f64.i64 (i + 2)))

entry areas [n][m] (g: [n][m]shape) : [n][m]f64 = map (map area) g

entry areas3 [n][m][k] (g: [n][m][k]shape) : [n][m][k]f64 = map (map (map area)) g

entry opts (xs: []f64) : []opt =
  map (\x -> if x > 0 then #some (#circle x) else if x < 0 then #some (#rect x x) else #none) xs

entry sizes (os: []opt) : []f64 = map size os

entry wrap (x: f64) : opt =
  if x > 0 then #some (#circle x) else if x < 0 then #some (#rect x x) else #none

entry opt_size (o: opt) : f64 = size o

entry twice (x: f64) : [2]wrapped =
  if x > 0 then [#outer (#some (#rect x 2)), #bare x] else [#outer #none, #bare 0]

entry depth (ws: []wrapped) : []f64 =
  map (\w -> match w case #outer o -> size o case #bare x -> x) ws
