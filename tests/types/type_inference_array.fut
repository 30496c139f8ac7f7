-- Element types of array literals and SOAC results are inferred.
-- ==
-- input { 2u8 } output { [2u8, 3u8] [[2u8], [3u8]] }

def main (x: u8) : ([]u8, [][]u8) =
  let a = [x, x + 1]
  in (a, map (\y -> [y]) a)
