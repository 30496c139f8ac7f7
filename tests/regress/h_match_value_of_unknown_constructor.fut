-- Futhark matches a sum value returned by a function on every constructor
-- of its type, also when the function only ever builds one of them and the
-- case for that one is not the last. Upstream tests/sumtypes/sumtype53.fut
-- (a function returning #foo, matched with #foo then #bar) failed to
-- internalise with "no case matches".
-- ==
-- input { [1, 2, -1, 3] }
-- output { 1i64 4i64 }

type^ either '~t = #left t | #right t

def wrap_left 'a '~t (f: a -> t) (x: a) : either t = #left (f x)

entry main (xs: []i32) =
  let count v = match v
                case #left ys -> length ys
                case #right ys -> length ys + 100
  in (count (wrap_left (filter (< 0)) xs), count (wrap_left (map (* 2)) xs))
