-- The accepted variants of `err_size_not_i64.fut`: an i64 parameter, and an
-- unannotated one, which its use as a size makes i64.
-- ==
-- input { 2i64 [1f32, 2f32] } output { 3f32 }

def zeros n : [n]f32 = replicate n 0

def main (n: i64) (xs: [n]f32) : f32 = xs[0] + xs[1] + (zeros n)[0]
