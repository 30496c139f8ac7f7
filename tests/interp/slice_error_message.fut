-- A slice outside its array is reported with the index as written in the
-- program (omitted bounds stay omitted) and the array's shape, whether the
-- stride is known or only found at run time.
-- ==
-- entry: window
-- input { [10, 20, 30, 40] 1i64 3i64 } output { [20, 30] }
-- input { [10, 20, 30, 40] 3i64 2i64 }
-- error: Invalid slice: Index \[3:2\] out of bounds for array of shape \[4\]\.
-- input { empty([0]i32) 0i64 2i64 }
-- error: Invalid slice: Index \[0:2\] out of bounds for array of shape \[0\]\.

-- ==
-- entry: column
-- input { [[1, 2, 3], [4, 5, 6]] 1i64 } output { [[2, 3], [5, 6]] }
-- input { [[1, 2, 3], [4, 5, 6]] 4i64 }
-- error: Invalid slice: Index \[4:\] out of bounds for array of shape \[3\]\.

-- ==
-- entry: every
-- input { [1, 2, 3, 4, 5] 2i64 } output { [1, 3, 5] }
-- input { [1, 2, 3, 4, 5] -2i64 } output { [5, 3, 1] }
-- input { [1, 2, 3, 4, 5] 0i64 }
-- error: Invalid slice: Index \[::0\] out of bounds for array of shape \[5\]\.

entry window (xs: []i32) (a: i64) (b: i64) = xs[a:b]
entry column [n][m] (xss: [n][m]i32) (k: i64) = map (\r -> r[k:]) xss
entry every (xs: []i32) (s: i64) = xs[::s]
