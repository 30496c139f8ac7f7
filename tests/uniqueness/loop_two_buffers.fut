-- Two unique loop parameters updated in place and swapped every iteration.
-- ==
-- input { [1, 2, 3] 3 } output { [4, 5, 6] }

def main [n] (xs: [n]i32) (k: i32) : [n]i32 =
  let (a, _) =
    loop (a: *[n]i32, b: *[n]i32) = (copy xs, copy xs) for _i < k do
      let b = loop b for j < n do b with [j] = a[j] + 1
      in (b, a)
  in a
