-- Current Futhark (language reference, "Recursive functions") allows a
-- top-level function to call itself.
-- ==
-- input { 5i64 } output { 120i64 }

def fact (n: i64) : i64 = if n <= 1 then 1 else n * fact (n - 1)

def main (n: i64) = fact n
