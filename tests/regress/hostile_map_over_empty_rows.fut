-- A compiled `map` over an array of 2^40 rows of empty arrays ran for
-- minutes (an iteration per row, each doing nothing); a parallel loop
-- whose inner loops run no iteration is now skipped. The interpreter holds
-- every row, so the case is for compiled backends only; the IR
-- interpreter allocates the rows' total size (61572651155456 bytes) and aborts.
-- ==
-- compiled no_ir input { empty([1099511627776][0][1]u8) }
-- output { empty([1099511627776][0][1]u8) }
-- input { [[[1u8, 2u8]], [[3u8, 4u8]]] } output { [[[2u8, 3u8]], [[4u8, 5u8]]] }

entry main (x: [][][]u8) : [][][]u8 = map (\r -> map (\c -> map (+ 1) c) r) x
