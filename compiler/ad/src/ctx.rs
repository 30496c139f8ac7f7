//! The emission context of the forward-mode pass: fresh variables in the
//! function's arena, typed statements, the map from primal variables to
//! their tangents, and zero tangents.

use std::collections::{HashMap, HashSet};

use ir::typeof_::TypeCtx;
use ir::{
    BinOp, Body, CmpOp, ConvKind, DimIndex, Exp, MathFn, Operand, PrimType, PrimValue, PrimaryMap,
    Size, Span, Stm, Type, UnOp, VarId, VarInfo,
};

use crate::AdError;

/// Results of the pass's steps.
pub type R<T> = Result<T, AdError>;

/// True for a type whose values carry tangents: not `bool`, not an
/// accumulator.
pub fn differentiable(t: &Type) -> bool {
    !t.acc && t.elem != PrimType::Bool
}

/// The constant `x` of type `t` (integers truncate, `bool` is `x != 0`).
pub fn konst(t: PrimType, x: f64) -> Operand {
    let v = if t.is_float() {
        PrimValue::float_of_type(t, x)
    } else if t == PrimType::Bool {
        Some(PrimValue::Bool(x != 0.0))
    } else {
        PrimValue::int_of_type(t, x as i128)
    };
    Operand::Const(v.unwrap_or(PrimValue::Bool(false)))
}

/// The state of the pass inside one function.
#[derive(Debug)]
pub struct Ctx<'a> {
    vars: &'a mut PrimaryMap<VarId, VarInfo>,
    names: HashSet<String>,
    counter: usize,
    /// The tangent of each variable that has one; variables are bound once
    /// per function, so one map serves every scope.
    pub tan: HashMap<VarId, Operand>,
    /// The span given to emitted statements.
    pub span: Span,
    /// Reverse mode: the adjoint accumulated so far for each variable of
    /// the scope being swept.
    pub adj: HashMap<VarId, Operand>,
    /// Reverse mode: the variables whose adjoint array belongs to them
    /// alone and may be updated in place.
    pub owned: HashSet<VarId>,
    /// Reverse mode: for each checkpointed loop (by the first variable of
    /// its pattern), the arrays holding the loop parameters of every
    /// iteration.
    pub ckpt: HashMap<VarId, Vec<VarId>>,
    /// Reverse mode: for each scatter (by the first variable of its
    /// pattern), the destination elements its forward sweep saved.
    pub saved_dests: HashMap<VarId, Vec<crate::rev_scatter::SavedDest>>,
    /// Reverse mode: the destinations restored after their scatter, with
    /// the restored arrays that the return sweep of the statements before
    /// the scatter uses instead.
    pub restored: HashMap<VarId, Operand>,
    /// Reverse mode: copies of scatter destinations saved whole by the
    /// forward sweep.
    pub saved_copies: HashMap<VarId, VarId>,
    /// Reverse mode: for each `if` (by the first variable of its pattern)
    /// whose forward sweep consumed copies of arrays, those arrays: its
    /// return sweep runs the branch again on fresh copies.
    pub saved_consumed: HashMap<VarId, Vec<VarId>>,
    /// Reverse mode: the variables bound outside the lambda of the `vjp`
    /// being expanded (ids below the first number and not in the set of
    /// those bound inside): they do not depend on its parameters and need
    /// no adjoint.
    pub outside_vjp: Option<(usize, HashSet<VarId>)>,
    /// Reverse mode: variables that carry no adjoint although bound inside
    /// the `vjp` being expanded (the adjoint arrays that the reverse rule
    /// of accumulators reads, see [`crate::rev_with_acc`]).
    pub inactive: HashSet<VarId>,
    /// Forward mode over many seeds ([`crate::jmp`]): the number of
    /// tangents every variable carries, held as an extra innermost
    /// dimension of its tangent; `None` for one tangent per variable.
    pub vec: Option<Size>,
    /// How many `vjp` nodes enclose the code being expanded: forward mode
    /// over many seeds avoids there what reverse mode cannot differentiate.
    pub under_vjp: usize,
}

