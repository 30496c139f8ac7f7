-- Operators defined in modules, used qualified and through local open.
-- ==
-- input { 3 4 } output { 25 25 }

module P = {
  def (<+>) (a: i32) (b: i32) = a * a + b * b
}

def main (a: i32) (b: i32) : (i32, i32) = (a P.<+> b, P.(a <+> b))
