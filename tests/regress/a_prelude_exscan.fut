-- The prelude has an exclusive scan, `exscan op ne xs`: element i is the
-- reduction of the elements before i, so the first is `ne`.
-- ==
-- input { [4i32, 1i32, 2i32, 5i32] } output { [0i32, 4i32, 5i32, 7i32] }

def main (xs: []i32) = exscan (+) 0 xs