impl<'a> Ctx<'a> {
    /// A context for the function whose variables are `vars`.
    pub fn new(vars: &'a mut PrimaryMap<VarId, VarInfo>) -> Ctx<'a> {
        let names = vars.values().map(|v| v.name.clone()).collect();
        Ctx {
            vars,
            names,
            counter: 0,
            tan: HashMap::new(),
            span: Span::NONE,
            adj: HashMap::new(),
            owned: HashSet::new(),
            ckpt: HashMap::new(),
            saved_dests: HashMap::new(),
            restored: HashMap::new(),
            saved_copies: HashMap::new(),
            saved_consumed: HashMap::new(),
            outside_vjp: None,
            inactive: HashSet::new(),
            vec: None,
            under_vjp: 0,
        }
    }

    /// An error at the current statement.
    pub fn err(&self, message: impl Into<String>) -> AdError {
        AdError {
            message: message.into(),
            span: self.span,
        }
    }

    /// A new variable named after `base`.
    pub fn fresh(&mut self, base: &str, ty: Type) -> VarId {
        let base: String = base
            .chars()
            .filter(|c| c.is_ascii_alphanumeric() || *c == '_')
            .collect();
        let base = if base.is_empty() || base.starts_with(|c: char| c.is_ascii_digit()) {
            format!("v{base}")
        } else {
            base
        };
        let mut name = base.clone();
        while self.names.contains(&name) {
            self.counter += 1;
            name = format!("{base}_{}", self.counter);
        }
        self.names.insert(name.clone());
        self.vars.push(VarInfo { name, ty })
    }

    /// The function's variables.
    pub fn vars(&self) -> &PrimaryMap<VarId, VarInfo> {
        self.vars
    }

    /// A new variable for the tangent of `v`.
    pub fn fresh_tan(&mut self, v: VarId) -> VarId {
        let name = format!("{}_tan", self.name(v));
        let ty = self.tan_ty(&self.ty(v));
        self.fresh(&name, ty)
    }

    /// The type of the tangent of a value of type `t`: `t` itself, or with
    /// the number of seeds as an innermost dimension over many seeds.
    pub fn tan_ty(&self, t: &Type) -> Type {
        let mut t = t.clone();
        if let Some(k) = self.vec
            && !t.acc
        {
            t.shape.push(k);
        }
        t
    }

    /// The name of `v`.
    pub fn name(&self, v: VarId) -> String {
        self.vars.get(v).map(|i| i.name.clone()).unwrap_or_default()
    }

    /// The type of `v`.
    pub fn ty(&self, v: VarId) -> Type {
        self.vars
            .get(v)
            .map(|i| i.ty.clone())
            .unwrap_or(Type::scalar(PrimType::Bool))
    }

    /// Changes the type of `v`.
    pub fn set_ty(&mut self, v: VarId, ty: Type) {
        if let Some(i) = self.vars.get_mut(v) {
            i.ty = ty;
        }
    }

    /// The type of an operand.
    pub fn op_ty(&self, o: &Operand) -> Type {
        match o {
            Operand::Var(v) => self.ty(*v),
            Operand::Const(c) => Type::scalar(c.prim_type()),
        }
    }

    /// The tangent of an operand, if it has one.
    pub fn tangent(&self, o: &Operand) -> Option<Operand> {
        o.var().and_then(|v| self.tan.get(&v).copied())
    }

    /// Appends `pat = exp`.
    pub fn push(&mut self, out: &mut Vec<Stm>, pat: Vec<VarId>, exp: Exp) {
        out.push(Stm {
            pat,
            exp,
            attrs: Vec::new(),
            span: self.span,
        });
    }

    /// Appends `v = if cond then (then_stms; a) else (else_stms; b)`.
    pub fn push_if(
        &mut self,
        out: &mut Vec<Stm>,
        v: VarId,
        cond: Operand,
        (then_stms, a): (Vec<Stm>, Operand),
        (else_stms, b): (Vec<Stm>, Operand),
    ) {
        let exp = Exp::If {
            cond,
            then_body: Body {
                stms: then_stms,
                result: vec![a],
            },
            else_body: Body {
                stms: else_stms,
                result: vec![b],
            },
        };
        self.push(out, vec![v], exp);
    }

    /// Appends `exp` bound to one new variable of the inferred type.
    pub fn bind(&mut self, out: &mut Vec<Stm>, name: &str, exp: Exp) -> R<VarId> {
        let types = TypeCtx {
            vars: self.vars,
            functions: None,
        }
        .exp_types(&exp)
        .map_err(|e| self.err(format!("internal error: an ill-typed tangent: {e}")))?;
        let [t] = types.as_slice() else {
            return Err(self.err("internal error: a tangent expression with several results"));
        };
        let v = self.fresh(name, t.clone());
        self.push(out, vec![v], exp);
        Ok(v)
    }

    /// Element (or row) `i` of each array of `arrs`, each bound to a new
    /// variable `name`.
    pub fn index_each(
        &mut self,
        out: &mut Vec<Stm>,
        name: &str,
        arrs: &[VarId],
        i: Operand,
    ) -> R<Vec<Operand>> {
        let mut res = Vec::new();
        for a in arrs {
            res.push(
                self.bind(out, name, Exp::Index(*a, vec![DimIndex::Fix(i)]))?
                    .into(),
            );
        }
        Ok(res)
    }

    /// `arr[i]` as an operand, copied when it is an array.
    pub fn index_row(&mut self, out: &mut Vec<Stm>, arr: VarId, i: Operand) -> R<Operand> {
        let e = self.bind(out, "e", Exp::Index(arr, vec![DimIndex::Fix(i)]))?;
        if self.ty(e).shape.is_empty() {
            Ok(e.into())
        } else {
            Ok(self.bind(out, "e", Exp::Copy(e))?.into())
        }
    }

    /// [`index_row`](Ctx::index_row) of each array of `arrs`.
    pub fn rows_at(&mut self, out: &mut Vec<Stm>, arrs: &[VarId], i: Operand) -> R<Vec<Operand>> {
        arrs.iter().map(|a| self.index_row(out, *a, i)).collect()
    }

    /// `op(a, b)`.
    pub fn bin(&mut self, out: &mut Vec<Stm>, op: BinOp, a: Operand, b: Operand) -> R<Operand> {
        Ok(self.bind(out, "d", Exp::BinOp(op, a, b))?.into())
    }

    /// `op(a)`.
    pub fn un(&mut self, out: &mut Vec<Stm>, op: UnOp, a: Operand) -> R<Operand> {
        Ok(self.bind(out, "d", Exp::UnOp(op, a))?.into())
    }

    /// `op(a, b)` for a comparison.
    pub fn cmp(&mut self, out: &mut Vec<Stm>, op: CmpOp, a: Operand, b: Operand) -> R<Operand> {
        Ok(self.bind(out, "c", Exp::Cmp(op, a, b))?.into())
    }

    /// `f(args)`.
    pub fn math(&mut self, out: &mut Vec<Stm>, f: MathFn, args: Vec<Operand>) -> R<Operand> {
        Ok(self.bind(out, "d", Exp::Math(f, args))?.into())
    }

    /// `a` converted to `t`.
    pub fn conv(&mut self, out: &mut Vec<Stm>, t: PrimType, a: Operand) -> R<Operand> {
        Ok(self
            .bind(out, "d", Exp::Convert(ConvKind::Convert, t, a))?
            .into())
    }

    /// `if cond then a else b` for scalars of type `t`.
    pub fn select(
        &mut self,
        out: &mut Vec<Stm>,
        t: PrimType,
        cond: Operand,
        a: Operand,
        b: Operand,
    ) -> Operand {
        let v = self.fresh("d", Type::scalar(t));
        let branch = |r| ir::Body {
            stms: Vec::new(),
            result: vec![r],
        };
        self.push(
            out,
            vec![v],
            Exp::If {
                cond,
                then_body: branch(a),
                else_body: branch(b),
            },
        );
        v.into()
    }

    /// An array of zeros of the type of `v` (a zero constant for a scalar).
    pub fn zeros_like(&mut self, out: &mut Vec<Stm>, v: VarId) -> R<Operand> {
        let t = self.ty(v);
        self.zeros_of(out, &t)
    }

    /// Zeros of type `t`.
    pub fn zeros_of(&mut self, out: &mut Vec<Stm>, t: &Type) -> R<Operand> {
        if t.acc {
            return Err(self.err("the tangent of an accumulator"));
        }
        let zero = konst(t.elem, 0.0);
        if t.shape.is_empty() {
            return Ok(zero);
        }
        if t.shape.contains(&Size::Any) {
            return Err(self.err("a zero tangent for an array of statically unknown size"));
        }
        let exp = Exp::Replicate {
            shape: t.shape.clone(),
            value: zero,
        };
        Ok(self.bind(out, "zeros", exp)?.into())
    }

    /// The tangent of `o`, or zeros of its type.
    pub fn tan_or_zero(&mut self, out: &mut Vec<Stm>, o: &Operand) -> R<Operand> {
        match self.tangent(o) {
            Some(t) => Ok(t),
            None => {
                let t = self.tan_ty(&self.op_ty(o));
                self.zeros_of(out, &t)
            }
        }
    }

    /// The tangent of array `v` as a fresh array that may be consumed: a
    /// copy of its tangent, or zeros.
    pub fn consumable_tan(&mut self, out: &mut Vec<Stm>, v: VarId) -> R<Operand> {
        match self.tangent(&v.into()) {
            Some(Operand::Var(t)) if !self.ty(t).shape.is_empty() => {
                Ok(self.bind(out, "tan_copy", Exp::Copy(t))?.into())
            }
            Some(t) => Ok(t),
            None => {
                let t = self.tan_ty(&self.ty(v));
                self.zeros_of(out, &t)
            }
        }
    }

    /// `Σ dᵢ · ẋᵢ` in order, for `(dᵢ, ẋᵢ)` in `terms` (zero if empty).
    pub fn lin(
        &mut self,
        out: &mut Vec<Stm>,
        t: PrimType,
        terms: Vec<(Operand, Operand)>,
    ) -> R<Operand> {
        let one = konst(t, 1.0);
        let mut acc: Option<Operand> = None;
        for (d, x) in terms {
            let term = if d == one {
                x
            } else {
                self.bin(out, BinOp::Mul, d, x)?
            };
            acc = Some(match acc {
                None => term,
                Some(a) => self.bin(out, BinOp::Add, a, term)?,
            });
        }
        Ok(acc.unwrap_or(konst(t, 0.0)))
    }
}
