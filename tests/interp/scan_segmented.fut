-- A segmented sum written as a scan over (flag, value) pairs.
-- ==
-- input { [true, false, false, true, false] [1, 2, 3, 4, 5] } output { [1, 3, 6, 4, 9] }

def main (flags: []bool) (vs: []i32) : []i32 =
  let op (fa: bool, a: i32) (fb: bool, b: i32) = (fa || fb, if fb then b else a + b)
  in (unzip (scan op (false, 0) (zip flags vs))).1
