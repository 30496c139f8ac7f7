-- Temporaries of a parallel map's iterations whose size does not depend on
-- the iteration (three elements, a row of the input) are allocated once per
-- chunk of iterations and reused; one sized by the element itself is
-- allocated at each iteration. Every row must come out as if each had its
-- own blocks.
-- ==
-- input { [[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]] }
-- output { [17.0, 38.0, 62.0] }
-- input { empty([0][4]f64) }
-- output { empty([0]f64) }

entry main [n][m] (xss: [n][m]f64) : [n]f64 =
  map (\xs ->
         let ys = map (* 2) xs
         let t = [xs[0], ys[0], 1]
         let k = i64.f64 xs[0] % 3
         let zs = replicate k t[2]
         in f64.sum ys + f64.sum t + f64.sum zs + f64.sum (reverse ys))
      xss
