-- sum, product, maximum and minimum, with the empty cases.
-- ==
-- input { [3, -1, 4] } output { 6 -12 4 -1 }
-- input { empty([0]i32) } output { 0 1 -2147483648 2147483647 }

-- ==
-- entry: u8s
-- input { [200u8, 100u8] } output { 44u8 32u8 200u8 100u8 }
-- input { empty([0]u8) } output { 0u8 1u8 0u8 255u8 }

-- ==
-- entry: i64s
-- input { [5i64] } output { 5i64 5i64 5i64 5i64 }

def main (xs: []i32): (i32, i32, i32, i32) = (i32.sum xs, i32.product xs, i32.maximum xs, i32.minimum xs)

entry u8s (xs: []u8): (u8, u8, u8, u8) = (u8.sum xs, u8.product xs, u8.maximum xs, u8.minimum xs)

entry i64s (xs: []i64): (i64, i64, i64, i64) = (i64.sum xs, i64.product xs, i64.maximum xs, i64.minimum xs)
