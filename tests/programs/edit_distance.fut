-- Dynamic programming with in-place updates inside nested loops: Levenshtein
-- distance with two rolling rows, and LCS length with a full table.  Strings are
-- arrays of u8 character codes.
-- ==
-- entry: levenshtein_
-- input { [107u8, 105u8, 116u8, 116u8, 101u8, 110u8] [115u8, 105u8, 116u8, 116u8, 105u8, 110u8, 103u8] }
-- output { 3 }
-- input { [102u8, 108u8, 97u8, 119u8] [108u8, 97u8, 119u8, 110u8] }
-- output { 2 }
-- input { empty([0]u8) [97u8, 98u8, 99u8] }
-- output { 3 }
-- input { [105u8, 110u8, 116u8, 101u8, 110u8, 116u8, 105u8, 111u8, 110u8] [101u8, 120u8, 101u8, 99u8, 117u8, 116u8, 105u8, 111u8, 110u8] }
-- output { 5 }
-- input { [115u8, 97u8, 109u8, 101u8] [115u8, 97u8, 109u8, 101u8] }
-- output { 0 }
-- input { [97u8] empty([0]u8) }
-- output { 1 }

-- ==
-- entry: lcs_length
-- input { [107u8, 105u8, 116u8, 116u8, 101u8, 110u8] [115u8, 105u8, 116u8, 116u8, 105u8, 110u8, 103u8] }
-- output { 4 }
-- input { [102u8, 108u8, 97u8, 119u8] [108u8, 97u8, 119u8, 110u8] }
-- output { 3 }
-- input { empty([0]u8) [97u8, 98u8, 99u8] }
-- output { 0 }
-- input { [105u8, 110u8, 116u8, 101u8, 110u8, 116u8, 105u8, 111u8, 110u8] [101u8, 120u8, 101u8, 99u8, 117u8, 116u8, 105u8, 111u8, 110u8] }
-- output { 5 }
-- input { [115u8, 97u8, 109u8, 101u8] [115u8, 97u8, 109u8, 101u8] }
-- output { 4 }
-- input { [97u8] empty([0]u8) }
-- output { 0 }

-- ==
-- entry: distances
-- input { [[99u8, 97u8, 116u8], [99u8, 117u8, 116u8], [99u8, 111u8, 116u8], [97u8, 99u8, 116u8]] [99u8, 97u8, 115u8, 116u8] }
-- output { [1, 2, 2, 2] }
-- input { [[97u8, 98u8, 99u8, 100u8, 101u8], [98u8, 99u8, 100u8, 101u8, 97u8], [101u8, 100u8, 99u8, 98u8, 97u8]] [97u8, 98u8, 100u8, 99u8, 101u8] }
-- output { [2, 4, 4] }

-- Levenshtein distance with two rolling rows updated in place.
def levenshtein [n] [m] (a: [n]u8) (b: [m]u8) : i32 =
  let prev = map i32.i64 (iota (m + 1))
  let cur = replicate (m + 1) 0i32
  let (prev, _) =
    loop (prev, cur) for i < n do
      let cur[0] = i32.i64 i + 1
      let cur =
        loop cur for j < m do
          let sub = prev[j] + if a[i] == b[j] then 0 else 1
          let v = i32.min sub (i32.min (prev[j + 1] + 1) (cur[j] + 1))
          in cur with [j + 1] = v
      in (cur, prev)
  in prev[m]

-- Longest common subsequence with a full table.
def lcs [n] [m] (a: [n]u8) (b: [m]u8) : i32 =
  let table = replicate (n + 1) (replicate (m + 1) 0i32)
  let table =
    loop table for i in 1..<n + 1 do
      loop table for j in 1..<m + 1 do
        let v = if a[i - 1] == b[j - 1] then table[i - 1, j - 1] + 1
                else i32.max table[i - 1, j] table[i, j - 1]
        in table with [i, j] = v
  in table[n, m]

entry levenshtein_ [n] [m] (a: [n]u8) (b: [m]u8) : i32 = levenshtein a b

entry lcs_length [n] [m] (a: [n]u8) (b: [m]u8) : i32 = lcs a b

-- Distance from every word of a dictionary to a query, in parallel.
entry distances [k] [l] [m] (words: [k][l]u8) (q: [m]u8) : [k]i32 =
  map (\w -> #[sequential] levenshtein w q) words
