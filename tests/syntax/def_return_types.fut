-- Return type annotations, including tuple and array return types.
-- ==
-- input { 3i64 } output { [0i64, 1i64, 2i64] 3i64 true }

def f (n: i64) : ([n]i64, i64) = (iota n, n)
def g (x: i64) : bool = x > 0

def main (n: i64) : ([]i64, i64, bool) =
  let (a, b) = f n
  in (a, b, g b)
