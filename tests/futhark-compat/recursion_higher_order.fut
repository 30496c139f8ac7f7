-- A recursive function may take a function when every recursive call passes it
-- on unchanged and gives all the arguments; a first-order recursive function
-- may be applied partially.
-- ==
-- input { 5i64 }
-- output { 32i64 15i64 }

def repeat (n: i64) (f: i64 -> i64) (x: i64) : i64 =
  if n == 0 then x else repeat (n - 1) f (f x)

def sum_to (n: i64) (acc: i64) : i64 =
  if n == 0 then acc else sum_to (n - 1) (acc + n)

def main (n: i64) = (repeat n (* 2) 1, (sum_to n) 0)
