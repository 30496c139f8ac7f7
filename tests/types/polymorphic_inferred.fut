-- Functions without annotations are generalised (let-polymorphism at top level).
-- ==
-- input { 5 } output { 5 [5, 5] true }

def dup x = [x, x]
def const x _ = x

def main (x: i32) : (i32, []i32, bool) = (const x true, dup x, const true x)
