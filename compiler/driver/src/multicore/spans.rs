//! Source spans of test modules, numbered per program.
//!
//! A span in generated code names its file by number, and the database
//! numbers files in the order it first reads them, which depends on which
//! test thread gets there first. Test modules number their files
//! themselves instead (1, 2, … in the order the program's statements first
//! name them; 0 stays the span of no location), so the same program gives
//! the same Rust code in every run and cargo does not rebuild its crate;
//! each module keeps the table back to the database's numbers.

use ir::{Body, Program, Span};

/// Renumbers the files of `prog`'s spans from 1; returns the database's
/// number of each (the file numbered `k` is `table[k - 1]`).
pub(super) fn localise(prog: &mut Program) -> Vec<u32> {
    let mut table = Vec::new();
    let funs: Vec<_> = prog.functions.keys().collect();
    for f in funs {
        body(&mut prog.functions[f].body, &mut table);
    }
    table
}

fn body(b: &mut Body, table: &mut Vec<u32>) {
    for stm in &mut b.stms {
        stm.span = local(stm.span, table);
        for nested in ir::walk::nested_bodies_mut(&mut stm.exp) {
            body(nested, table);
        }
    }
}

fn local(s: Span, table: &mut Vec<u32>) -> Span {
    if s.is_none() {
        return s;
    }
    let k = match table.iter().position(|&f| f == s.file) {
        Some(k) => k,
        None => {
            table.push(s.file);
            table.len() - 1
        }
    };
    Span::new(k as u32 + 1, s.start, s.end)
}

/// The database's span for span `(file, start, end)` of a module with file
/// table `table`; `None` for no location.
pub(super) fn global(table: &[u32], file: u32, start: u32, end: u32) -> Option<syntax::Span> {
    if (file, start, end) == (0, 0, 0) {
        return None;
    }
    let f = table.get((file as usize).checked_sub(1)?)?;
    Some(syntax::Span::new(syntax::FileId(*f), start, end))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn files_are_numbered_in_order_of_use() {
        let mut table = Vec::new();
        assert_eq!(local(Span::new(7, 1, 2), &mut table), Span::new(1, 1, 2));
        assert_eq!(local(Span::new(3, 4, 5), &mut table), Span::new(2, 4, 5));
        assert_eq!(local(Span::new(7, 6, 9), &mut table), Span::new(1, 6, 9));
        assert_eq!(local(Span::NONE, &mut table), Span::NONE);
        assert_eq!(table, vec![7, 3]);
        assert_eq!(
            global(&table, 2, 4, 5),
            Some(syntax::Span::new(syntax::FileId(3), 4, 5))
        );
        assert_eq!(global(&table, 0, 0, 0), None);
        assert_eq!(global(&table, 9, 0, 1), None);
    }
}
