-- Script inputs passing a record that holds arrays from one entry point to
-- another: the parameter's type names its sizes (`{n: i64, xs: [n0]i32}`),
-- the value's type does not (`{n: i64, xs: []i32}`); sizes are checked when
-- the entry point runs, not by comparing the types' texts.
-- ==
-- entry: count
-- script input { mk 3i64 } output { 6i64 }
-- script input { mk 0i64 } output { 0i64 }
-- script input { let r = mk 4i64 in grow r } output { 14i64 }

entry mk (n: i64) : {xs: []i32, n: i64} = {xs = map i32.i64 (iota n), n}

entry grow (r: {xs: []i32, n: i64}) : {xs: []i32, n: i64} =
  {xs = r.xs ++ [i32.i64 r.n], n = r.n}

entry count (r: {xs: []i32, n: i64}) : i64 = r.n + i64.i32 (i32.sum r.xs)
