-- let bindings with type annotations.
-- ==
-- input { 3 } output { 3i64 1.5f32 }

def main (x: i32) : (i64, f32) =
  let a: i64 = i64.i32 x
  let (b: f32, _: i32) = (1.5, x)
  in (a, b)
