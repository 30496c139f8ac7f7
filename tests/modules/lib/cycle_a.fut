-- Library half of an import cycle (cycle_a -> cycle_b -> cycle_a).

import "cycle_b"

def a (x: i32) = x + 1
