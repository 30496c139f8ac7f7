-- Script inputs giving values of a module's abstract type, data read with the
-- `$loaddata` and `$loadbytes` builtins, arrays built from results, and a
-- script read from a file.
-- ==
-- entry: get
-- script input { add (add (start 1) 2) 3 } output { 6i64 }
-- script input { let c = start 10 in add c (get c) } output { 20i64 }
-- script input { let (a, b) = $loaddata "data/two.in" in add (start a) b } output { 12i64 }
-- script input { sum_all [get (start 1), 2, get (add (start 3) 4)] } output { 10i64 }
-- script input { count_bytes ($loadbytes "data/bytes.txt") } output { 6i64 }
-- script input @ data/counter.script output { 42i64 }
-- script input { start -1 } error: Assertion

module type counter = {
  type t
  val start : i64 -> t
  val add : t -> i64 -> t
  val get : t -> i64
}

module C : counter = {
  type t = {total: i64, steps: i64}
  def start (x: i64) : t =
    assert (x >= 0) {total = x, steps = 0}
  def add (c: t) (x: i64) : t = {total = c.total + x, steps = c.steps + 1}
  def get (c: t) : i64 = c.total
}

entry start (x: i64) : C.t = C.start x

entry add (c: C.t) (x: i64) : C.t = C.add c x

entry get (c: C.t) : i64 = C.get c

entry count_bytes (bs: []u8) : C.t = C.start (length bs)

entry sum_all (xs: []i64) : C.t = C.start (i64.sum xs)
