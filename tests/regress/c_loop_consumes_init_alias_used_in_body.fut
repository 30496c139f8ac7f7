-- A loop whose body consumes its parameter consumes the initial value
-- (`d`) and every alias of it; `dt = transpose d` aliases `d`, so reading
-- `dt` inside the loop body uses a consumed value.
-- ==
-- error: U00[123]|consumed

def main (n: i64) (d: *[][]i32) : [][]i32 =
  let dt = transpose d
  in loop d for i < n do
       let d[i, 0] = dt[0, i] in d
