-- In-place sugar for records: `let r.f = v` rebinds `r` with field `f` replaced,
-- also for nested fields.
-- ==
-- input { 5 } output { 12 7 }
-- input { -1 } output { 12 1 }

def main (x: i32) : (i32, i32) =
  let r = {a = x, b = 2, inner = {c = x + 2}}
  let r.a = 10
  let r.inner.c = r.inner.c * 1
  in (r.a + r.b, r.inner.c)
