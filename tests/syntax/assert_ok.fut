-- `assert c e` returns e when c holds and fails otherwise.
-- ==
-- input { 4 } output { 2 }
-- input { 0 } error: Assertion is false

def main (x: i32) = assert (x > 0) (x / 2)
