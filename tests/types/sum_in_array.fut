-- Arrays of sum-typed values.
-- ==
-- input { [1, -2, 3, -4] } output { 4 -6 }

type sign = #pos i32 | #neg i32

def main (xs: []i32) : (i32, i32) =
  let ss = map (\x -> if x >= 0 then #pos x else #neg x) xs
  let pos = map (\s -> match s case #pos v -> v case #neg _ -> 0) ss
  let neg = map (\s -> match s case #neg v -> v case #pos _ -> 0) ss
  in (reduce (+) 0 pos, reduce (+) 0 neg)
