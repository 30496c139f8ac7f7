-- Integer division: / and % round towards minus infinity, // and %%
-- towards zero.  Division by zero is a run-time error.
-- ==
-- input { 7 2 } output { 3 1 3 1 }
-- input { -7 2 } output { -4 1 -3 -1 }
-- input { 7 -2 } output { -4 -1 -3 1 }
-- input { -7 -2 } output { 3 -1 3 -1 }
-- input { 6 3 } output { 2 0 2 0 }
-- input { -6 3 } output { -2 0 -2 0 }
-- input { 0 -5 } output { 0 0 0 0 }
-- input { 1 0 } error: Division by zero
-- input { 0 0 } error: Division by zero

-- ==
-- entry: i8_div
-- input { -7i8 2i8 } output { -4i8 1i8 -3i8 -1i8 }
-- input { -128i8 3i8 } output { -43i8 1i8 -42i8 -2i8 }

-- ==
-- entry: u8_div
-- input { 250u8 7u8 } output { 35u8 5u8 35u8 5u8 }

-- ==
-- entry: mod_div
-- input { -7i64 2i64 } output { -4i64 1i64 -3i64 -1i64 }

def main (x: i32) (y: i32): (i32, i32, i32, i32) = (x / y, x % y, x // y, x %% y)

entry i8_div (x: i8) (y: i8): (i8, i8, i8, i8) = (x / y, x % y, x // y, x %% y)

entry u8_div (x: u8) (y: u8): (u8, u8, u8, u8) = (x / y, x % y, x // y, x %% y)

-- The same operators through the module.
entry mod_div (x: i64) (y: i64): (i64, i64, i64, i64) = (x i64./ y, x i64.% y, x i64.// y, x i64.%% y)
