-- Integer division by zero is a run-time error for every division operator.
-- ==
-- input { 0 } output { 10 }
-- input { 1 } error: Division by zero
-- input { 2 } error: Division by zero
-- input { 3 } error: Division by zero
-- input { 4 } error: Division by zero

def main (k: i32) : i32 =
  let z = k - k
  in match k
     case 1 -> 10 / z
     case 2 -> 10 % z
     case 3 -> 10 // z
     case 4 -> 10 %% z
     case _ -> 10
