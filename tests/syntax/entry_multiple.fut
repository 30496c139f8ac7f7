-- Several entry points in one program, selected with `entry:`.
-- ==
-- entry: plus
-- input { 1 2 } output { 3 }
-- input { -1 1 } output { 0 }

-- ==
-- entry: times
-- input { 3 4 } output { 12 }

entry plus (x: i32) (y: i32) = x + y
entry times (x: i32) (y: i32) = x * y
