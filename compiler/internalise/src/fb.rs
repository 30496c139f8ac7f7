//! The function under construction: its variables, a stack of open bodies,
//! the span and attributes given to new statements, and what may be consumed
//! where.
//!
//! Consumption follows the verifier's rule: an array may be consumed only in
//! the loop or lambda body that bound it, and not when it is a non-unique
//! parameter. [`Fb::consumable`] answers that question, and
//! [`Fb::own`] copies an array that may not be consumed, so that every
//! in-place update the internaliser emits is legal.

use std::collections::{HashMap, HashSet};

use ir::builder::Vars;
use ir::typeof_::TypeCtx;
use ir::{Attr, Body, Exp, Operand, Param, PrimType, Span, Stm, Type, VarId};

use crate::error::{IResult, InternaliseError};

/// The function being built.
pub(crate) struct Fb {
    pub vars: Vars,
    stack: Vec<Vec<Stm>>,
    /// The span given to statements pushed now.
    pub span: Span,
    /// The attributes given to statements pushed now: those of the
    /// attributed expressions (`#[attr] e`) being internalised.
    pub attrs: Vec<Attr>,
    /// Variables that may be consumed, one set per loop or lambda level.
    owned: Vec<HashSet<VarId>>,
    /// The variable an alias (slice, reshape, copy of a name) was made from.
    alias_of: HashMap<VarId, VarId>,
    /// The sizes that callees' declared return types give the result
    /// sizes of calls in this function ([`crate::invariant`]).
    pub declared_sizes: HashMap<VarId, crate::invariant::SizeExp>,
}

impl Fb {
    pub fn new() -> Fb {
        Fb {
            vars: Vars::default(),
            stack: vec![Vec::new()],
            span: Span::NONE,
            attrs: Vec::new(),
            owned: vec![HashSet::new()],
            alias_of: HashMap::new(),
            declared_sizes: HashMap::new(),
        }
    }

    /// A new variable.
    pub fn var(&mut self, name: &str, ty: Type) -> VarId {
        self.vars.fresh(name, ty)
    }

    /// The type of a variable.
    pub fn ty(&self, v: VarId) -> Type {
        self.vars.type_of(v)
    }

    /// The type of an operand.
    pub fn op_ty(&self, o: &Operand) -> Type {
        match o {
            Operand::Var(v) => self.ty(*v),
            Operand::Const(c) => Type::scalar(c.prim_type()),
        }
    }

    /// Appends `pat = exp`.
    pub fn push(&mut self, pat: Vec<VarId>, exp: Exp) {
        // `#[unsafe] e` performs no run-time checks: its assertions (size
        // coercions, slices, ranges, `assert`) are not emitted. Bounds
        // checks are part of indexing itself and stay.
        if matches!(exp, Exp::Assert { .. }) && self.attrs.contains(&ir::Attr::Unsafe) {
            return;
        }
        let fresh = produces_fresh(&exp);
        let alias = alias_source(&exp);
        for v in &pat {
            if fresh {
                self.mark_owned(*v);
            }
            if let Some(src) = alias {
                let root = self.root(src);
                self.alias_of.insert(*v, root);
            }
        }
        let stm = Stm {
            pat,
            exp,
            attrs: self.attrs.clone(),
            span: self.span,
        };
        if let Some(top) = self.stack.last_mut() {
            top.push(stm);
        }
    }

    /// Appends `exp` with result variables of inferred types.
    pub fn bind(&mut self, name: &str, exp: Exp) -> IResult<Vec<VarId>> {
        let ctx = TypeCtx {
            vars: self.vars.arena(),
            functions: None,
        };
        let types = ctx
            .exp_types(&exp)
            .map_err(|m| InternaliseError::internal(format!("ill-typed IR: {m}"), self.span))?;
        let pat: Vec<VarId> = types.into_iter().map(|t| self.var(name, t)).collect();
        self.push(pat.clone(), exp);
        Ok(pat)
    }

    /// Like [`Fb::bind`] for one result.
    pub fn bind1(&mut self, name: &str, exp: Exp) -> IResult<VarId> {
        let vs = self.bind(name, exp)?;
        match vs.as_slice() {
            [v] => Ok(*v),
            _ => Err(InternaliseError::internal(
                "expression with several results",
                self.span,
            )),
        }
    }

