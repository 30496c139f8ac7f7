-- Futhark gives every element of an array of a sum type the same payload
-- sizes: in `[#none, #some [1, 2, 3]]` the #none element has (unused)
-- payload of size 3 too, and an `if` whose branches are #some of two
-- elements and #none is a sum with a two-element payload. Upstream
-- tests/sumtypes/sumtype15.fut (a list literal mixing #none and #some [..])
-- failed with an ill-typed array update; the `if` form failed with a size
-- mismatch when mapped.
-- ==
-- input { [1, -2, 3] }
-- output { [1, 6, 3] [2, 1, 6] }

type opt 'a = #none | #some a

def total (x: opt ([]i32)) : i32 =
  match x
  case #none -> 1
  case #some ys -> i32.sum ys

entry main (xs: []i32) : ([]i32, []i32) =
  ( map total [#none, #some [1, 2, 3], #some [xs[0], 2, 0]]
  , map (\x -> if x > 0 then #some (replicate 2 x) else #none) xs |> map total )
