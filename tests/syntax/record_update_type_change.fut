-- A record update may not change the type of the field: "The type of the
-- field must remain unchanged" (Futhark's language reference, `r with f = e`).
-- ==
-- error: T002

def main (v: i32) : (i32, bool) =
  let r = {a = v, b = 0}
  let r' = r with b = true
  in (r'.a, r'.b)
