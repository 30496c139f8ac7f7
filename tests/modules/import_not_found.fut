-- Importing a file that does not exist.
-- ==
-- error: I001

import "lib/no_such_file"
def main = 1i32
