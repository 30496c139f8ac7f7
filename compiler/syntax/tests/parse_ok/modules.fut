module type mt = {
  type t
  type~ u 'a
  type^ f = i32 -> i32
  val x : t
  val + : t -> t -> t
  val (*) : t -> t -> t
  val f 'a [n] : [n]a -> i64
  module M : { type s }
  include { val y : i32 }
}
module type mt2 = mt with t = i32
module type mt3 = mt with u 'a = [2]a
module type fn = (P: mt) -> mt with t = P.t
module type fn2 = mt -> mt
module m : mt with t = i32 = {
  type t = i32
  def x = 1
}
module F (P: mt) (Q: mt2) : mt = P
module G = F m m
module H = F (m) (m)
module I = import "foo"
module J = F { type t = i32 def x = 0 }
module K = (m : mt)
module L = \(P: mt) : mt -> P
module N = m.inner
open import "bar"
open m
import "baz"
local def z = 3
local open m
local module X = m
