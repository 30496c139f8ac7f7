-- Integer matrix power by repeated squaring, checked against naive
-- repeated multiplication; arithmetic wraps on overflow.
-- ==
-- input { [[1, 1], [1, 0]] 10 } output { [[89, 55], [55, 34]] true }
-- input { [[2, 0], [0, 3]] 5 } output { [[32, 0], [0, 243]] true }
-- input { [[1, 2], [3, 4]] 0 } output { [[1, 0], [0, 1]] true }
-- input { [[1, 1], [1, 0]] 50 } output { [[-1109825406, -298632863], [-298632863, -811192543]] true }

def matmul [n] (a: [n][n]i32) (b: [n][n]i32) : [n][n]i32 =
  map (\row -> map (\col -> i32.sum (map2 (*) row col)) (transpose b)) a

def identity (n: i64) : [n][n]i32 =
  tabulate_2d n n (\i j -> i32.bool (i == j))

def fast_pow [n] (a: [n][n]i32) (k: i32) : [n][n]i32 =
  let (res, _, _) =
    loop (res, base, e) = (identity n, a, k) while e > 0 do
      let res = if e % 2 == 1 then matmul res base else res
      in (res, matmul base base, e / 2)
  in res

def slow_pow [n] (a: [n][n]i32) (k: i32) : [n][n]i32 =
  loop res = identity n for _i < k do matmul res a

def main [n] (a: [n][n]i32) (k: i32) : ([n][n]i32, bool) =
  let p = fast_pow a k
  let q = slow_pow a k
  in (p, and (map2 (\r s -> and (map2 (==) r s)) p q))
