-- An update path with an index consumes its target, as `xs with [i] = v` does.
-- ==
-- error: U001

def main (xs: *[]{f: i32}) =
  let ys = xs with [0].f = 1
  in (ys, xs)
