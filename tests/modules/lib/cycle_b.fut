-- Library half of an import cycle (cycle_b -> cycle_a -> cycle_b).

import "cycle_a"

def b (x: i32) = x + 2
