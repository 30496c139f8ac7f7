-- Two files that import each other form an import cycle.
-- ==
-- error: I002

import "lib/cycle_a"
def main = a 1
