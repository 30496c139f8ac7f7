-- Small arrays built in a branch at each iteration of a loop: each branch
-- builds its array in the `if`'s block, whose allocation moves out of the
-- loop; a branch that passes an array made before the loop shares it, and
-- then the array built in the other branch needs a block of its own (the
-- outer array must come out unchanged).
-- ==
-- input { 5i64 0i64 } output { 66.0 [10.0, 20.0, 30.0] }
-- input { 6i64 1i64 } output { 84.0 [10.0, 20.0, 30.0] }

entry main (n: i64) (k: i64) : (f64, [3]f64) =
  let z = [10.0, 20.0, 30.0]
  let s =
    loop s = 0f64 for i < n do
      let a = if i % 2 == k then [f64.i64 i, 1, 2] else [3, f64.i64 i, 4]
      let b = if i % 3 == 0 then z else map (+ 1) a
      in s + a[0] + a[1] * a[2] + b[0]
  in (s, z)
