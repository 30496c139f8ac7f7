-- Unsigned division and modulus treat operands as non-negative.
-- ==
-- input { 4294967295u32 2u32 } output { 2147483647u32 1u32 true }
-- input { 200u32 7u32 } output { 28u32 4u32 true }

def main (a: u32) (b: u32) : (u32, u32, bool) = (a / b, a % b, a > b)
