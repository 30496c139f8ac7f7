-- `e : t` ascribes a type, which also fixes overloaded literals.
-- ==
-- input {} output { 3u16 2.0f32 [1i64, 2i64] }

def main : (u16, f32, []i64) = (1 + 2 : u16, (2 : f32), ([1, 2] : []i64))
