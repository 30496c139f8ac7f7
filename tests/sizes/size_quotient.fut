-- A size may divide (`/`, rounding down) or take a remainder (`%`): a size
-- parameter named only under a division is inferred from the call, and
-- the same quotient written twice is the same size.
-- ==
-- input { 9i64 } output { 9i64 [0u8, 0u8, 0u8] }
-- input { 0i64 } output { 0i64 empty([0]u8) }
-- input { 4i64 } output { 4i64 [0u8] }

def k : i64 = 4

def words (n: i64) : [(n + k - 1) / k]u8 = replicate ((n + k - 1) / k) 0

def bits [n] (_: [(n + k - 1) / k]u8) : i64 = n

def same [n] (ws: [(n + k - 1) / k]u8) : [(n + k - 1) / k]u8 = map (+ 0) ws

def main (n: i64) =
  let ws = words n
  in (bits ws, same ws)
