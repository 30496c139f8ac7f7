-- Futhark accepts a recursive function whose parameter is a function and
-- which passes that function on to itself; the argument may be a lambda, an
-- operator section or a partial application, as long as it captures no
-- local variable. Upstream tests/hof/recursion0.fut and recursion2.fut do
-- this; internalisation inlined the calls and reported recursion.
-- ==
-- entry: lambda section partial
-- input { 3 10 } output { 13 }
-- input { 0 10 } output { 10 }

def iterate_n (f: i32 -> i32) (n: i32) (x: i32) : i32 =
  if n <= 0 then x else iterate_n f (n - 1) (f x)

def rounds [m] (f: [m]i32 -> [m]i32) (n: i32) (xs: [m]i32) : [m]i32 =
  if n <= 0 then xs else rounds f (n - 1) (f xs)

entry lambda (n: i32) (x: i32) = iterate_n (\y -> y + 1) n x

entry section (n: i32) (x: i32) = iterate_n (+1) n x

entry partial (n: i32) (x: i32) = i32.sum (rounds (map (+1)) n [x, 0]) - n
