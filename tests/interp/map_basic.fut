-- map, map2, map3 apply a function elementwise.
-- ==
-- input { [1, 2, 3] [4, 5, 6] [7, 8, 9] } output { [2, 4, 6] [5, 7, 9] [12, 15, 18] }
-- input { empty([0]i32) empty([0]i32) empty([0]i32) } output { empty([0]i32) empty([0]i32) empty([0]i32) }

def main (a: []i32) (b: []i32) (c: []i32) : ([]i32, []i32, []i32) =
  (map (* 2) a, map2 (+) a b, map3 (\x y z -> x + y + z) a b c)
