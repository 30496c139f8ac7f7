-- Anonymous module types and anonymous structures as functor arguments.
-- ==
-- input { 10 } output { 13 20 }

module Scale (P: { val factor : i32 val offset : i32 }) = {
  def apply (x: i32) = x * P.factor + P.offset
}

module A = Scale { def factor = 1i32 def offset = 3i32 }
module B : { val apply : i32 -> i32 } = Scale { def factor = 2i32 def offset = 0i32 }

def main (x: i32) : (i32, i32) = (A.apply x, B.apply x)
