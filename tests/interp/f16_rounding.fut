-- f16 arithmetic rounds to half precision (2049 is not representable; ties go to even).
-- ==
-- input { 2048.0f16 0.5f16 } output { true false 1.0f16 2.0f16 true }

def main (big: f16) (h: f16) : (bool, bool, f16, f16, bool) =
  (big + 1 == big, big + 2 == big, h + h, h * 4, f16.isinf (big * big))
