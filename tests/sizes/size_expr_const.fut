-- Size expressions with constants such as [4*d] and [d+1].
-- ==
-- input { [1, 2] } output { [1, 2, 1, 2, 1, 2, 1, 2] [0, 1, 2] }

def rep4 [d] (xs: [d]i32) : [4 * d]i32 = flatten (replicate 4 xs) :> [4 * d]i32
def cons [d] (x: i32) (xs: [d]i32) : [d + 1]i32 = [x] ++ xs :> [d + 1]i32

def main [d] (xs: [d]i32) : ([]i32, []i32) = (rep4 xs, cons 0 xs)
