-- Bit-counting functions: popc, clz, ctz, get_bit, set_bit.
-- ==
-- input { 255 } output { 8 24 0 1 511 }
-- input { 8 } output { 1 28 3 0 264 }

def main (x: i32) : (i32, i32, i32, i32, i32) =
  (i32.popc x, i32.clz x, i32.ctz x, i32.get_bit 0 x, i32.set_bit 8 x 1)
