-- reduce with an associative but non-commutative operator (composition of
-- affine maps x -> a*x + b) keeps the order of the elements.
-- ==
-- input { [2, 3, 1] [1, 0, 5] } output { 6 8 }
-- input { empty([0]i32) empty([0]i32) } output { 1 0 }

def main (as: []i32) (bs: []i32) : (i32, i32) =
  -- (f then g)(x) = g (f x) = ga*(fa*x+fb)+gb
  let comp (fa: i32, fb: i32) (ga: i32, gb: i32) = (ga * fa, ga * fb + gb)
  in reduce comp (1, 0) (zip as bs)
