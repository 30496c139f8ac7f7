-- Pipes, composition and the small combinators.
-- ==
-- entry: pipes
-- input { 3 } output { 8 8 8 7 }

-- ==
-- entry: combinators
-- input { 10 4 } output { -6 6 40 10 4 }

entry pipes (x: i32): (i32, i32, i32, i32) =
  let inc = (+ 1)
  let dbl = (* 2)
  in (x |> inc |> dbl, dbl <| (inc <| x), (inc >-> dbl) x, (inc <-< dbl) x)

entry combinators (x: i32) (y: i32): (i32, i32, i32, i32, i32) =
  (flip (-) x y,
   curry (\(a, b) -> a - b) x y,
   uncurry (*) (x, y),
   const x y,
   id y)
