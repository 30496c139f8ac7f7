-- Unsigned multiplication wraps.
-- ==
-- input { 16u8 300u16 70000u32 } output { 0u8 24464u16 605032704u32 }

def main (a: u8) (b: u16) (c: u32) : (u8, u16, u32) = (a * a, b * b, c * c)
