def f (x: i32) = if x = 1 then 0 else 1
