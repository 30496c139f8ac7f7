-- A `local` definition of an imported file is not visible to the importer.
-- ==
-- error: T001

import "lib/private"

def main (x: i32) = helper x
