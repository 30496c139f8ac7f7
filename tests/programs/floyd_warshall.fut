-- Floyd-Warshall shortest paths, once as a data-parallel update per pivot and
-- once with nested sequential loops updating two matrices in place, which
-- also gives the routes.
-- ==
-- entry: shortest
-- input { [[0, 3, 1000000, 7], [8, 0, 2, 1000000], [5, 1000000, 0, 1], [2, 1000000, 1000000, 0]] }
-- output { [[0, 3, 5, 6], [5, 0, 2, 3], [3, 6, 0, 1], [2, 5, 7, 0]] }
-- input { [[0, 1, 1000000], [1000000, 0, 1000000], [1000000, 1000000, 0]] }
-- output { [[0, 1, 1000000], [1000000, 0, 1000000], [1000000, 1000000, 0]] }
-- input { [[0, 4, 1, 1000000, 1000000], [1000000, 0, 1000000, 1, 1000000], [1000000, 2, 0, 5, 1000000], [1000000, 1000000, 1000000, 0, 3], [1, 1000000, 1000000, 1000000, 0]] }
-- output { [[0, 3, 1, 4, 7], [5, 0, 6, 1, 4], [7, 2, 0, 3, 6], [4, 7, 5, 0, 3], [1, 4, 2, 5, 0]] }

-- ==
-- entry: reachable_pairs
-- input { [[0, 3, 1000000, 7], [8, 0, 2, 1000000], [5, 1000000, 0, 1], [2, 1000000, 1000000, 0]] }
-- output { 16i64 }
-- input { [[0, 1, 1000000], [1000000, 0, 1000000], [1000000, 1000000, 0]] }
-- output { 4i64 }
-- input { [[0, 4, 1, 1000000, 1000000], [1000000, 0, 1000000, 1, 1000000], [1000000, 2, 0, 5, 1000000], [1000000, 1000000, 1000000, 0, 3], [1, 1000000, 1000000, 1000000, 0]] }
-- output { 25i64 }

-- ==
-- entry: route
-- input { [[0, 3, 1000000, 7], [8, 0, 2, 1000000], [5, 1000000, 0, 1], [2, 1000000, 1000000, 0]] 1i64 0i64 }
-- output { 4i64 [1i64, 2i64, 3i64, 0i64] }
-- input { [[0, 4, 1, 1000000, 1000000], [1000000, 0, 1000000, 1, 1000000], [1000000, 2, 0, 5, 1000000], [1000000, 1000000, 1000000, 0, 3], [1, 1000000, 1000000, 1000000, 0]] 0i64 4i64 }
-- output { 5i64 [0i64, 2i64, 1i64, 3i64, 4i64] }
-- input { [[0, 1, 1000000], [1000000, 0, 1000000], [1000000, 1000000, 0]] 0i64 2i64 }
-- output { 0i64 [-1i64, -1i64, -1i64] }
-- input { [[0, 4, 1, 1000000, 1000000], [1000000, 0, 1000000, 1, 1000000], [1000000, 2, 0, 5, 1000000], [1000000, 1000000, 1000000, 0, 3], [1, 1000000, 1000000, 1000000, 0]] 2i64 2i64 }
-- output { 1i64 [2i64, -1i64, -1i64, -1i64, -1i64] }

-- All-pairs shortest paths (Floyd-Warshall). Missing edges have weight
-- `inf`; sums are clamped so that they never overflow.

def inf : i32 = 1000000

def relax (a: i32) (b: i32) : i32 = if a >= inf || b >= inf then inf else a + b

def shortest_paths [n] (d0: [n][n]i32) : [n][n]i32 =
  loop d = copy d0 for k < n do
    let dk = copy d[k]
    in map (\row -> map2 (\dij dkj -> i32.min dij (relax row[k] dkj)) row dk) d

-- Sequential variant that also records the next hop on each shortest path,
-- updating both matrices in place.
def with_next [n] (d0: [n][n]i32) : ([n][n]i32, [n][n]i64) =
  let next = tabulate_2d n n (\i j -> if i == j then i else if d0[i, j] < inf then j else -1)
  in loop (d, next) = (copy d0, next) for k < n do
       loop (d, next) for i < n do
         loop (d, next) for j < n do
           let via = relax d[i, k] d[k, j]
           in if via < d[i, j]
              then (d with [i, j] = via, next with [i, j] = next[i, k])
              else (d, next)

entry shortest [n] (g: [n][n]i32) : [n][n]i32 = shortest_paths g

entry reachable_pairs [n] (g: [n][n]i32) : i64 =
  shortest_paths g |> flatten |> map (\x -> i64.bool (x < inf)) |> i64.sum

-- The vertices on a shortest route from s to t, padded with -1.
entry route [n] (g: [n][n]i32) (s: i64) (t: i64) : (i64, [n]i64) =
  let (_, next) = with_next g
  let path = replicate n (-1i64)
  let (path, len, _) =
    if next[s, t] < 0 then (path, 0, s)
    else loop (path, len, v) = (path with [0] = s, 1, s) while v != t do
           let v' = next[v, t]
           in (path with [len] = v', len + 1, v')
  in (len, path)
