-- A polynomial module built by a functor over a `ring` module type, with
-- multiplication via `reduce_by_index`, Horner evaluation, derivatives and
-- powers; instantiated at i64, f64 and the integers modulo 7.
-- ==
-- entry: mul_i64
-- input { [1i64, 2i64] [3i64, 4i64] }
-- output { [3i64, 10i64, 8i64] }
-- input { [1i64, 0i64, -1i64] [2i64, 1i64] }
-- output { [2i64, 1i64, -2i64, -1i64] }
-- input { [5i64] [0i64, 0i64, 3i64] }
-- output { [0i64, 0i64, 15i64] }

-- ==
-- entry: eval_f64
-- input { [1.0, -3.0, 2.0] 0.5 }
-- output { 0.0 -1.0 }
-- input { [0.5, 0.0, 0.0, 2.0] -1.5 }
-- output { -6.25 13.5 }
-- input { [4.0] 10.0 }
-- output { 4.0 0.0 }

-- ==
-- entry: deriv_f64
-- input { [1.0, -3.0, 2.0] }
-- output { [-3.0, 4.0] }
-- input { [0.5, 0.0, 0.0, 2.0] }
-- output { [0.0, 0.0, 6.0] }
-- input { [7.0] }
-- output { [0.0] }

-- ==
-- entry: pow_mod7
-- input { [1i64, 1i64] 3 2i64 }
-- output { [1i64, 3i64, 3i64, 1i64] 6i64 }
-- input { [3i64, 5i64, 6i64] 2 4i64 }
-- output { [2i64, 2i64, 5i64, 4i64, 1i64] 0i64 }
-- input { [2i64, 1i64] 6 6i64 }
-- output { [1i64, 3i64, 2i64, 6i64, 4i64, 5i64, 1i64] 1i64 }

-- Dense univariate polynomials (coefficients lowest degree first) over any
-- ring, given as a module; applied to i64, f64 and integers modulo 7.

module type ring = {
  type t
  val zero : t
  val one : t
  val + : t -> t -> t
  val * : t -> t -> t
  val from_i64 : i64 -> t
}

module type polynomial = {
  type coeff
  val mul [n] [m] : [n]coeff -> [m]coeff -> []coeff
  val eval [n] : [n]coeff -> coeff -> coeff
  val deriv [n] : [n]coeff -> []coeff
  val pow [n] : [n]coeff -> i32 -> []coeff
}

module mk_poly (R: ring) : polynomial with coeff = R.t = {
  type coeff = R.t

  def mul [n] [m] (a: [n]coeff) (b: [m]coeff) : []coeff =
    let k = n + m - 1
    let terms = flatten (map (\i -> map (\j -> (i + j, a[i] R.* b[j])) (iota m)) (iota n))
    let (is, vs) = unzip terms
    in reduce_by_index (replicate k R.zero) (R.+) R.zero is vs

  def eval [n] (a: [n]coeff) (x: coeff) : coeff =
    loop acc = R.zero for i < n do acc R.* x R.+ a[n - 1 - i]

  def deriv [n] (a: [n]coeff) : []coeff =
    if n <= 1 then [R.zero]
    else map (\i -> R.from_i64 i R.* a[i]) (1..<n)

  def pow [n] (a: [n]coeff) (k: i32) : []coeff =
    loop acc = [R.one] for _i < k do mul acc a
}

module int_ring : ring with t = i64 = {
  type t = i64
  def zero = 0i64
  def one = 1i64
  def (+) = (i64.+)
  def (*) = (i64.*)
  def from_i64 (x: i64) = x
}

module real_ring : ring with t = f64 = {
  type t = f64
  def zero = 0f64
  def one = 1f64
  def (+) = (f64.+)
  def (*) = (f64.*)
  def from_i64 = f64.i64
}

module mod7 : ring with t = i64 = {
  type t = i64
  local def norm (x: i64) = ((x % 7) + 7) % 7
  def zero = 0i64
  def one = 1i64
  def (+) (a: i64) (b: i64) = norm (a i64.+ b)
  def (*) (a: i64) (b: i64) = norm (a i64.* b)
  def from_i64 = norm
}

module pi = mk_poly int_ring
module pf = mk_poly real_ring
module p7 = mk_poly mod7

entry mul_i64 [n] [m] (a: [n]i64) (b: [m]i64) : []i64 = pi.mul a b

entry eval_f64 [n] (a: [n]f64) (x: f64) : (f64, f64) =
  let d = pf.deriv a
  in (pf.eval a x, pf.eval d x)

entry deriv_f64 [n] (a: [n]f64) : []f64 = pf.deriv a

entry pow_mod7 [n] (a: [n]i64) (k: i32) (x: i64) : ([]i64, i64) =
  let p = p7.pow (map mod7.from_i64 a) k
  in (p, p7.eval p x)
