def f [n][m] (xss: [n][m]f32) : [m][n]f32 = transpose xss
def g (n: i64) : [n]i32 = replicate n 0
def h [n] (xs: [n]i32) : ?[k].[k]i32 = filter (> 0) xs
def u (xs: *[]i32) : *[]i32 = xs
def flat [n][m] (xs: [n][m]i32) : [n*m]i32 = flatten xs
