-- A bit-cast such as f32.to_bits is treated by Futhark's AD as a linear
-- map on the tangent: the tangent of `i32.u32 (f32.to_bits x)` is the
-- bit pattern of the input tangent (upstream tests/ad/issue2292.fut).
-- ==
-- input { 5f32 1f32 } output { 1065353216i32 }

entry main (x: f32) (dx: f32) : i32 = jvp (\y -> i32.u32 (f32.to_bits y)) x dx
