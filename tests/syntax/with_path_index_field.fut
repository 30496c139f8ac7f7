-- Update paths that mix indices and fields: `xs with [i].f = v` replaces one
-- field of one element; the array is consumed as by `xs with [i] = v`.
-- ==
-- input { [1, 2, 3] [4.0f32, 5.0f32, 6.0f32] 1i64 }
-- output { [1, 20, 3] [4.0f32, 5.0f32, 6.0f32] [1, 2, 3] [4.0f32, 5.0f32, 60.0f32] }
-- input { [7, 8] [1.5f32, 2.5f32] 0i64 }
-- output { [70, 8] [1.5f32, 2.5f32] [7, 8] [1.5f32, 25.0f32] }

type pt = {x: i32, y: f32}

def main [n] (xs: [n]i32) (ys: [n]f32) (i: i64) =
  let ps: [n]pt = map2 (\x y -> {x, y}) xs ys
  let a = copy ps with [i].x = ps[i].x * 10
  let b = copy ps with [n - 1].y = ps[n - 1].y * 10
  in (map (.x) a, map (.y) a, map (.x) b, map (.y) b)
