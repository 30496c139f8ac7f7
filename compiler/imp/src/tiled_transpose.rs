//! Transposed copies through tiles in local memory, for a device.
//!
//! A copy whose source is contiguous along the destination's second
//! innermost dimension and strided along its innermost one (a transposed
//! matrix, or a batch of them, copied into row-major memory) would read
//! with a stride whichever index its threads follow. [`tiled_copy`] makes
//! it a group loop ([`ParKind::Groups`]): each group of [`THREADS`]
//! threads moves one [`TILE`]×[`TILE`] tile. Its threads first read the
//! tile along the source's contiguous dimension (neighbouring threads,
//! neighbouring elements) into local memory, then, after a barrier, write
//! it along the destination's (again neighbouring elements), reading the
//! local tile across. The tile's rows are padded by one element so that
//! the reads across fall in different local-memory banks. Both passes
//! take [`TILE`] / ([`THREADS`] / [`TILE`]) rows per thread.
//!
//! The copy is versioned at run time: matrices with fewer than [`TILE`]
//! rows or columns (the tuning parameter `transpose_threshold`), where most of a tile's threads would idle, and
//! sources whose strides, known only then, are not a transposition's,
//! keep the loop of one thread per element.

use ir::{BinOp, CmpOp, PrimType};

use crate::lower::bin as op;
use crate::syntax::*;

/// The side of a tile.
pub const TILE: i64 = 32;

/// The threads of a group: a tile's width times the rows each pass covers
/// at once.
pub const THREADS: u32 = 256;

/// The label of the group loops (`transpose` in profiles).
pub const LABEL: &str = "transpose";

/// Whether `dst <- src` may be a transposition [`tiled_copy`] speeds up:
/// of rank 2 or more, the destination contiguous along its innermost
/// dimension, the source not along the innermost, and along the one
/// before unless its stride is a constant other than 1 (a stride known
/// only at run time is tested then: [`tiled_copy`]).
pub fn is_transposition(dst: &View, src: &View) -> bool {
    let r = dst.rank();
    r >= 2
        && dst.mem != src.mem
        && dst.shape == src.shape
        && dst.strides[r - 1].as_i64() == Some(1)
        && src.strides[r - 2].as_i64().is_none_or(|s| s == 1)
        && src.strides[r - 1].as_i64() != Some(1)
        && src.strides[r - 1] != src.strides[r - 2]
}

/// Builds statements into a function's scalars.
struct Builder<'f> {
    f: &'f mut Function,
    stms: Vec<Stm>,
    span: ir::Span,
}

impl Builder<'_> {
    fn fresh(&mut self, name: &str, ty: PrimType) -> SVar {
        crate::copies::fresh(self.f, name, ty)
    }

    /// `name = e`, as a fresh `i64` scalar.
    fn let_i64(&mut self, name: &str, e: SExp) -> SExp {
        let v = self.fresh(name, PrimType::I64);
        self.stms.push(Stm::Assign {
            var: v,
            exp: e,
            span: self.span,
        });
        SExp::Var(v)
    }

    /// A nested block built by `body`.
    fn nested(&mut self, body: impl FnOnce(&mut Self)) -> Block {
        let saved = std::mem::take(&mut self.stms);
        body(self);
        Block {
            stms: std::mem::replace(&mut self.stms, saved),
        }
    }
}

/// `a / b` rounded up, for `a >= 0` and a positive constant `b`.
fn ceil_div(a: SExp, b: i64) -> SExp {
    op(BinOp::Quot, SExp::plus(a, SExp::i64(b - 1)), SExp::i64(b))
}

/// A divisor that is never zero: `max(e, 1)` (a quotient by it cannot
/// fail, and a group loop only runs where `e` is positive anyway).
fn nonzero(e: SExp) -> SExp {
    op(BinOp::Max, e, SExp::i64(1))
}

