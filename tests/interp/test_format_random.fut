-- A random input case has no output to compare; it only has to run.
-- ==
-- input { [1.0f32, 2.0f32] } output { 2i64 }
-- random input { [10]f32 }

def main (xs: []f32) : i64 = length xs
