-- A map over iota reads the index instead of an array: no Iota remains.
-- ==
-- input { 4i64 } output { [0i64, 1i64, 4i64, 9i64] }
-- structure { Iota 0 Screma 1 }

def main (n: i64) : []i64 = map (\i -> i * i) (iota n)
