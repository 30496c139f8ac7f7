-- Futhark accepts a recursive higher-order function given a closure over
-- local variables: a lambda using a parameter of the caller, a lambda
-- using a local function that itself uses one, an operator section with a
-- run-time operand, or a partial application whose argument is an array. Like upstream tests/hof/recursion0.fut and recursion2.fut,
-- but with captured values; internalisation inlined the calls and reported
-- recursion.
-- ==
-- input { 3 10 2 [1, 2, 3] }
-- output { 16 22 16 [7, 8, 9] }

def iterate_n (f: i32 -> i32) (n: i32) (x: i32) : i32 =
  if n <= 0 then x else iterate_n f (n - 1) (f x)

def rounds [m] (f: [m]i32 -> [m]i32) (n: i32) (xs: [m]i32) : [m]i32 =
  if n <= 0 then xs else rounds f (n - 1) (f xs)

def add_all [m] (ys: [m]i32) (xs: [m]i32) : [m]i32 = map2 (+) xs ys

entry main (n: i32) (x: i32) (k: i32) (xs: []i32) =
  let twice_k y = y + 2 * k
  in ( iterate_n (\y -> y + k) n x
     , iterate_n (\y -> twice_k y) n x
     , iterate_n (+ k) n x
     , rounds (add_all (map (\_ -> k) xs)) n xs )
