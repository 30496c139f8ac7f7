-- Records inside records and arrays of records.
-- ==
-- input { [1, 2, 3] } output { 6 12 }

type inner = {v: i32}
type outer = {i: inner, w: i32}

def main (xs: []i32) : (i32, i32) =
  let rs: []outer = map (\x -> {i = {v = x}, w = 2 * x}) xs
  in (reduce (+) 0 (map (.i.v) rs), reduce (+) 0 (map (\r -> r.w) rs))
