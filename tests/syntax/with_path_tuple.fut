-- Update paths through tuple components: `t with 0[i] = v`, one after another
-- on a unique tuple parameter.
-- ==
-- input { [1, 2, 3] [4, 5, 6] }
-- output { [0, 2, 3] [4, 5, 0] }

def f [n] (x: *([n]i32, [n]i32)) = (x with 0[0] = 0) with 1[n - 1] = 0

entry main [n] (x: *[n]i32) (y: *[n]i32) = f (x, y)
