-- A user-defined operator takes the precedence and associativity of its
-- leading character: `*^` binds like `*`, `+^` like `+`.
-- ==
-- input { 2 3 4 } output { 14 20 }

def (*^) (x: i32) (y: i32) = x * y
def (+^) (x: i32) (y: i32) = x + y

def main (a: i32) (b: i32) (c: i32) : (i32, i32) =
  (a +^ b *^ c, (a +^ b) *^ c)
