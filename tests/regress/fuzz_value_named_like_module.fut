-- Found by `fut dev --fuzz` (the checker and the interpreter disagreed):
-- values and modules have namespaces of their own, so a local value named
-- `i32` does not hide the module `i32` in `i32.highest`; a value's field is
-- still found through a name that is also a module's when the module has no
-- such member (`i8.lo`).
-- ==
-- input { 3 }
-- output { 2147483647 3 -128i8 5 }

entry main (x: i32) : (i32, i32, i8, i32) =
  let i32 = x
  let i8 = {lo = 5i32}
  in (i32.highest, i32, i8.lowest, i8.lo)
