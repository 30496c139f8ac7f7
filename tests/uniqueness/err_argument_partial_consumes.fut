-- A partial application passed to `map` that consumes `xs`: `map` would
-- apply it to every element, consuming `xs` each time.
-- ==
-- error: U004

def set (xs: *[]i32) (i: i64) (v: i32) : *[]i32 = xs with [i] = v

def main (xs: *[]i32) (vs: []i32) : [][]i32 =
  map (set xs 0) vs
