-- `unflatten` of an array whose size the checker cannot name: the inner
-- size comes from `w`, the outer one from the extent of `flat` divided by it.
-- ==
-- input { [1, 2] [1, 2, 3, 4, 5, 6] } output { [5, 11, 17] }
-- input { [1, 0, 2] [3, 4, 5] } output { [13] }
-- input { [1, 2] [1, 2, 3] } error: Size mismatch|Invalid reshape

def main [c] (w: [c]i32) (flat: []i32) : []i32 =
  map (\row -> i32.sum (map2 (*) w row)) (unflatten flat)
