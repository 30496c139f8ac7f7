-- A range whose step goes the wrong way is an error.
-- ==
-- input { 5 1 } error: Invalid range
-- input { 1 5 } output { 4i64 }

def main (a: i32) (b: i32) : i64 = length (a..<b)
