-- Run-time errors raised through prelude functions.
-- ==
-- entry: last_empty
-- input { empty([0]f64) } error: out of bounds

-- ==
-- entry: tabulate_negative
-- input { -3i64 } error: Invalid range

-- ==
-- entry: int_mod_zero
-- input { 5i64 } error: Division by zero

-- ==
-- entry: drop_too_many
-- input { [1, 2, 3] } error: Invalid slice

-- ==
-- entry: scatter_fine
-- input { [1, 2, 3] } output { [1, 2, 3] }

entry last_empty (xs: []f64): f64 = last xs

entry tabulate_negative (n: i64): []i64 = tabulate n (\i -> i)

entry int_mod_zero (x: i64): i64 = x i64.% 0

entry drop_too_many (xs: []i32): []i32 = drop 4 xs

-- Out-of-bounds scatter indices are not an error.
entry scatter_fine (xs: []i32): []i32 = scatter (copy xs) [-1, 3, 1000] [7, 8, 9]
