-- match on character literals of type u8.
-- ==
-- input { 97u8 } output { 1 }
-- input { 98u8 } output { 2 }
-- input { 0u8 } output { 0 }

def main (c: u8) : i32 =
  match c
  case 'a' -> 1
  case 'b' -> 2
  case _ -> 0
