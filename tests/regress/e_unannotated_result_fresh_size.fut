-- A function without a return type whose result has a size known only at run time
-- (here from `filter`) makes a new unknown size on every call, exactly as if its
-- result were declared `[]i64`. Futhark therefore rejects zipping the results of two
-- calls ("Sizes ... do not match"); the sizes used to be shared by every call.
-- ==
-- error: S003

def positives_above (x: i64) = filter (> x) (iota 10)

def main = zip (positives_above 1) (positives_above 2)
