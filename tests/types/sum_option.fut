-- A polymorphic option type with exhaustive match.
-- ==
-- input { [1, 5, 3] 5 } output { 1i64 }
-- input { [1, 5, 3] 7 } output { -1i64 }

type option 'a = #some a | #none

def find_index [n] (p: i32 -> bool) (xs: [n]i32) : option i64 =
  loop (r: option i64) = #none for i < n do
    match r
    case #none -> if p xs[i] then #some i else #none
    case #some j -> #some j

def main (xs: []i32) (x: i32) : i64 =
  match find_index (== x) xs
  case #some i -> i
  case #none -> -1
