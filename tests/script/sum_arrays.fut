-- Arrays of sum types passed between entry points: each element's variant
-- and payload survive the trip through the entry points' external form.
-- ==
-- entry: areas
-- script input { squares [1.0, -1.0, 2.0] } output { [1.0, 0.0, 4.0] }
-- script input { mixed [1.0, 2.0, 0.0] } output { [3.0, 4.0, 0.0] }
-- script input { squares (empty([0]f64)) } output { empty([0]f64) }

-- ==
-- entry: count_rects
-- script input { mixed [1.0, 2.0, 3.0, 4.0, 0.0] } output { 2i64 }

type shape = #circle f64 | #rect f64 f64 | #empty

entry squares (ws: []f64) : []shape =
  map (\w -> if w > 0 then #rect w w else #empty) ws

-- Circles at even positions, squares at odd ones, nothing for 0.
entry mixed (ws: []f64) : []shape =
  map2 (\i w -> if w == 0 then #empty else if i % 2 == 0 then #circle w else #rect w w)
       (indices ws) ws

entry areas (ss: []shape) : []f64 =
  map (\s -> match s
             case #circle r -> 3.0 * r * r
             case #rect w h -> w * h
             case #empty -> 0.0) ss

entry count_rects (ss: []shape) : i64 =
  i64.sum (map (\s -> match s case #rect _ _ -> 1 case _ -> 0) ss)
