-- | N-body-ish.
import "lib/github.com/diku-dk/sorts/radix_sort"

module vec3 = mk_vspace_3d f32
type vec3 = vec3.vector
type matrix [n][m] = [n][m]f32

def epsilon : f32 = 1e-9

def accel (x: vec3) (y: vec3) (m: f32) : vec3 =
  let r = vec3.(y - x)
  let rsqr = vec3.dot r r + epsilon
  let inv_dist = 1 / f32.sqrt rsqr
  let inv_dist3 = inv_dist * inv_dist * inv_dist
  let s = m * inv_dist3
  in vec3.scale s r

def step [n] (dt: f32) (pos: [n]vec3) (vel: [n]vec3) (mass: [n]f32) : ([n]vec3, [n]vec3) =
  let accels = map (\x -> reduce_comm (vec3.+) vec3.zero (map2 (accel x) pos mass)) pos
  let vel' = map2 (\v a -> vec3.(v + scale dt a)) vel accels
  let pos' = map2 (vec3.+) pos (map (vec3.scale dt) vel')
  in (pos', vel')

def mandel (limit: i32) (c: (f32, f32)) : i32 =
  let (cr, ci) = c
  let (_, _, i) =
    loop (zr, zi, i) = (0f32, 0f32, 0) while i < limit && zr * zr + zi * zi < 4 do
      (zr * zr - zi * zi + cr, 2 * zr * zi + ci, i + 1)
  in i

def lu [n] (a: *[n][n]f32) : [n][n]f32 =
  loop a for k < n do
    let a = a with [k+1:, k] = map (/ a[k, k]) a[k+1:, k]
    in a

def classify (x: i32) =
  if x < 0 then -1
  else if x == 0 then 0
  else 1

def sum_pairs [n] (xs: [n](i32, i32)) : (i32, i32) =
  reduce (\(a, b) (c, d) -> (a + c, b + d)) (0, 0) xs

def hist_test (k: i64) (is: []i64) (vs: []f32) =
  reduce_by_index (replicate k 0f32) (+) 0 is vs

def conv = f32.i64 3 + f32.from_fraction 1 2 + (i64.f32 2.5 |> f32.i64)

def pipes (xs: []f32) =
  xs
  |> map (* 2) -- double
  |> filter (> 0)
  |> (\ys -> (ys, length ys))
  |> (.1)

def tr [n][m] (xss: matrix [n][m]) : matrix [m][n] = transpose xss

def opt (x: i32) : opt i32 =
  match x
  case 0 -> #none
  case n -> #some n

type opt 'a = #none | #some a

def tup = (1, 2.0, 'c', "str", true)

entry main [n] (xs: [n]f32) (ys: [n]f32) : f32 =
  let zs = map2 (+) xs ys
  let w = #[unsafe] zs[0]
  let m = zs[1:n-1] :> [n-2]f32
  in f32.sum zs + w + f32.sum m

module type number = {
  type t
  val + : t -> t -> t
  val zero : t
}

module sum_of (N: number) = {
  def sum [n] (xs: [n]N.t) : N.t = reduce (N.+) N.zero xs
}

module i32_num = { type t = i32 def (+) = (i32.+) def zero = 0i32 }
module S = sum_of i32_num
def total = S.sum [1, 2, 3]
