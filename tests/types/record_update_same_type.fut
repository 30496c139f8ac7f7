-- The accepted variant of `err_record_update_changes_type.fut`: the new
-- value has the field's type, also through a nested path and `let r.f = v`.
-- ==
-- input { 1 2 } output { 7 2 true }

def main (x: i32) (y: i32) : (i32, i32, bool) =
  let r = {x, y, inner = {flag = false}}
  let s = r with x = 7
  let s.inner.flag = true
  in (s.x, s.y, s.inner.flag)