    /// A scalar operation's result as an operand.
    pub fn scalar(&mut self, name: &str, exp: Exp) -> IResult<Operand> {
        Ok(Operand::Var(self.bind1(name, exp)?))
    }

    /// Opens a nested body (of an `if` branch).
    pub fn begin(&mut self) {
        self.stack.push(Vec::new());
    }

    /// Closes the innermost body with results `result`.
    pub fn end(&mut self, result: Vec<Operand>) -> Body {
        let stms = self.stack.pop().unwrap_or_default();
        Body { stms, result }
    }

    /// Opens a body again with the statements of one closed before.
    pub fn reopen(&mut self, stms: Vec<Stm>) {
        self.stack.push(stms);
    }

    /// Opens a loop or lambda body: nothing bound outside may be consumed in it.
    pub fn begin_scope(&mut self) {
        self.owned.push(HashSet::new());
        self.begin();
    }

    /// Closes a loop or lambda body.
    pub fn end_scope(&mut self, result: Vec<Operand>) -> Body {
        self.owned.pop();
        self.end(result)
    }

    /// Marks `v` as consumable at the current level.
    pub fn mark_owned(&mut self, v: VarId) {
        if let Some(top) = self.owned.last_mut() {
            top.insert(v);
        }
    }

    fn root(&self, v: VarId) -> VarId {
        let mut v = v;
        while let Some(r) = self.alias_of.get(&v) {
            if *r == v {
                break;
            }
            v = *r;
        }
        v
    }

    /// Marks `v` as not consumable at the current level (a result that may
    /// alias a value that must not be consumed).
    pub fn disown(&mut self, v: VarId) {
        if let Some(top) = self.owned.last_mut() {
            top.remove(&v);
        }
    }

    /// The variable `v` aliases (through copies of names, slices, reshapes
    /// and rearrangements), or `v` itself.
    pub fn alias_root(&self, v: VarId) -> VarId {
        self.root(v)
    }

    /// May `v` be consumed here?
    pub fn consumable(&self, v: VarId) -> bool {
        let r = self.root(v);
        self.owned.last().is_some_and(|s| s.contains(&r))
    }

    /// `v`, or a copy of it when `v` may not be consumed here.
    pub fn own(&mut self, v: VarId) -> IResult<VarId> {
        if self.consumable(v) || self.ty(v).shape.is_empty() {
            return Ok(v);
        }
        let name = self.vars.arena()[v].name.clone();
        self.bind1(&name, Exp::Copy(v))
    }

    /// The finished variable arena.
    pub fn arena(&self) -> ir::PrimaryMap<VarId, ir::VarInfo> {
        self.vars.arena().clone()
    }

    /// A new parameter variable.
    pub fn param(&mut self, name: &str, ty: Type, unique: bool) -> Param {
        let v = self.var(name, ty);
        if unique {
            self.mark_owned(v);
        }
        Param { var: v, unique }
    }
}

/// Does `exp` produce arrays that share no storage with its operands?
/// A function's results may alias its arguments; the caller marks them
/// owned when the function's return type is unique.
fn produces_fresh(exp: &Exp) -> bool {
    !matches!(
        exp,
        Exp::Atom(_)
            | Exp::Index(..)
            | Exp::Reshape { .. }
            | Exp::Rearrange { .. }
            | Exp::Apply { .. }
    )
}

/// The array an aliasing expression is made from.
fn alias_source(exp: &Exp) -> Option<VarId> {
    match exp {
        Exp::Atom(Operand::Var(v)) | Exp::Index(v, _) => Some(*v),
        Exp::Reshape { arr, .. } | Exp::Rearrange { arr, .. } => Some(*arr),
        _ => None,
    }
}

/// An `i64` constant operand.
pub(crate) fn i64c(x: i64) -> Operand {
    Operand::i64(x)
}

/// The scalar type `t`.
pub(crate) fn sc(t: PrimType) -> Type {
    Type::scalar(t)
}
