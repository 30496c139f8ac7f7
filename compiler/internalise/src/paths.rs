//! Update paths that mix fields and indices (`xs with [i].f = v`,
//! `r with a[i] = v`) and path sections (`(.[i].f)`).
//!
//! An update walks the path: a field step rebuilds the record around the updated
//! field; an index step followed by more steps reads the indexed part, updates
//! it along the rest of the path and writes back only the leaves that changed, so
//! `xs with [i].f = v` on an array of records is one update of the array of `f`.
//! A part that is itself an array (a row, a slice, an array field of an element)
//! is copied before it is updated and written back.
//! Consecutive index steps of single indices merge (`[i][j]` is `[i, j]`).

use ir::{Exp, Operand};
use syntax::ast::{self, Name};

use crate::cx::Cx;
use crate::error::{IResult, InternaliseError};
use crate::index::Idx;
use crate::value::V;

/// One step of a path with its indices evaluated.
#[derive(Clone, Debug)]
pub(crate) enum PathIdx {
    Field(Name),
    Index(Vec<Idx>),
}

/// The field `name` of a record or tuple value, as a mutable slot.
fn field_slot<'v>(v: &'v mut V, name: &str) -> Option<&'v mut V> {
    match v {
        V::Record(fs) => fs.iter_mut().find(|(n, _)| &**n == name).map(|(_, v)| v),
        V::Tuple(vs) => {
            let i: usize = name.parse().ok()?;
            vs.get_mut(i)
        }
        _ => None,
    }
}

impl Cx {
    /// Evaluates the indices of a path.
    pub(crate) fn path(
        &mut self,
        path: &[ast::PathStep],
        env: &crate::env::Env,
    ) -> IResult<Vec<PathIdx>> {
        path.iter()
            .map(|step| {
                Ok(match step {
                    ast::PathStep::Field(f) => PathIdx::Field(f.name.clone()),
                    ast::PathStep::Index(is, _) => PathIdx::Index(self.indices(is, env)?),
                })
            })
            .collect()
    }

    /// `v` followed along `path`: the function of a path section.
    pub(crate) fn follow_path(
        &mut self,
        mut v: V,
        path: &[PathIdx],
        span: syntax::Span,
    ) -> IResult<V> {
        for step in path {
            v = match step {
                PathIdx::Field(f) => crate::exprs::field(v, f)
                    .ok_or_else(|| InternaliseError::at(format!("value has no field {f}"), span))?,
                PathIdx::Index(idx) => self.index(&v, idx, span)?,
            };
        }
        Ok(v)
    }

    /// `t with path = x`.
    pub(crate) fn update_path(
        &mut self,
        mut t: V,
        path: &[PathIdx],
        x: V,
        span: syntax::Span,
    ) -> IResult<V> {
        match path {
            [] => Ok(x),
            [PathIdx::Field(f), rest @ ..] => {
                let slot = field_slot(&mut t, f)
                    .ok_or_else(|| InternaliseError::at(format!("no field {f}"), span))?;
                let old = std::mem::replace(slot, V::unit());
                *slot = self.update_path(old, rest, x, span)?;
                Ok(t)
            }
            [PathIdx::Index(idx)] => self.update(&t, idx, &x, span),
            [PathIdx::Index(a), PathIdx::Index(b), rest @ ..]
                if a.iter().all(|i| matches!(i, Idx::Fix(_))) =>
            {
                let mut merged = vec![PathIdx::Index(a.iter().chain(b).cloned().collect())];
                merged.extend(rest.iter().cloned());
                self.update_path(t, &merged, x, span)
            }
            [PathIdx::Index(idx), rest @ ..] => {
                // The part is a view of `t`, which the write back consumes: the
                // rest of the path updates a copy of its arrays (copies of leaves
                // the path does not reach are never used, and are removed).
                let part = self.index(&t, idx, span)?;
                let mut copies = Vec::new();
                for leaf in part.leaf_list() {
                    copies.push(match leaf {
                        Operand::Var(v) if !self.fb.ty(v).shape.is_empty() => {
                            Operand::Var(self.fb.bind1("part", Exp::Copy(v))?)
                        }
                        o => o,
                    });
                }
                let part = part.with_leaves(&mut copies.into_iter());
                let before = part.leaf_list();
                let part = self.update_path(part, rest, x, span)?;
                self.update_leaves(&t, idx, &part, Some(&before), span)
            }
        }
    }
}
