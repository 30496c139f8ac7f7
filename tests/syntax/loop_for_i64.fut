-- The bound of a for loop can be any integer type; the index has that type.
-- ==
-- input { 4i64 } output { 6i64 }

entry main (n: i64) : i64 = loop s = 0 for i < n do s + i
