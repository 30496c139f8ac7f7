-- Script inputs giving values of a sum type made by entry points, also by
-- entry points whose sum-typed result has no written return type.
-- ==
-- entry: area
-- script input { square 2.0 } output { 4.0 }
-- script input { circle_untyped 2.0 } output { 12.0 }
-- script input { let (s, r) = rect_and_side 3.0 in let (g, _ok) = grow s r in g } output { 36.0 }
-- script input { square -1.0 } output { 0.0 }
-- script input { circle 1.0 } output { 3.0 }
-- script input { let (s, _grown) = grow (circle 1.0) 1.0 in s } output { 12.0 }

-- ==
-- entry: unwrap
-- script input { wrap 2.5 } output { 2.5 }

-- ==
-- entry: describe
-- script input { (square 3.0, 2i32) } output { 2i32 18.0 }
-- script input { (circle 2.0, 1) } output { 1i32 12.0 }

type shape = #circle f64 | #rect f64 f64 | #empty

entry square (w: f64) : shape = if w > 0 then #rect w w else #empty

entry circle (r: f64) : shape = #circle r

entry area (s: shape) : f64 =
  match s
  case #circle r -> 3.0 * r * r
  case #rect w h -> w * h
  case #empty -> 0.0

entry grow (s: shape) (d: f64) : (shape, bool) =
  match s
  case #circle r -> (#circle (r + d), true)
  case #rect w h -> (#rect (w + d) (h + d), true)
  case #empty -> (#circle d, false)

entry describe (s: shape) (k: i32) : (i32, f64) = (k, f64.i32 k * area s)

entry circle_untyped (r: f64) = #circle r : shape

entry rect_and_side (w: f64) = (#rect w w : shape, w)

entry wrap (x: f64) = #only x

entry unwrap (v: #only f64) : f64 = match v case #only x -> x