/// `dst <- src` (a transposition: [`is_transposition`]) of function `f`
/// as statements: a group loop of tiles for matrices of at least
/// [`TILE`] rows and columns, and `plain` (the loop of one thread per
/// element) otherwise.
pub fn tiled_copy(f: &mut Function, dst: &View, src: &View, span: ir::Span, plain: Stm) -> Stm {
    let r = dst.rank();
    let (rows, cols) = (dst.shape[r - 2].clone(), dst.shape[r - 1].clone());
    let mut b = Builder {
        f,
        stms: Vec::new(),
        span,
    };
    let tiled = b.nested(|b| {
        let row_tiles = b.let_i64("row_tiles", ceil_div(rows.clone(), TILE));
        let col_tiles = b.let_i64("col_tiles", ceil_div(cols.clone(), TILE));
        let tiles = b.let_i64("tiles", SExp::times(row_tiles, col_tiles.clone()));
        let batch = dst.shape[..r - 2]
            .iter()
            .fold(SExp::i64(1), |acc, d| SExp::times(acc, d.clone()));
        let groups = b.let_i64("tile_groups", SExp::times(batch, tiles.clone()));
        let loop_stm = tile_loop(b, dst, src, (&rows, &cols), (&tiles, &col_tiles), groups);
        b.stms.push(loop_stm);
    });
    let least = SExp::Tuned {
        name: "transpose_threshold".into(),
        default: TILE,
    };
    let wide = SExp::and(
        SExp::cmp(CmpOp::Le, least.clone(), rows),
        SExp::cmp(CmpOp::Le, least, cols),
    );
    let contiguous = SExp::cmp(CmpOp::Eq, src.strides[r - 2].clone(), SExp::i64(1));
    let wide = match src.strides[r - 2].as_i64() {
        Some(_) => wide,
        None => SExp::and(contiguous, wide),
    };
    Stm::If {
        cond: wide,
        then_block: tiled,
        else_block: Block { stms: vec![plain] },
    }
}

