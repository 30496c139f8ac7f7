-- A tuple parameter whose second component is unique (`([]i32, *[]i32)`)
-- may have that component consumed in the body; only the first component
-- is non-unique.  (Related: c_consume_through_tuple_parameter.)
-- ==
-- input { [1i32, 2i32] [5i32, 6i32] }
-- output { 1338i32 }

def poke (t: ([]i32, *[]i32)) : i32 =
  let (a, b) = t
  let b[0] = 1337
  in a[0] + b[0]

def main (x: []i32) (y: *[]i32) : i32 = poke (x, y)
