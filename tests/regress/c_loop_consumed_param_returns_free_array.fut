-- When a loop body consumes its parameter, the value it returns for that
-- parameter becomes the parameter of the next iteration and is consumed
-- there.  Returning an array bound outside the loop (`ys`) would let the
-- loop consume `ys`, so the program must be rejected.
-- ==
-- error: U00[123]|alias|consum

def main (n: i64) : i64 =
  let xs = iota n
  let ys = iota n
  let r = loop acc = xs for i < n do
            let acc[i] = 0 in ys
  in ys[0] + r[0]
