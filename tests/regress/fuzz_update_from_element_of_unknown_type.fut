-- Found by `fut dev --fuzz` (seed 447; the checker rejected a valid program):
-- in a lambda checked before the arrays it is mapped over, the element type
-- of `acc` is not known yet where `acc[i]` is read, and the read was taken to
-- share storage with `acc`, so writing it back with `acc with [i] = c` was an
-- error (U002). It is an `i32`, a value of its own.
-- ==
-- input { [1, 2] }
-- output { [[1, 1, 1], [2, 2, 2]] }
-- input { empty([0]i32) }
-- output { empty([0][3]i32) }

entry main [n] (xs: [n]i32) : [n][3]i32 =
  map (\x ->
         loop acc = replicate 3 x for i < 3 do
           let c = acc[i]
           in acc with [i] = c)
      xs
