-- A functor's parameter is in scope in its result signature, so a
-- `with` refinement may mention it (as in `mk_linalg (T: numeric): linalg
-- with t = T.t`).
-- ==
-- input { 41 } output { 42 }

module type has_t = { type t val inc : t -> t }

module mk (P: { type elem val one : elem val add : elem -> elem -> elem })
  : has_t with t = P.elem = {
  type t = P.elem
  def inc (x: t) : t = P.add x P.one
}

module m = mk { type elem = i32 def one = 1i32 def add = (i32.+) }

def main (x: i32) : i32 = m.inc x
