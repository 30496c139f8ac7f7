-- Argument type differs from parameter type.
-- ==
-- error: T002

def f (x: f32) = x
def main (y: i64) = f y
