-- Three-dimensional arrays.
-- ==
-- input { [[[1, 2], [3, 4]], [[5, 6], [7, 8]]] } output { 36 [[6, 8], [10, 12]] [[[1, 3], [2, 4]], [[5, 7], [6, 8]]] }

def main (a: [][][]i32) : (i32, [][]i32, [][][]i32) =
  (i32.sum (flatten (flatten a)),
   map2 (map2 (+)) a[0] a[1],
   map transpose a)
