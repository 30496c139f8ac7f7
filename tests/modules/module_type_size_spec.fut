-- Module type specifications with size parameters.
-- ==
-- input { [1, 2, 3] [4, 5, 6] } output { 32 }

module type dotter = { val dot [n] : [n]i32 -> [n]i32 -> i32 }

module D : dotter = {
  def dot [n] (a: [n]i32) (b: [n]i32) = reduce (+) 0 (map2 (*) a b)
}

def main [n] (a: [n]i32) (b: [n]i32) = D.dot a b
