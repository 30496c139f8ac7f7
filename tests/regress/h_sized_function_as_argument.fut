-- Futhark infers the size arguments of a function with size parameters
-- wherever the function is named, also when it is passed to a SOAC rather
-- than applied (`map split rows`, where the row size is `n + m`). Upstream
-- tests/ad/hist_add.fut splits the rows of a forward-mode Jacobian this way;
-- internalisation failed with "unknown name n".
-- ==
-- input { [1, 2] [7] }
-- output { [[1, 2], [1, 2], [1, 2]] [[7], [7], [7]] }

entry main [n] [m] (xs: [n]i32) (ys: [m]i32) =
  let rows = replicate 3 (xs ++ ys)
  in map split rows |> unzip
