-- Array literals, nested array literals and trailing computations.
-- ==
-- input { 2 } output { [1, 2, 3] [[2, 4], [6, 8]] [[true], [false]] }

def main (x: i32) : ([]i32, [][]i32, [][]bool) =
  ([1, x, x + 1], [[x, 2 * x], [3 * x, 4 * x]], [[x > 0], [x < 0]])
