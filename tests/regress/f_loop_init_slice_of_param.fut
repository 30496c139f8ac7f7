-- A loop whose initial value is a slice (`take`) of a non-unique entry parameter;
-- the body does not consume the loop parameter, so nothing needs to be unique.
-- --backend=ir: "internalised program rejected: the output of pass `inline` is not a
-- valid program: in `entry_main`: `x` is consumed but is a non-unique parameter".
-- Found by tests/programs/kmeans_hist.fut (k-means started from `take k ps`).
-- ==
-- input { [[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]] } output { [[1.0, 2.0], [5.0, 6.0]] }
def update [k] [d] (cs: [k][d]f64) : [k][d]f64 =
  map3 (\c s cnt -> if cnt == 0 then c else map (+ 1) s) cs cs (iota k)
entry main [n] [d] (ps: [n][d]f64) : [2][d]f64 =
  loop cs = take 2 ps for _i < 2 do update cs
