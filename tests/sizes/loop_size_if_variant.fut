-- An `if` that gives the parameter another size makes the loop's size unknown after
-- the loop (it is not the initial size), and the body is still checked against it.
-- ==
-- input { 2i64 5i64 true } output { 5i64 }
-- input { 2i64 5i64 false } output { 2i64 }

entry main (n: i64) (m: i64) (c: bool) : i64 =
  let r =
    loop acc = replicate n 0i32 for i < 2 do
      let t = if c then replicate m 1 else acc
      in map (+ 1) t
  in length r
