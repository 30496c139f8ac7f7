-- Insertion sort with in-place swaps in nested loops, and a check that the
-- result is sorted and a permutation (same sum and length).
-- ==
-- input { [5, 2, 9, 1, 5, 6] } output { [1, 2, 5, 5, 6, 9] true }
-- input { [3, 2, 1] } output { [1, 2, 3] true }
-- input { [1] } output { [1] true }
-- input { empty([0]i32) } output { empty([0]i32) true }
-- input { [-1, -3, 0, 2, -3] } output { [-3, -3, -1, 0, 2] true }

def insertion_sort [n] (xs: [n]i32) : [n]i32 =
  loop a = copy xs for i in 1..<(i64.max 1 n) do
    let (a, _) =
      loop (a, j) = (a, i) while j > 0 && a[j - 1] > a[j] do
        let x = a[j]
        let y = a[j - 1]
        let a[j] = y
        let a[j - 1] = x
        in (a, j - 1)
    in a

def is_sorted [n] (xs: [n]i32) : bool =
  and (map (\i -> i == 0 || xs[i - 1] <= xs[i]) (iota n))

def main [n] (xs: [n]i32) : ([n]i32, bool) =
  let s = insertion_sort xs
  in (s, is_sorted s && i32.sum s == i32.sum xs)
