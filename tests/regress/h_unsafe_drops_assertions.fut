-- Futhark performs no run-time checks inside an expression attributed
-- #[unsafe]: a size coercion there (`zip a (b :> [n]i32)`) leaves no
-- assertion behind. Upstream tests/unsafe2.fut states `structure { Assert 0 }`
-- for this; we emitted the coercion's size check.
-- ==
-- input { [1, 2, 3] [4, 5, 6] }
-- output { [5, 7, 9] }
-- structure { Assert 0 }

def main [n] [m] (a: [n]i32) (b: [m]i32) : [n]i32 =
  map (\(x, y) -> x + y) (#[unsafe] zip a (b :> [n]i32))
