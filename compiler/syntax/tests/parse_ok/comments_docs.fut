-- | The file.

-- a plain comment
-- | Documented.
-- Second line.
def a = 1 -- trailing

-- | Documented type.
type t = i32
