-- Several size binders in a `let` may be written next to each other
-- without spaces, `let [p][q] pat = e`, just as `let [p] [q] pat = e`.
-- ==
-- input { 5i64 } output { 2i64 3i64 }

def halves (k: i64) : ?[a][b].([a]i64, [b]i64) =
  (iota (k / 2), iota (k - k / 2))

def main (k: i64) =
  let [p][q] (_: ([p]i64, [q]i64)) = halves k
  in (p, q)
