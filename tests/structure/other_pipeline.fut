-- A structure block for a pipeline fut does not have is skipped with a note.
-- ==
-- input { [1, 2] } output { 3 }
-- structure gpu { SegRed 1 }
-- structure { Screma 1 }

def main (xs: []i32) : i32 = i32.sum xs
