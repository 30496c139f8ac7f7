-- `!` negates booleans and is bitwise complement on integers.
-- ==
-- input { true 0 5u8 } output { false -1 250u8 true }

def main (b: bool) (x: i32) (y: u8) : (bool, i32, u8, bool) =
  (!b, !x, !y, !(!b))
