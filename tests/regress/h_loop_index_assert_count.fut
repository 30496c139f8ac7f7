-- Futhark proves the index of `xs[i]` in bounds in a loop `for i < n` over
-- `xs: [n]t` and keeps no assertion for it. Upstream tests/loop16.fut states
-- `structure { Assert 0 }`; here bounds checks are never `Assert`s (they are
-- part of indexing, see tests/README.md), so the count agrees.
-- ==
-- input { [1, 2, 3] }
-- output { 6 }
-- structure { Assert 0 Loop 1 }

def main [n] (xs: [n]i32) : i32 = loop acc = 0 for i < n do acc + xs[i]
