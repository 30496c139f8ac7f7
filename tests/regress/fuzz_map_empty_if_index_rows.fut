-- Found by `fut dev --fuzz` (seed 123385; the IR backend disagreed with the
-- interpreter): a `map` over no rows whose function returns `if length xss
-- == 0 then replicate n 0 else xss[i]`, with `xss = reverse (replicate n
-- (iota n))`, gave rows of size 0 where the type says `[0][n]`. An `if`
-- whose branches give a dimension the same size bound outside it (here
-- `reverse`'s, through its own `if`) now has that size, so the row size is
-- known without running the function.
-- ==
-- input { 3i64 empty([0]i64) } output { empty([0][3]i64) empty([0][3]i64) }
-- input { 2i64 [0i64, 1i64, 5i64] }
-- output { [[0i64, 1i64], [0i64, 1i64], [0i64, 1i64]] [[1i64, 0i64], [1i64, 0i64], [1i64, 0i64]] }

entry main [m] (n: i64) (ys: [m]i64) : ([m][n]i64, [m][n]i64) =
  let xss = reverse (replicate n (iota n))
  in ( map (\i -> if length xss == 0 then replicate n 0 else xss[i % n]) ys
     , map (\i -> if i < 0 then replicate n 0 else reverse xss[i % n]) ys )
