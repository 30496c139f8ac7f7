-- A range whose bounds do not fit its form is reported with the values of
-- its bounds, in the form it was written.
-- ==
-- entry: upto
-- input { 2 4 } output { [2, 3, 4] }
-- input { 4 2 } error: Invalid range: 4\.\.\.2\.

-- ==
-- entry: stepped
-- input { 9 6 0 } output { [9, 6, 3] }
-- input { 1 1 8 } error: Invalid range: 1\.\.1\.\.<8\.
-- input { 5 7 2 } error: Invalid range: 5\.\.7\.\.>2\.

entry upto (a: i32) (b: i32) = a...b
entry stepped (a: i32) (b: i32) (c: i32) =
  if c == 0 then a..b..>c else if a < c then a..b..<c else a..b..>c
