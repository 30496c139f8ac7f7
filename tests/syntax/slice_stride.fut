-- Strided slices, including negative strides.
-- ==
-- input { [0, 1, 2, 3, 4, 5, 6] } output { [6, 5, 4, 3, 2, 1, 0] [0, 2, 4, 6] [1, 4] [5, 3, 1] }

def main (xs: []i32) : ([]i32, []i32, []i32, []i32) =
  (xs[::-1], xs[::2], xs[1:6:3], xs[5:0:-2])
