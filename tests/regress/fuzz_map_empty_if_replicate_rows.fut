-- Found by `fut dev --fuzz` (seed 724; the IR backend disagreed with the
-- interpreter): a `map` whose function returns `if c then replicate k a else
-- replicate k b` gave its rows size 0 when the array mapped over was empty,
-- where the type says `[0][k]`. Both branches give the rows the size `k`,
-- which does not depend on the element, so the rows have it even with no
-- element to run the function on.
-- ==
-- input { empty([0]i32) true 3i64 }
-- output { empty([0][3]i32) empty([0][2][3]i32) }
-- input { [1, 2] false 2i64 }
-- output { [[0, 0], [0, 0]] [[[1, 1], [0, 0]], [[2, 2], [0, 0]]] }

entry main [n] (xs: [n]i32) (c: bool) (k: i64) : ([n][k]i32, [n][2][k]i32) =
  ( map (\x -> if c then replicate k x else replicate k 0) xs
  , map (\x -> if c || x > 0 then [replicate k x, replicate k 0]
               else [replicate k 0, replicate k x]) xs )
