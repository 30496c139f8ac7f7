-- zip, zip3, unzip and unzip3.
-- ==
-- input { [1, 2] [true, false] [1.5, 2.5] } output { [1, 2] [true, false] [1.5, 2.5] [2, 3] }

def main (a: []i32) (b: []bool) (c: []f64) : ([]i32, []bool, []f64, []i32) =
  let (x, y, z) = unzip3 (zip3 a b c)
  let (p, _) = unzip (zip (map (+ 1) a) b)
  in (x, y, z, p)