/// The group loop of [`tiled_copy`].
fn tile_loop(
    b: &mut Builder,
    dst: &View,
    src: &View,
    (rows, cols): (&SExp, &SExp),
    (tiles, col_tiles): (&SExp, &SExp),
    groups: SExp,
) -> Stm {
    let r = dst.rank();
    let g = b.fresh("group", PrimType::I64);
    let t = b.fresh("thread", PrimType::I64);
    let tile_mem = MemId(b.f.mems.len() as u32);
    b.f.mems.push(MemInfo {
        name: "tile".into(),
        elem: dst.elem,
    });
    let pitch = TILE + 1;
    let tile = View::row_major(tile_mem, dst.elem, vec![SExp::i64(TILE), SExp::i64(pitch)]);
    let passes = TILE / (i64::from(THREADS) / TILE);
    let step = i64::from(THREADS) / TILE;
    let body = b.nested(|b| {
        let (ge, te) = (SExp::Var(g), SExp::Var(t));
        // The group's tile: its matrix of the batch, then its place.
        let matrix = b.let_i64(
            "matrix",
            op(BinOp::Quot, ge.clone(), nonzero(tiles.clone())),
        );
        let within = b.let_i64("within", op(BinOp::Rem, ge, nonzero(tiles.clone())));
        let row0 = b.let_i64(
            "row0",
            SExp::times(
                op(BinOp::Quot, within.clone(), nonzero(col_tiles.clone())),
                SExp::i64(TILE),
            ),
        );
        let col0 = b.let_i64(
            "col0",
            SExp::times(
                op(BinOp::Rem, within, nonzero(col_tiles.clone())),
                SExp::i64(TILE),
            ),
        );
        // The matrix's index in each outer dimension, innermost last.
        let mut outer = Vec::new();
        let mut left = matrix;
        for d in dst.shape[..r - 2].iter().rev() {
            outer.push(b.let_i64("outer", op(BinOp::Rem, left.clone(), nonzero(d.clone()))));
            left = b.let_i64("outer_rest", op(BinOp::Quot, left, nonzero(d.clone())));
        }
        outer.reverse();
        let tx = b.let_i64("tx", op(BinOp::Rem, te.clone(), SExp::i64(TILE)));
        let ty = b.let_i64("ty", op(BinOp::Quot, te, SExp::i64(TILE)));
        let x = b.fresh("elem", dst.elem);
        let k = b.fresh("pass", PrimType::I64);
        let down = SExp::plus(ty.clone(), SExp::times(SExp::Var(k), SExp::i64(step)));
        let inside = |row: &SExp, col: &SExp| {
            SExp::and(
                SExp::cmp(CmpOp::Lt, row.clone(), rows.clone()),
                SExp::cmp(CmpOp::Lt, col.clone(), cols.clone()),
            )
        };
        let at = |row: SExp, col: SExp| {
            let mut idx = outer.clone();
            idx.push(row);
            idx.push(col);
            idx
        };
        // One pass: each thread moves the element (row0 + dr, col0 + dc)
        // of every `step`-th row of the tile, when it is inside the
        // matrix, between the matrix and the tile.
        let pass = |b: &mut Builder, (dr, dc): (&SExp, &SExp), into_tile: bool| {
            let body = b.nested(|b| {
                let row = b.let_i64("row", SExp::plus(row0.clone(), dr.clone()));
                let col = b.let_i64("col", SExp::plus(col0.clone(), dc.clone()));
                let matrix = at(row.clone(), col.clone());
                let ((from, from_at), (to, to_at)) = if into_tile {
                    ((src, matrix), (&tile, vec![down.clone(), tx.clone()]))
                } else {
                    ((&tile, vec![tx.clone(), down.clone()]), (dst, matrix))
                };
                let moved = b.nested(|b| {
                    b.stms.push(Stm::Read {
                        var: x,
                        view: from.clone(),
                        idx: from_at,
                    });
                    b.stms.push(Stm::Write {
                        view: to.clone(),
                        idx: to_at,
                        value: SExp::Var(x),
                    });
                });
                b.stms.push(Stm::If {
                    cond: inside(&row, &col),
                    then_block: moved,
                    else_block: Block::default(),
                });
            });
            b.stms.push(Stm::For {
                i: k,
                bound: SExp::i64(passes),
                body,
            });
        };
        // Read along the source's rows (contiguous): the tile's row `down`
        // and column `tx` hold element (row0 + tx, col0 + down).
        pass(b, (&tx, &down), true);
        b.stms.push(Stm::Barrier);
        // Write along the destination's rows (contiguous): element
        // (row0 + down, col0 + tx), which the read put at the tile's row
        // `tx`, column `down` (read across the tile).
        pass(b, (&down, &tx), false);
    });
    let mut stms = vec![Stm::Alloc {
        mem: tile_mem,
        count: SExp::i64(TILE * pitch),
    }];
    stms.extend(body.stms);
    Stm::ParFor {
        kind: ParKind::Groups {
            size: THREADS,
            kernel: None,
        },
        ids: vec![g, t],
        sizes: vec![groups, SExp::i64(i64::from(THREADS))],
        body: Block { stms },
        chunk_prologue: 1,
        span: b.span,
        label: LABEL,
    }
}

#[cfg(test)]
mod tests {
    use values::Value;

    use crate::interp::run_function;
    use crate::print::print_program;

