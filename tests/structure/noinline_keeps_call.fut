-- A function marked #[noinline] keeps its call after the standard pipeline;
-- the call of the unmarked one is inlined.
-- ==
-- input { 3 } output { 13 }
-- structure { Apply 1 }

#[noinline]
def twice (x: i32) : i32 = x * 2

def inc (x: i32) : i32 = x + 1

def main (x: i32) : i32 = twice (inc x) + inc (inc x)
