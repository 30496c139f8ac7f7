-- AD works on f32 as well.
-- ==
-- input { 1.5f32 } output { 6.75f32 6.75f32 }

def f (x: f32) = x * x * x

def main (x: f32) : (f32, f32) = (jvp f x 1, vjp f x 1)
