-- Sum types evaluated at run time inside a loop.
-- ==
-- input { [1, -1, 2, -3] } output { 3 -4 }

type tok = #add i32 | #sub i32

def main (xs: []i32) : (i32, i32) =
  let toks = map (\x -> if x >= 0 then #add x else #sub (-x)) xs
  in loop (p, n) = (0, 0) for t in toks do
       match t
       case #add v -> (p + v, n)
       case #sub v -> (p, n - v)
