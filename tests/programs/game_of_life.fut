-- Conway's game of life on a torus, several generations.
-- ==
-- input { [[0, 0, 0, 0, 0], [0, 0, 1, 0, 0], [0, 0, 1, 0, 0], [0, 0, 1, 0, 0], [0, 0, 0, 0, 0]] 1 }
-- output { [[0, 0, 0, 0, 0], [0, 0, 0, 0, 0], [0, 1, 1, 1, 0], [0, 0, 0, 0, 0], [0, 0, 0, 0, 0]] 3 }
-- input { [[0, 0, 0, 0, 0], [0, 0, 1, 0, 0], [0, 0, 1, 0, 0], [0, 0, 1, 0, 0], [0, 0, 0, 0, 0]] 2 }
-- output { [[0, 0, 0, 0, 0], [0, 0, 1, 0, 0], [0, 0, 1, 0, 0], [0, 0, 1, 0, 0], [0, 0, 0, 0, 0]] 3 }
-- input { [[1, 1, 0, 0], [1, 1, 0, 0], [0, 0, 0, 0], [0, 0, 0, 0]] 5 }
-- output { [[1, 1, 0, 0], [1, 1, 0, 0], [0, 0, 0, 0], [0, 0, 0, 0]] 4 }

def neighbours [n][m] (board: [n][m]i32) (i: i64) (j: i64) : i32 =
  let offs = [-1, 0, 1]
  in i32.sum (map (\di ->
       i32.sum (map (\dj ->
         if di == 0 && dj == 0 then 0
         else board[(i + di + n) % n, (j + dj + m) % m]) offs)) offs)

def step [n][m] (board: [n][m]i32) : [n][m]i32 =
  tabulate_2d n m (\i j ->
    let k = neighbours board i j
    let alive = board[i, j] == 1
    in if (alive && (k == 2 || k == 3)) || (!alive && k == 3) then 1 else 0)

def main [n][m] (board: [n][m]i32) (gens: i32) : ([n][m]i32, i32) =
  let final = loop b = board for _i < gens do step b
  in (final, i32.sum (flatten final))
