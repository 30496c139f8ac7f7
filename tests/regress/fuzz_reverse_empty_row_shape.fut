-- Found by `fut dev --fuzz` (the IR backend disagreed with the interpreter): the
-- interpreter's `reverse` of an empty array lost its row shape (the prelude's
-- `map` over no indices cannot know it), so a `map` over the result made
-- `[0]i32` where the type says `[0][0]i32`. An empty array is now its own
-- reverse.
-- ==
-- input { empty([0]f64) }
-- output { empty([0][0]i32) empty([0][3]f64) }
-- input { [1.0, 2.0] }
-- output { [[0, 0], [0, 0]] [[2.0, 2.0, 2.0], [1.0, 1.0, 1.0]] }

entry main [n] (xs: [n]f64) : ([n][n]i32, [n][3]f64) =
  ( map (\_ -> replicate n 0i32) (reverse xs)
  , map (\x -> replicate 3 x) (reverse xs) )
