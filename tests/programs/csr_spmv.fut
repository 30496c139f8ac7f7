-- Sparse matrix-vector products on a matrix in compressed sparse row form
-- (row pointers, column indices, values): the row of each entry is rebuilt
-- with `scatter` and `scan`, and products are summed with `reduce_by_index`.
-- ==
-- entry: spmv
-- input { [0i64, 2i64, 3i64, 3i64, 5i64] [0i64, 2i64, 1i64, 0i64, 3i64] [1.0, 2.0, 3.0, 4.0, 5.0] [1.0, 2.0, 3.0, 4.0] }
-- output { [7.0, 6.0, 0.0, 24.0] }
-- input { [0i64, 1i64, 2i64] [1i64, 0i64] [2.5, -1.0] [4.0, 8.0] }
-- output { [20.0, -4.0] }
-- input { [0i64, 3i64] [0i64, 1i64, 2i64] [1.0, 1.0, 1.0] [0.5, 0.25, 0.125] }
-- output { [0.875] }

-- ==
-- entry: spmv_t
-- input { [0i64, 2i64, 3i64, 3i64, 5i64] [0i64, 2i64, 1i64, 0i64, 3i64] [1.0, 2.0, 3.0, 4.0, 5.0] 4i64 [1.0, 2.0, 3.0, 4.0] }
-- output { [17.0, 6.0, 2.0, 20.0] }
-- input { [0i64, 1i64, 2i64] [1i64, 0i64] [2.5, -1.0] 2i64 [1.0, 2.0] }
-- output { [-2.0, 2.5] }
-- input { [0i64, 3i64] [0i64, 1i64, 2i64] [1.0, 1.0, 1.0] 3i64 [1.0] }
-- output { [1.0, 1.0, 1.0] }

-- ==
-- entry: power_iter
-- input { [0i64, 2i64, 5i64, 7i64] [0i64, 1i64, 0i64, 1i64, 2i64, 1i64, 2i64] [2.0, 1.0, 1.0, 3.0, 1.0, 1.0, 4.0] 20 }
-- output { 4.732050804760489 }

-- Row index of each stored entry: mark row starts with scatter, then a
-- running maximum; empty rows never receive a mark of their own.
def row_of_entries [n1] (nnz: i64) (row_ptr: [n1]i64) : [nnz]i64 =
  let n = n1 - 1
  let starts = scatter (replicate nnz 0) (map (\r -> if row_ptr[r] < row_ptr[r + 1] then row_ptr[r] else -1) (iota n)) (iota n)
  in scan i64.max 0 starts

def spmv_csr [n1] [nnz] [m] (row_ptr: [n1]i64) (cols: [nnz]i64) (vals: [nnz]f64) (x: [m]f64) : [n1 - 1]f64 =
  let rows = row_of_entries nnz row_ptr
  let prods = map2 (\c v -> #[unsafe] v * x[c]) cols vals
  in reduce_by_index (replicate (n1 - 1) 0) (+) 0 rows prods

def spmv_csr_t [n1] [nnz] [n] (m: i64) (row_ptr: [n1]i64) (cols: [nnz]i64) (vals: [nnz]f64) (y: [n]f64) : [m]f64 =
  let rows = row_of_entries nnz row_ptr
  let prods = map2 (\r v -> v * y[r]) rows vals
  in reduce_by_index (replicate m 0) (+) 0 cols prods

entry spmv [n1] [nnz] [m] (row_ptr: [n1]i64) (cols: [nnz]i64) (vals: [nnz]f64) (x: [m]f64) : []f64 =
  spmv_csr row_ptr cols vals x

entry spmv_t [n1] [nnz] [n] (row_ptr: [n1]i64) (cols: [nnz]i64) (vals: [nnz]f64) (m: i64) (y: [n]f64) : [m]f64 =
  spmv_csr_t m row_ptr cols vals y

-- Dominant eigenvalue of a square sparse matrix by power iteration.
entry power_iter [n1] [nnz] (row_ptr: [n1]i64) (cols: [nnz]i64) (vals: [nnz]f64) (iters: i32) : f64 =
  let n = n1 - 1
  let x0 = replicate n 1f64
  let x =
    loop x = x0 for _i < iters do
      let y = spmv_csr row_ptr cols vals x :> [n]f64
      let nrm = f64.sqrt (f64.sum (map (** 2) y))
      in map (/ nrm) y
  let ax = spmv_csr row_ptr cols vals x :> [n]f64
  in f64.sum (map2 (*) x ax)
