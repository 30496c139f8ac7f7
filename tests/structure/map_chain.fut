-- A chain of maps is one Screma.
-- ==
-- input { [1, 2, 3] } output { [5, 7, 9] }
-- structure { Screma 1 }

def main (xs: []i32) : []i32 = map (+ 1) (map (* 2) (map (+ 1) xs))
