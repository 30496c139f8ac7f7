-- Script inputs giving opaque arguments: records made by one entry point and
-- passed to another, records written in the script, tuples spread over
-- several parameters, `let` bindings and arrays of records.
-- ==
-- entry: norm2
-- script input { mk 3.0 4.0 } output { 25.0 }
-- script input { shift (mk 1.0 2.0) 1.0 } output { 13.0 }
-- script input { let p = mk 1.0 2.0 in let q = shift p 2.0 in q } output { 25.0 }
-- script input { {y = 3.0, x = 1.0} } output { 10.0 }
-- script input {
--   let (a, b) = split (mk 5.0 -- a comment inside the script
--                       12.0)
--   in b
-- } output { 144.0 }

-- ==
-- entry: dist2
-- script input { (mk 0.0 0.0, mk 3.0 4.0) } output { 25.0 }
-- script input { let p = mk 1.0 1.0 in (p, shift p 1.0) } output { 2.0 }

-- ==
-- entry: total
-- script input { points [1.0, 2.0, 3.0] [4.0, 5.0, 6.0] } output { 32.0 }
-- script input { points [1, 2] [3, 4] } output { 11.0 }
-- script input { points (coords (mk 1.0 2.0)) [0.5, 0.5] } output { 1.5 }
-- script input { points [1.0] [1.0, 2.0] } error: .

type point = {x: f64, y: f64}

entry mk (x: f64) (y: f64) : point = {x, y}

entry shift (p: point) (d: f64) : point = {x = p.x + d, y = p.y + d}

entry norm2 (p: point) : f64 = p.x * p.x + p.y * p.y

entry split (p: point) : (point, point) = ({x = p.x, y = 0.0}, {x = 0.0, y = p.y})

entry dist2 (p: point) (q: point) : f64 = norm2 {x = q.x - p.x, y = q.y - p.y}

entry coords (p: point) : []f64 = [p.x, p.y]

entry points [n] (xs: [n]f64) (ys: [n]f64) : []point = map2 (\x y -> {x, y}) xs ys

entry total (ps: []point) : f64 = f64.sum (map (\p -> p.x * p.y) ps)
