-- Structural equality of arrays: shapes must agree before elements are
-- compared, also for arrays nested in tuples, records and sums.
-- ==
-- input { [1, 2, 3] [1, 2, 3] } output { true false true true true }
-- input { [1, 2, 3] [1, 2, 4] } output { false true false false false }
-- input { [1, 2, 3] [1, 2] } output { false true false false false }
-- input { empty([0]i32) empty([0]i32) } output { true false true true true }
-- input { empty([0]i32) [7] } output { false true false false false }

type shape = #flat ([]i32) | #none

def main (as: []i32) (bs: []i32) : (bool, bool, bool, bool, bool) =
  let grid_a = [as, as]
  let grid_b = [bs, bs]
  let ta = (length as, as)
  let tb = (length as, bs)
  let ra = {xs = as, k = 1}
  let rb = {xs = bs, k = 1}
  let sa : shape = #flat as
  let sb : shape = if length bs >= 0 then #flat bs else #none
  in (as == bs, as != bs, grid_a == grid_b && ta == tb, ra == rb, sa == sb)
