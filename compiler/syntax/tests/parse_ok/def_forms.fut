def const : i32 = 1
def id 'a (x: a) : a = x
def size [n] (xs: [n]i32) : i64 = n
def lifted '^f '~s (x: f) = x
def tuple_param ((a, b): (i32, i32)) = a + b
def record_param {x, y = yy, z: i32} = x + yy + z
def wild _ = 0
entry main (xs: []i32) = xs
let old_style x = x
