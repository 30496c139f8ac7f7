-- Importing a file that defines a sealed module with an abstract type.
-- ==
-- input { 7 } output { 7 }

import "lib/counter"

def main (n: i32) = counter.value (loop c = counter.zero for _i < n do counter.incr c)
