-- Futhark infers the sizes of `split` inside a lambda from the enclosing
-- entry point's size parameters, which the lambda's text never names. Given
-- to a recursive function, the lambda was taken to capture nothing and its
-- specialisation referred to the caller's sizes ("ill-typed IR"). Like
-- upstream tests/hof/recursion0.fut, with a size-dependent lambda.
-- ==
-- input { [1, 2] [3] 2 }
-- output { [1, 2, 3] }

def repeat_n [m] (f: [m]i32 -> [m]i32) (n: i32) (xs: [m]i32) : [m]i32 =
  if n <= 0 then xs else repeat_n f (n - 1) (f xs)

entry main [a] [b] (xs: [a]i32) (ys: [b]i32) (n: i32) =
  repeat_n (\zs -> let (p, q) = split zs in p ++ q) n (xs ++ ys)
