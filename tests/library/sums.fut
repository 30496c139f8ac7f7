-- Sum types inside tuples and records, and arrays of sums whose variants
-- carry arrays, for the library-crate test (compiler/cli/tests/library.rs
-- builds a Rust program against the crate `fut multicore --library` writes
-- for this file and checks its results). The blocks below check the same
-- entries on every backend.

type shape = #circle f64 | #rect f64 f64 | #empty

def area (s: shape) : f64 =
  match s
  case #circle r -> 3.0 * r * r
  case #rect w h -> w * h
  case #empty -> 0.0

entry square (w: f64) : shape = if w > 0 then #rect w w else #empty

-- A record result holding a sum (a struct with an enum field) and a tuple
-- parameter holding one (a Rust tuple with an enum element).
entry measure (w: f64) : {k: i32, s: shape} = {s = square w, k = i32.f64 w}

-- ==
-- entry: scaled_area
-- script input { (square 2.0, 3.0) } output { 12.0 }
entry scaled_area (p: (shape, f64)) : f64 = area p.0 * p.1

-- ==
-- entry: record_area
-- script input { measure 3.0 } output { 12.0 }
entry record_area (r: {k: i32, s: shape}) : f64 = area r.s + f64.i32 r.k

-- Arrays of a sum whose variants carry arrays, in and out, of one and two
-- dimensions.
type bag = #items []i32 | #nothing

-- ==
-- entry: bag_sums
-- script input { bags 3i64 2i64 } output { [1, -1, 81] }
-- script input { bags 0i64 2i64 } output { empty([0]i32) }
entry bag_sums (bs: []bag) : []i32 =
  map (\b -> match b case #items xs -> i32.sum xs case #nothing -> -1) bs

entry bags (n: i64) (m: i64) : []bag =
  tabulate n (\i -> if i % 2 == 0 then #items (tabulate m (\j -> i32.i64 (i * 20 + j)))
                    else #nothing)

type tile = #cells [][]f64 | #blank

-- ==
-- entry: tile_totals
-- script input { tiles 2i64 } output { [[4.0, -1.0], [-1.0, 8.0]] }
entry tile_totals (ts: [][]tile) : [][]f64 =
  map (map (\t -> match t case #cells c -> f64.sum (flatten c) case #blank -> -1.0)) ts

entry tiles (n: i64) : [][]tile =
  tabulate_2d n 2 (\i j -> if i == j then #cells (replicate 2 (replicate 2 (f64.i64 (i + 1))))
                           else #blank)

-- A record result holding an array of sums with array payloads.
entry labelled (n: i64) : {bs: []bag, n: i64} = {bs = bags n 3, n}

-- Record and tuple parameters holding arrays of sums.
-- ==
-- entry: labelled_count
-- script input { labelled 3i64 } output { 5i64 }
-- script input { labelled 0i64 } output { 0i64 }
entry labelled_count (r: {bs: []bag, n: i64}) : i64 =
  r.n + i64.sum (map (\b -> match b case #items _ -> 1 case #nothing -> 0) r.bs)

-- ==
-- entry: bags_plus
-- script input { (bags 3i64 2i64, 100i32) } output { [101, 99, 181] }
entry bags_plus (p: ([]bag, i32)) : []i32 = map (\s -> s + p.1) (bag_sums p.0)

-- A tuple parameter holding a sum with an array payload.
-- ==
-- entry: bag_plus
-- script input { (fill 3i64, 10i32) } output { 13i32 }
-- script input { (fill 0i64, 10i32) } output { 10i32 }
entry bag_plus (p: (bag, i32)) : i32 =
  match p.0 case #items xs -> i32.sum xs + p.1 case #nothing -> p.1

entry fill (n: i64) : bag = if n > 0 then #items (map i32.i64 (iota n)) else #nothing

-- Arrays of tuples and records holding sums, as results: like other
-- arrays of tuples and records, a Rust tuple of one array per element or
-- field, the sums' a `Vec` of their enum.
entry pairs (n: i64) : [](shape, f64) = tabulate n (\i -> (square (f64.i64 i), f64.i64 i))

entry records (n: i64) : []{k: i32, s: shape} =
  tabulate n (\i -> {s = square (f64.i64 i), k = i32.i64 i})

-- An array of tuples holding sums as a parameter: the same tuple of a
-- `Vec` of the enum and an `Array` per other element.
-- ==
-- entry: pair_areas
-- script input { pairs 3i64 } output { [0.0, 1.0, 8.0] }
-- script input { pairs 0i64 } output { empty([0]f64) }
entry pair_areas (ps: [](shape, f64)) : []f64 = map (\(s, w) -> area s * w) ps

-- ==
-- entry: pairs_area
-- input { 3i64 } output { 9.0 }
entry pairs_area (n: i64) : f64 = f64.sum (map (\(s, w) -> area s * w) (pairs n))
