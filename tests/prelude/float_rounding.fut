-- floor, ceil, round (halfway cases to even) and trunc.
-- ==
-- input { 2.5f64 } output { 2.0f64 3.0f64 2.0f64 2.0f64 }
-- input { 3.5f64 } output { 3.0f64 4.0f64 4.0f64 3.0f64 }
-- input { -2.5f64 } output { -3.0f64 -2.0f64 -2.0f64 -2.0f64 }
-- input { -0.5f64 } output { -1.0f64 0.0f64 0.0f64 0.0f64 }
-- input { 0.5f64 } output { 0.0f64 1.0f64 0.0f64 0.0f64 }
-- input { 1.4f64 } output { 1.0f64 2.0f64 1.0f64 1.0f64 }
-- input { -1.6f64 } output { -2.0f64 -1.0f64 -2.0f64 -1.0f64 }
-- input { 7.0f64 } output { 7.0f64 7.0f64 7.0f64 7.0f64 }
-- input { -0.0f64 } output { 0.0f64 0.0f64 -0.0f64 0.0f64 }
-- input { f64.inf } output { f64.inf f64.inf f64.inf f64.inf }
-- input { f64.nan } output { f64.nan f64.nan f64.nan f64.nan }
-- input { 1.0e20f64 } output { 1.0e20f64 1.0e20f64 1.0e20f64 1.0e20f64 }

-- ==
-- entry: f32s
-- input { 2.5f32 -3.5f32 } output { 2.0f32 -4.0f32 -3.0f32 3.0f32 }

def main (x: f64): (f64, f64, f64, f64) = (f64.floor x, f64.ceil x, f64.round x, f64.trunc x)

entry f32s (x: f32) (y: f32): (f32, f32, f32, f32) = (f32.round x, f32.round y, f32.trunc y, f32.ceil x)
