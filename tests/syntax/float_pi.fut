-- Module-qualified constants and functions: f64.pi, f32.sqrt.
-- ==
-- input { 4.0f32 } output { 2.0f32 3.141592653589793 }

def main (x: f32) : (f32, f64) = (f32.sqrt x, f64.pi)
