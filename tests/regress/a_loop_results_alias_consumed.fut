-- The loop body consumes `m` (in-place update), so the loop parameter `m`
-- is unique; the body may then not return, alongside the new `m`, a row
-- of it (`m[i]`) as another loop value: the two results would alias.
-- ==
-- error: U00[123]|alias

def main (k: i64) : [][]i32 =
  let (_, m) =
    loop (r, m) = (replicate k 0i32, replicate k (replicate k 0i32))
    for i < k do
      let m[i] = replicate k (i32.i64 i)
      in (m[i], m)
  in m
