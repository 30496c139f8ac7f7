-- Type parameters 'a, '~a and '^a on definitions.
-- ==
-- input { 7 } output { 7 [7] 8 }

def ident 'a (x: a) : a = x
def keep '~a (x: a) : a = x
def apply '^f 'b (g: f) (h: f -> b) : b = h g

def main (x: i32) : (i32, []i32, i32) =
  (ident x, keep (filter (> 0) [x, -1]), apply (\(y: i32) -> y + 1) (\k -> k x))
