-- `a..>b` counts down, excluding b.
-- ==
-- input { 5 1 } output { [5, 4, 3, 2] }
-- input { 2 2 } output { empty([0]i32) }

def main (a: i32) (b: i32) : []i32 = a..>b
