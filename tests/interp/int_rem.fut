-- Integer `%%` is the remainder matching `//`: the result has the sign of the dividend.
-- ==
-- input { 7 2 } output { 1 }
-- input { -7 2 } output { -1 }
-- input { 7 -2 } output { 1 }
-- input { -7 -2 } output { -1 }
-- input { -1 5 } output { -1 }

def main (a: i32) (b: i32) = a %% b
