-- scan with a non-commutative tuple operator (affine map composition).
-- ==
-- input { [2, 3, 1] [1, 0, 5] } output { [2, 6, 6] [1, 3, 8] }

def main (as: []i32) (bs: []i32) : ([]i32, []i32) =
  let comp (fa: i32, fb: i32) (ga: i32, gb: i32) = (ga * fa, ga * fb + gb)
  in unzip (scan comp (1, 0) (zip as bs))
