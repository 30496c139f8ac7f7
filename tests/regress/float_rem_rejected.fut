-- `%%` on f32 is rejected like `//` on floats: Futhark defines it for
-- integral types only (see float_quot_rejected.fut).
-- ==
-- error: T002

def main (a: f32) (b: f32) : f32 = a %% b
