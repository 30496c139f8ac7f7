-- match on constructors of a sum type, with payloads.
-- ==
-- input { 0 } output { 0 }
-- input { 1 } output { 10 }
-- input { 2 } output { 7 }

type shape = #none | #square i32 | #rect i32 i32

def area (s: shape) =
  match s
  case #none -> 0
  case #square a -> a * a
  case #rect w h -> w * h

def main (k: i32) =
  let s = if k == 0 then #none else if k == 1 then #rect 2 5 else #square 0
  in area s + (if k == 2 then 7 else 0)
