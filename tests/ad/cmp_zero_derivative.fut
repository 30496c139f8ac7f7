-- Comparisons and boolean operators have a zero derivative in both modes,
-- as in Futhark: the tangent of a bool result is false whatever the seed,
-- and a bool cotangent (true or false) gives the operands zero adjoints.
-- A comparison next to a differentiable result leaves that result's
-- derivative alone.
-- ==
-- entry: fwd_eq
-- input { 1.0 2.0 } output { false false }
-- input { 1.5 1.5 } output { false false }

-- ==
-- entry: rev_eq
-- input { 1.0 2.0 } output { 0.0 0.0 }
-- input { 1.5 1.5 } output { 0.0 0.0 }

-- ==
-- entry: fwd_logic
-- input { 1.0 2.0 } output { false false }
-- input { 3.0 3.0 } output { false false }

-- ==
-- entry: rev_logic
-- input { 1.0 2.0 } output { 0.0 0.0 }
-- input { 3.0 3.0 } output { 0.0 0.0 }

-- ==
-- entry: rev_mixed
-- input { 2.0 5.0 } output { 5.0 2.0 }
-- input { 4.0 4.0 } output { 4.0 4.0 }

-- ==
-- entry: rev_int_cmp
-- input { 3i32 3i32 } output { 0i32 0i32 }
-- input { 3i32 8i32 } output { 0i32 0i32 }

entry fwd_eq (x: f64) (y: f64) : (bool, bool) =
  ( jvp (\(a, b) -> f64.(a == b)) (x, y) (1, 0)
  , jvp (\(a, b) -> f64.(a == b)) (x, y) (0, 1)
  )

entry rev_eq (x: f64) (y: f64) : (f64, f64) =
  vjp (\(a, b) -> f64.(a == b)) (x, y) true

def logic (a: f64, b: f64) : bool =
  !(a < b) && (a >= b || a != b)

entry fwd_logic (x: f64) (y: f64) : (bool, bool) =
  (jvp logic (x, y) (1, 1), jvp logic (x, y) (2, -1))

entry rev_logic (x: f64) (y: f64) : (f64, f64) =
  vjp logic (x, y) true

entry rev_mixed (x: f64) (y: f64) : (f64, f64) =
  vjp (\(a, b) -> (a <= b, a * b)) (x, y) (true, 1)

entry rev_int_cmp (x: i32) (y: i32) : (i32, i32) =
  vjp (\(a, b) -> a == b) (x, y) true
