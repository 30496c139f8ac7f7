-- Test-block features: tags, compiled-only cases (skipped by the
-- interpreter), named datasets and multi-line values.
-- ==
-- tags { format smoke }
-- input { [1, 2,
--          3, 4] }
-- output { 10 }
-- compiled input { [5, 5] } output { 10 }
-- "empty" input { empty([0]i32) } output { 0 }

def main (xs: []i32) : i32 = i32.sum xs
