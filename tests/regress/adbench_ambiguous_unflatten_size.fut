-- The sizes of `unflatten ys` here are fixed by nothing: `g` takes any [a][b] array,
-- and `zs` fixes only a, not b. Futhark rejects such a program (an ambiguous size
-- from the instantiation of `unflatten`'s size parameter), and so does `fut check`
-- (T006). It used to be accepted, and then the reference interpreter failed with
-- "unknown or consumed variable m" and internalisation with "unknown name m". Found
-- while computing the ADBench LSTM Jacobian with one `jvp` per parameter
-- (`lstm_objective (unflatten m) ...` where only the result row count was fixed).
-- ==
-- error: T006

def g [a] [b] (xs: [a][b]f64) (zs: [a]f64) : f64 = f64.sum (flatten xs) + f64.sum zs

def main (ys: [6]f64) (zs: [2]f64) : f64 = g (unflatten ys) zs