    /// A batch of `b` matrices of `n` rows and `m` columns, transposed.
    const BATCH: &str = r"fun main(b: i64, n: i64, m: i64, xsss: [b][n][m]i32) -> ([b][m][n]i32) {
  let tr: [b][m][n]i32 = rearrange((0, 2, 1), xsss)
  let t: [b][m][n]i32 = copy(tr)
  in (t)
}
";

    /// Runs `prog` on a batch of `b` matrices of `n`×`m` distinct elements
    /// and checks it against their transposes.
    fn check(prog: &crate::Program, b: usize, n: usize, m: usize) {
        let xs: Vec<i32> = (0..(b * n * m) as i32).collect();
        let mut want = vec![0i32; b * n * m];
        for k in 0..b {
            for i in 0..n {
                for j in 0..m {
                    want[k * n * m + j * n + i] = xs[k * n * m + i * m + j];
                }
            }
        }
        let args = vec![
            Value::scalar(b as i64),
            Value::scalar(n as i64),
            Value::scalar(m as i64),
            Value::array(vec![b, n, m], xs).expect("a shape"),
        ];
        let out = run_function(prog, "main", args).unwrap_or_else(|e| panic!("{e}"));
        let want = Value::array(vec![b, m, n], want).expect("a shape");
        assert_eq!(out.values, vec![want], "{b}x{n}x{m}");
    }

    #[test]
    fn transposed_copies_go_through_tiles_with_the_same_results() {
        let mut p = crate::lower_text(BATCH);
        for f in &mut p.functions {
            crate::copies::parallel_copies(f);
        }
        let text = print_program(&p);
        assert!(text.contains("groups of 256"), "{text}");
        assert!(text.contains("barrier"), "{text}");
        // Narrow matrices, tiles partly outside the matrix, whole tiles,
        // and a batch: as the interpreter runs each group's threads
        // between barriers.
        for (b, n, m) in [
            (1, 2, 3),
            (2, 31, 64),
            (1, 32, 32),
            (1, 33, 70),
            (1, 100, 40),
            (3, 40, 50),
            (0, 40, 50),
        ] {
            check(&p, b, n, m);
        }
        // The tiles alone (the versioning `if` replaced by its tiled
        // branch) on matrices wide enough for it.
        let mut tiled = p.clone();
        let mut replaced = 0;
        for f in &mut tiled.functions {
            for s in &mut f.body.stms {
                if let crate::Stm::If {
                    cond, then_block, ..
                } = s
                    && crate::groups::block_has_barrier(then_block)
                {
                    *cond = crate::SExp::Const(values::PrimValue::Bool(true));
                    replaced += 1;
                }
            }
        }
        assert_eq!(replaced, 1);
        for (b, n, m) in [(1, 32, 32), (1, 33, 70), (2, 100, 40), (3, 64, 35)] {
            check(&tiled, b, n, m);
        }
    }

    /// The same as [`BATCH`], as a map of transpositions.
    const MAPPED: &str = r"fun main(b: i64, n: i64, m: i64, xsss: [b][n][m]i32) -> ([b][m][n]i32) {
  let t: [b][m][n]i32 = screma(b, xsss)
    map(\(xss: [n][m]i32) -> ([m][n]i32) {
      let tr: [m][n]i32 = rearrange((1, 0), xss)
      let c: [m][n]i32 = copy(tr)
      in (c)
    })
  in (t)
}
";

    #[test]
    fn a_map_of_transpositions_is_one_batched_tiled_copy() {
        let mut p = crate::lower_text(MAPPED);
        let before = print_program(&p);
        assert!(before.contains("copy "), "{before}");
        for f in &mut p.functions {
            crate::copies::parallel_copies(f);
        }
        let text = print_program(&p);
        assert!(!text.contains("copy "), "{text}");
        assert!(text.contains("groups of 256"), "{text}");
        for (b, n, m) in [(1, 2, 3), (3, 40, 50), (2, 33, 31), (0, 40, 50)] {
            check(&p, b, n, m);
        }
    }

    #[test]
    fn only_transpositions_are_tiled() {
        use super::is_transposition;
        use crate::syntax::{MemId, View};
        use ir::PrimType;
        let shape = vec![crate::SExp::i64(40), crate::SExp::i64(50)];
        let dst = View::row_major(MemId(0), PrimType::F32, shape.clone());
        let plain = View::row_major(MemId(1), PrimType::F32, shape.clone());
        let mut tr = plain.clone();
        tr.strides = vec![crate::SExp::i64(1), crate::SExp::i64(40)];
        assert!(is_transposition(&dst, &tr));
        assert!(!is_transposition(&dst, &plain));
        assert!(!is_transposition(&tr, &tr));
        // Strides known at run time only: tested then.
        let mut open = plain.clone();
        open.strides = vec![crate::SExp::i64(50), crate::SExp::Var(crate::SVar(0))];
        assert!(!is_transposition(&dst, &open));
        open.strides = vec![
            crate::SExp::Var(crate::SVar(1)),
            crate::SExp::Var(crate::SVar(0)),
        ];
        assert!(is_transposition(&dst, &open));
    }
}
