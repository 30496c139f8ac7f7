-- Attributes on declarations and loops, including ones with arguments.
-- ==
-- input { 5 } output { 15 }

#[noinline]
def f (x: i32) = x * 3

#[inline]
def g (x: i32) = x

def main (x: i32) =
  #[unroll] loop acc = 0 for _i < 1 do acc + f (g x) + #[trace(x)] 0
