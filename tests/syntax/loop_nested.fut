-- Nested loops.
-- ==
-- input { 3 4 } output { 18 }

def main (n: i32) (m: i32) =
  loop s = 0 for i < n do
    loop s for j < m do s + i * j / i32.max 1 i + (if i == 0 then j else 0)
