-- `local` declarations are visible in their file/module but not exported.
-- ==
-- input { 4 } output { 41 }

import "lib/private"

def main (x: i32) = public_fn x
