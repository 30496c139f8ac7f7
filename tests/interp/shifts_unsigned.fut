-- On unsigned types >> is a logical shift.
-- ==
-- input { 240u8 1u64 } output { 15u8 224u8 9223372036854775808u64 4u64 }

def main (a: u8) (b: u64) : (u8, u8, u64, u64) =
  (a >> 4, a << 1, b << 63, (b << 3) >>> 1)
