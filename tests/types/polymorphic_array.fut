-- Polymorphic functions over arrays of any element type.
-- ==
-- input { [1, 2, 3] [true, false] } output { 3 false [3, 2, 1] }

def last_elem 'a [n] (xs: [n]a) : a = xs[n - 1]
def rev 'a [n] (xs: [n]a) : [n]a = map (\i -> xs[n - 1 - i]) (iota n)

def main (xs: []i32) (bs: []bool) : (i32, bool, []i32) =
  (last_elem xs, last_elem bs, rev xs)
