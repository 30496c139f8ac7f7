-- The adjoint of a matrix product, whose return sweep sums the adjoints of
-- rows and whole matrices with reductions (acc_to_red): for c = a b and
-- adjoint c̄, ā = c̄ bᵀ and b̄ = aᵀ c̄. The vjp is also checked against jvp:
-- ⟨c̄, J u⟩ = ⟨Jᵀ c̄, u⟩ for each one-hot direction u.
-- ==
-- input { [[1.0, 2.0, 0.5], [3.0, -4.0, 1.0]] [[5.0, 6.0], [7.0, 8.0], [-1.0, 2.0]] [[1.0, 2.0], [0.5, -1.0]] }
-- output { [[17.0, 23.0, 3.0], [-3.5, -4.5, -2.5]] [[2.5, -1.0], [0.0, 8.0], [1.0, 0.0]] true }

def matmul [n][m][p] (a: [n][m]f64) (b: [m][p]f64) : [n][p]f64 =
  map (\row -> map (\col -> f64.sum (map2 (*) row col)) (transpose b)) a

def dot [n][m] (x: [n][m]f64) (y: [n][m]f64) : f64 =
  f64.sum (map2 (\r s -> f64.sum (map2 (*) r s)) x y)

entry main [n][m][p] (a: [n][m]f64) (b: [m][p]f64) (c: [n][p]f64)
    : ([n][m]f64, [m][p]f64, bool) =
  let (da, db) = vjp (\(a, b) -> matmul a b) (a, b) c
  let onehot r k i j = if i == r && j == k then 1 else 0f64
  let ok_a =
    map (\i -> map (\j ->
      let u = tabulate_2d n m (onehot i j)
      let jv = jvp (\a -> matmul a b) a u
      in f64.abs (dot c jv - da[i, j]) < 1e-9) (iota m)) (iota n)
  let ok_b =
    map (\i -> map (\j ->
      let u = tabulate_2d m p (onehot i j)
      let jv = jvp (\b -> matmul a b) b u
      in f64.abs (dot c jv - db[i, j]) < 1e-9) (iota p)) (iota m)
  in (da, db, and (flatten ok_a) && and (flatten ok_b))
