-- A function may return an existentially sized array, written ?[k].[k]t.
-- ==
-- input { 4i64 } output { [0i64, 1i64, 2i64, 3i64, 0i64, 1i64, 2i64, 3i64] }

def double_iota (n: i64) : ?[k].[k]i64 = iota n ++ iota n

def main (n: i64) : []i64 = double_iota n
