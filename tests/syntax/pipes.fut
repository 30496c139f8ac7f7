-- Pipe operators |> and <|, and function composition >-> and <-<.
-- ==
-- input { [1, 2, 3] } output { 12 12 [4, 6, 8] }

def main (xs: []i32) : (i32, i32, []i32) =
  (xs |> map (* 2) |> reduce (+) 0,
   reduce (+) 0 <| map (* 2) xs,
   map ((+ 1) >-> (* 2)) xs)
