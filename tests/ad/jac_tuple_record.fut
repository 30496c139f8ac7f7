-- Four-way Jacobian (jvp, vjp, jmp, mjp over one-hot seeds) of a function
-- whose argument is a tuple holding a record and whose result is a record
-- holding a tuple, with the seeds themselves tuples and records (built
-- from one-hot vectors), against the same function with its argument and
-- result packed into arrays.  g (s, {a, b = [b0, b1]}) =
--   {x = s * a, y = (a + b0 * b1, [s * b0, sin b1])}
-- At (s, a, b0, b1) = (2, 3, 0.5, -1), rows (x, y.0, y.1[0], y.1[1]):
--   [3, 2, 0, 0], [0, 1, -1, 0.5], [0.5, 0, 2, 0], [0, 0, 0, cos(-1)]
-- ==
-- entry: jac
-- input { [2.0, 3.0, 0.5, -1.0] }
-- output { [[3.0, 2.0, 0.0, 0.0], [0.0, 1.0, -1.0, 0.5], [0.5, 0.0, 2.0, 0.0],
--           [0.0, 0.0, 0.0, 0.5403023058681398]] }

-- ==
-- entry: agrees agrees_structured
-- input { [2.0, 3.0, 0.5, -1.0] } output { true }
-- input { [-0.5, 1.25, 4.0, 0.3] } output { true }

import "lib/jacobian"

type point = (f64, {a: f64, b: [2]f64})
type result = {x: f64, y: (f64, [2]f64)}

def g ((s, r): point) : result =
  {x = s * r.a, y = (r.a + r.b[0] * r.b[1], [s * r.b[0], f64.sin r.b[1]])}

def unpack (v: [4]f64) : point = (v[0], {a = v[1], b = [v[2], v[3]]})
def pack ((s, r): point) : [4]f64 = [s, r.a, r.b[0], r.b[1]]
def unpack_out (v: [4]f64) : result = {x = v[0], y = (v[1], [v[2], v[3]])}
def pack_out (r: result) : [4]f64 = [r.x, r.y.0, r.y.1[0], r.y.1[1]]

def f (v: [4]f64) : [4]f64 = pack_out (g (unpack v))

entry jac (v: [4]f64) : [4][4]f64 = jacobian 4 f v
entry agrees (v: [4]f64) : bool = agree 4 f v

entry agrees_structured (v: [4]f64) : bool =
  let p = unpack v
  let by_jvp = transpose (map (\j -> pack_out (jvp g p (unpack (onehot 4 j)))) (iota 4))
  let by_vjp = map (\i -> pack (vjp g p (unpack_out (onehot 4 i)))) (iota 4)
  let by_jmp = transpose (map pack_out (jmp g p (map unpack (eye 4))))
  let by_mjp = map pack (mjp g p (map unpack_out (eye 4)))
  let packed = jac_vjp 4 f v
  in close 1e-12 packed by_jvp && close 1e-12 packed by_vjp
     && close 1e-12 packed by_jmp && close 1e-12 packed by_mjp
