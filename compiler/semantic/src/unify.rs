//! Unification of types with constrained type variables (overloaded literals and
//! operators, record fields, constructors, equality and liftedness) and of sizes.

use crate::types::{
    Arrow, Size, SizeOp, Ty, TyArg, Uid, const_value, make_array, size_has_var, size_op, size_poly,
};
use syntax::ast::{Name, PrimType};

/// A set of primitive types, as a bit mask over [`PrimType::ALL`].
pub type PrimMask = u16;

/// The bit of one primitive type.
pub fn prim_bit(p: PrimType) -> PrimMask {
    1 << PrimType::ALL.iter().position(|q| *q == p).unwrap_or(0)
}

/// All integer types.
pub fn mask_integral() -> PrimMask {
    PrimType::ALL
        .iter()
        .filter(|p| p.is_integral())
        .map(|p| prim_bit(*p))
        .sum()
}

/// All floating-point types.
pub fn mask_float() -> PrimMask {
    PrimType::ALL
        .iter()
        .filter(|p| p.is_float())
        .map(|p| prim_bit(*p))
        .sum()
}

/// All numeric types.
pub fn mask_numeric() -> PrimMask {
    mask_integral() | mask_float()
}

/// All primitive types.
pub fn mask_all() -> PrimMask {
    mask_numeric() | prim_bit(PrimType::Bool)
}

/// Describes a mask for messages.
pub fn describe_mask(m: PrimMask) -> String {
    if m == mask_numeric() {
        "a numeric type".into()
    } else if m == mask_integral() {
        "an integral type".into()
    } else if m == mask_float() {
        "a floating-point type".into()
    } else if m == mask_all() {
        "a primitive type".into()
    } else if m == mask_integral() | prim_bit(PrimType::Bool) {
        "an integral type or bool".into()
    } else {
        let names: Vec<&str> = PrimType::ALL
            .iter()
            .filter(|p| m & prim_bit(**p) != 0)
            .map(|p| p.name())
            .collect();
        format!("one of {}", names.join(", "))
    }
}

/// A constraint on a type variable.
#[derive(Clone, Debug, PartialEq)]
pub enum Cons {
    None,
    /// One of a set of primitive types, with a default used when unresolved.
    Prims {
        mask: PrimMask,
        default: Option<PrimType>,
    },
    /// A record (or tuple) with at least these fields.
    Fields(Vec<(Name, Ty)>),
    /// A sum type with at least these constructors.
    Constrs(Vec<(Name, Vec<Ty>)>),
}

/// What is known about an unbound type variable.
#[derive(Clone, Debug)]
pub struct VarInfo {
    /// Let-generalisation level.
    pub level: u32,
    /// May not be a function type (array elements, branches, loop parameters).
    pub no_fun: bool,
    /// Must support equality.
    pub eq: bool,
    pub cons: Cons,
}

/// The state of a type variable.
#[derive(Clone, Debug)]
pub enum VarState {
    Unbound(VarInfo),
    Bound(Ty),
}

/// Why unification failed.
#[derive(Clone, Debug)]
pub enum UErr {
    /// Two types differ (the innermost disagreeing pair).
    Mismatch(Ty, Ty),
    /// Two sizes known at compile time differ.
    Size(Size, Size),
    /// A size known only at run time (a function result's) meets a different size.
    Unknown(Size, Size),
    /// A size variable of a value bound earlier meets an unknown size that only came
    /// into existence afterwards.
    Causality(Size, Size),
    /// A size variable made before a function or lambda was entered meets a size
    /// named by that function's size or value parameters, which is not in scope
    /// where the variable's value is bound (the variable, the size).
    Scope(Size, Size),
    /// A function type where none is allowed.
    Lifted(Ty),
    /// A type outside an overloaded class.
    NotIn(Ty, PrimMask),
    /// A type that does not support equality.
    NoEq(Ty),
    /// A record lacks a field, or a non-record was projected.
    Field(Name, Ty),
    /// A sum type lacks a constructor.
    Constr(Name, Ty),
    /// A constructor is used with a different number of payloads than the sum type
    /// gives it: the name, the payloads it has in the type, those used, the type.
    ConstrArity(Name, usize, usize, Ty),
    /// A function whose result size names its parameter (`(k: i64) -> [k]t`) where a
    /// function type with one result type for every argument is needed.
    Dependent(Name),
    /// A type variable would occur in its own definition.
    Occurs,
}

impl UErr {
    /// The diagnostic code for the failure.
    pub fn code(&self) -> &'static str {
        match self {
            UErr::Size(..) => "S001",
            UErr::Unknown(..) | UErr::Causality(..) => "S003",
            UErr::Dependent(_) | UErr::Scope(..) => "S002",
            UErr::Lifted(_) => "T007",
            UErr::Field(..) => "T004",
            _ => "T002",
        }
    }
}

/// The unification state of one checker run.
#[derive(Debug, Default)]
pub struct Unifier {
    pub vars: Vec<VarState>,
    pub sizes: Vec<Option<Size>>,
    /// Current let-generalisation level.
    pub level: u32,
    /// While set, size mismatches are ignored (size coercions).
    pub ignore_sizes: bool,
    /// The size parameters of functions (`def f [n] ...`): rigid sizes, equal only
    /// to themselves. Other named sizes (variables used as sizes, `let [n]`
    /// sizes, loop parameter sizes, names of dependent function types) stay
    /// lenient.
    pub rigid: std::collections::HashSet<Uid>,
    /// The sizes that each existential size of a declared type ([`Size::Hidden`]) met
    /// during the latest call of [`Unifier::unify`]: one existential size stands for
    /// one size throughout a value.
    pub hidden: Vec<(Uid, Size)>,
    /// Size variables of bound values, with the moment (a uid drawn then) their value
    /// became fixed: unknown sizes made later ([`Size::Exist`] with a greater uid) cannot
    /// be their value.
    pub frozen: std::collections::HashMap<u32, Uid>,
    /// Type variables of bound values (lambda parameters), with the moment their type
    /// became fixed: they may not later become types with unknown sizes made after it.
    pub frozen_tys: std::collections::HashMap<u32, Uid>,
    /// The sizes named by the size and value parameters of functions and lambdas,
    /// each with the number of size variables made before its function was
    /// entered: those variables belong to an enclosing scope, and may not become
    /// the size (a scope violation).
    pub bound_at: std::collections::HashMap<Uid, usize>,
}

impl Unifier {
    /// A fresh unconstrained type variable.
    pub fn fresh(&mut self) -> Ty {
        self.fresh_with(Cons::None, false)
    }

    /// A fresh type variable with a constraint.
    pub fn fresh_with(&mut self, cons: Cons, no_fun: bool) -> Ty {
        let v = self.vars.len() as u32;
        self.vars.push(VarState::Unbound(VarInfo {
            level: self.level,
            no_fun,
            eq: false,
            cons,
        }));
        Ty::Var(v)
    }

    /// A fresh equality type variable.
    pub fn fresh_eq(&mut self) -> Ty {
        let t = self.fresh_with(Cons::None, true);
        if let Ty::Var(v) = t
            && let VarState::Unbound(i) = &mut self.vars[v as usize]
        {
            i.eq = true;
        }
        t
    }

    /// A fresh numeric-class variable.
    pub fn fresh_prims(&mut self, mask: PrimMask, default: Option<PrimType>) -> Ty {
        self.fresh_with(Cons::Prims { mask, default }, true)
    }

    /// A fresh size variable.
    pub fn fresh_size(&mut self) -> Size {
        let v = self.sizes.len() as u32;
        self.sizes.push(None);
        Size::Var(v)
    }

    /// Follows bound variables at the top of a type.
    pub fn shallow(&self, t: &Ty) -> Ty {
        let mut t = t.clone();
        while let Ty::Var(v) = t {
            match &self.vars[v as usize] {
                VarState::Bound(b) => t = b.clone(),
                VarState::Unbound(_) => break,
            }
        }
        if let Ty::Array(e, s) = &t {
            let e2 = self.shallow(e);
            if let Ty::Array(..) = e2 {
                return make_array(e2, s.clone());
            }
        }
        t
    }

    /// Follows bound size variables (also inside symbolic sizes).
    pub fn size(&self, s: &Size) -> Size {
        let mut s = s.clone();
        while let Size::Var(v) = s {
            match &self.sizes[v as usize] {
                Some(b) => s = b.clone(),
                None => break,
            }
        }
        match s {
            Size::Op(op, a, b) => size_op(op, self.size(&a), self.size(&b)),
            s => s,
        }
    }

    /// Resolves all bound variables in a type.
    pub fn zonk(&self, t: &Ty) -> Ty {
        match self.shallow(t) {
            Ty::Array(e, s) => make_array(self.zonk(&e), s.iter().map(|s| self.size(s)).collect()),
            Ty::Tuple(ts) => Ty::Tuple(ts.iter().map(|t| self.zonk(t)).collect()),
            Ty::Record(fs) => {
                Ty::Record(fs.iter().map(|(n, t)| (n.clone(), self.zonk(t))).collect())
            }
            Ty::Sum(cs) => Ty::Sum(
                cs.iter()
                    .map(|(n, ts)| (n.clone(), ts.iter().map(|t| self.zonk(t)).collect()))
                    .collect(),
            ),
            Ty::Arrow(a) => Ty::Arrow(Box::new(Arrow {
                pname: a.pname.clone(),
                param: self.zonk(&a.param),
                ret: self.zonk(&a.ret),
                consume: a.consume,
                ret_unique: a.ret_unique,
                consume_parts: a.consume_parts.clone(),
                ret_parts: a.ret_parts.clone(),
            })),
            Ty::Abs(u, n, args) => Ty::Abs(
                u,
                n,
                args.iter()
                    .map(|a| match a {
                        TyArg::Ty(t) => TyArg::Ty(self.zonk(t)),
                        TyArg::Size(s) => TyArg::Size(self.size(s)),
                    })
                    .collect(),
            ),
            t => t,
        }
    }

    /// The information of an unbound variable.
    pub fn info(&self, v: u32) -> Option<&VarInfo> {
        match &self.vars[v as usize] {
            VarState::Unbound(i) => Some(i),
            VarState::Bound(_) => None,
        }
    }

    /// Unifies two types; `expected` first for messages.
    pub fn unify(&mut self, expected: &Ty, found: &Ty) -> Result<(), UErr> {
        self.hidden.clear();
        self.unify_in(expected, found)
    }

    fn unify_in(&mut self, expected: &Ty, found: &Ty) -> Result<(), UErr> {
        let a = self.shallow(expected);
        let b = self.shallow(found);
        match (&a, &b) {
            (Ty::Var(x), Ty::Var(y)) if x == y => Ok(()),
            (Ty::Var(x), _) => self.bind(*x, &b),
            (_, Ty::Var(y)) => self.bind(*y, &a),
            (Ty::Error, _) | (_, Ty::Error) => Ok(()),
            (Ty::Prim(p), Ty::Prim(q)) if p == q => Ok(()),
            (Ty::Param(u, _), Ty::Param(w, _)) if u == w => Ok(()),
            (Ty::Abs(u, _, xs), Ty::Abs(w, _, ys)) if u == w && xs.len() == ys.len() => {
                for (x, y) in xs.iter().zip(ys) {
                    match (x, y) {
                        (TyArg::Ty(x), TyArg::Ty(y)) => self.unify_in(x, y)?,
                        (TyArg::Size(x), TyArg::Size(y)) => self.unify_size(x, y)?,
                        _ => return Err(UErr::Mismatch(a.clone(), b.clone())),
                    }
                }
                Ok(())
            }
            (Ty::Array(e1, s1), Ty::Array(e2, s2)) => {
                let n = s1.len().min(s2.len());
                for (x, y) in s1.iter().zip(s2.iter()) {
                    self.unify_size(x, y)?;
                }
                let e1 = make_array((**e1).clone(), s1[n..].to_vec());
                let e2 = make_array((**e2).clone(), s2[n..].to_vec());
                if matches!(e1, Ty::Array(..)) && !matches!(self.shallow(&e2), Ty::Var(_)) {
                    return Err(UErr::Mismatch(a.clone(), b.clone()));
                }
                if matches!(e2, Ty::Array(..)) && !matches!(self.shallow(&e1), Ty::Var(_)) {
                    return Err(UErr::Mismatch(a.clone(), b.clone()));
                }
                self.unify_in(&e1, &e2).map_err(|e| self.widen(e, &a, &b))
            }
            (Ty::Tuple(xs), Ty::Tuple(ys)) if xs.len() == ys.len() => {
                for (x, y) in xs.iter().zip(ys) {
                    self.unify_in(x, y).map_err(|e| self.widen(e, &a, &b))?;
                }
                Ok(())
            }
            (Ty::Record(xs), Ty::Record(ys))
                if xs.len() == ys.len() && xs.iter().zip(ys).all(|(x, y)| x.0 == y.0) =>
            {
                for ((_, x), (_, y)) in xs.iter().zip(ys) {
                    self.unify_in(x, y).map_err(|e| self.widen(e, &a, &b))?;
                }
                Ok(())
            }
            (Ty::Sum(xs), Ty::Sum(ys))
                if xs.len() == ys.len()
                    && xs
                        .iter()
                        .zip(ys)
                        .all(|(x, y)| x.0 == y.0 && x.1.len() == y.1.len()) =>
            {
                for ((_, x), (_, y)) in xs.iter().zip(ys) {
                    for (x, y) in x.iter().zip(y) {
                        self.unify_in(x, y).map_err(|e| self.widen(e, &a, &b))?;
                    }
                }
                Ok(())
            }
            (Ty::Arrow(x), Ty::Arrow(y)) => {
                self.unify_in(&x.param, &y.param)
                    .map_err(|e| self.widen(e, &a, &b))?;
                // A result type that names the parameter of one side may not flow into
                // a type variable of the other's result, where the name means nothing.
                let dependent = |one: &Arrow, other: &Arrow| match (&one.pname, &other.pname) {
                    (Some((u, n)), None) => Some((*u, n.clone(), other.ret.clone())),
                    _ => None,
                };
                let watch: Vec<(Uid, Name, Vec<u32>)> = [dependent(x, y), dependent(y, x)]
                    .into_iter()
                    .flatten()
                    .map(|(u, n, r)| {
                        let mut vars = Vec::new();
                        collect_ty_vars(&self.zonk(&r), &mut vars);
                        (u, n, vars)
                    })
                    .filter(|(_, _, vars)| !vars.is_empty())
                    .collect();
                let saved: Vec<(u32, VarState)> = watch
                    .iter()
                    .flat_map(|(_, _, vars)| vars.iter())
                    .map(|v| (*v, self.vars[*v as usize].clone()))
                    .collect();
                self.unify_in(&x.ret, &y.ret)
                    .map_err(|e| self.widen(e, &a, &b))?;
                for (u, n, vars) in watch {
                    if vars
                        .iter()
                        .any(|v| crate::types::ty_mentions(&self.zonk(&Ty::Var(*v)), u))
                    {
                        // Undo the bindings, so that messages show the type as it was.
                        for (v, st) in saved {
                            self.vars[v as usize] = st;
                        }
                        return Err(UErr::Dependent(n));
                    }
                }
                Ok(())
            }
            _ => Err(UErr::Mismatch(a.clone(), b.clone())),
        }
    }

    /// Reports mismatches inside a structure as a mismatch of the whole.
    fn widen(&self, e: UErr, a: &Ty, b: &Ty) -> UErr {
        match e {
            UErr::Mismatch(..) => UErr::Mismatch(self.zonk(a), self.zonk(b)),
            e => e,
        }
    }

    /// Unifies two sizes: distinct known constants, distinct size parameters, and
    /// a size parameter against a constant are mismatches.
    pub fn unify_size(&mut self, x: &Size, y: &Size) -> Result<(), UErr> {
        let x = self.size(x);
        let y = self.size(y);
        // Constant sizes written differently (`2 * 3` and `7`) are compared by value.
        if !self.ignore_sizes
            && let (Some(a), Some(b)) = (const_value(&x), const_value(&y))
        {
            return if a == b {
                Ok(())
            } else {
                Err(UErr::Size(x.clone(), y.clone()))
            };
        }
        match (&x, &y) {
            (Size::Var(a), Size::Var(b)) if a == b => Ok(()),
            (Size::Var(a), Size::Exist(e)) | (Size::Exist(e), Size::Var(a))
                if !self.ignore_sizes && self.frozen.get(a).is_some_and(|t| e > t) =>
            {
                Err(UErr::Causality(x.clone(), y.clone()))
            }
            (Size::Var(a), _) | (_, Size::Var(a))
                if !self.ignore_sizes
                    && self.out_of_scope(*a, if matches!(x, Size::Var(_)) { &y } else { &x }) =>
            {
                let v = Size::Var(*a);
                let other = if matches!(x, Size::Var(_)) {
                    y.clone()
                } else {
                    x.clone()
                };
                Err(UErr::Scope(v, other))
            }
            (Size::Var(a), _) => {
                if !self.ignore_sizes && !size_mentions(&y, *a) {
                    self.sizes[*a as usize] = Some(y.clone());
                }
                Ok(())
            }
            (_, Size::Var(b)) => {
                if !self.ignore_sizes && !size_mentions(&x, *b) {
                    self.sizes[*b as usize] = Some(x.clone());
                }
                Ok(())
            }
            (Size::Const(a), Size::Const(b)) if a != b && !self.ignore_sizes => {
                Err(UErr::Size(x.clone(), y.clone()))
            }
            // Two size parameters of functions are equal only when they are the
            // same, and a size parameter is no constant: `[n]i32` is not `[10]i32`.
            (Size::Named(a, _), Size::Named(b, _))
                if a != b
                    && !self.ignore_sizes
                    && self.rigid.contains(a)
                    && self.rigid.contains(b) =>
            {
                Err(UErr::Size(x.clone(), y.clone()))
            }
            (Size::Named(a, _), Size::Const(_)) | (Size::Const(_), Size::Named(a, _))
                if !self.ignore_sizes && self.rigid.contains(a) =>
            {
                Err(UErr::Size(x.clone(), y.clone()))
            }
            // A compound size over size parameters and constants only is known
            // exactly: `[n + m]` is not `[10]`, nor `[n]`, nor `[m + n + 1]`.
            (Size::Op(..), _) | (_, Size::Op(..))
                if !self.ignore_sizes
                    && self.all_rigid(&x)
                    && self.all_rigid(&y)
                    && size_poly(&x) != size_poly(&y) =>
            {
                Err(UErr::Size(x.clone(), y.clone()))
            }
            (Size::Hidden(h), other) | (other, Size::Hidden(h)) => {
                let (h, other) = (*h, other.clone());
                self.meet_hidden(h, other, &x, &y)
            }
            (Size::Op(o1, a1, b1), Size::Op(o2, a2, b2))
                if (size_has_var(&x) || size_has_var(&y)) && size_poly(&x) != size_poly(&y) =>
            {
                // Size parameters inside a compound size are inferred by matching
                // the structure (`n*m` against `k*l`), only where the two structures
                // agree: after constant folding `2*k*1` is `2*k`, and matching it
                // against `n*m*l` would take `l` to be `k`.
                if o1 == o2 && self.same_structure(&x, &y) {
                    let (a1, b1, a2, b2) = (a1.clone(), b1.clone(), a2.clone(), b2.clone());
                    self.unify_size(&a1, &a2)?;
                    self.unify_size(&b1, &b2)?;
                }
                Ok(())
            }
            (Size::Op(..), Size::Exist(_)) | (Size::Exist(_), Size::Op(..))
                if !self.ignore_sizes && (size_has_var(&x) || size_has_var(&y)) =>
            {
                // A size parameter that occurs only inside a compound size cannot be
                // inferred from a size that is not known.
                Err(UErr::Unknown(x.clone(), y.clone()))
            }
            (Size::Exist(a), Size::Exist(b)) if a == b => Ok(()),
            (Size::Exist(_), Size::Named(..) | Size::Const(_) | Size::Exist(_))
            | (Size::Named(..) | Size::Const(_), Size::Exist(_))
                if !self.ignore_sizes =>
            {
                Err(UErr::Unknown(x.clone(), y.clone()))
            }
            _ => Ok(()),
        }
    }

    /// Whether binding the size variable `v` to `s` would name a parameter of a
    /// function entered after `v` was made.
    fn out_of_scope(&self, v: u32, s: &Size) -> bool {
        match s {
            Size::Named(u, _) => self
                .bound_at
                .get(u)
                .is_some_and(|start| (v as usize) < *start),
            Size::Op(_, a, b) => self.out_of_scope(v, a) || self.out_of_scope(v, b),
            _ => false,
        }
    }

    /// Whether a size is built with `+`, `-` and `*` from constants and size
    /// parameters only: its normal form then says exactly which sizes equal it.
    fn all_rigid(&self, s: &Size) -> bool {
        match s {
            Size::Const(_) => true,
            Size::Named(u, _) => self.rigid.contains(u),
            Size::Op(SizeOp::Add | SizeOp::Sub | SizeOp::Mul, a, b) => {
                self.all_rigid(a) && self.all_rigid(b)
            }
            _ => false,
        }
    }

    /// Whether two sizes have the same operator structure, where an unresolved size
    /// variable stands for any subtree: the condition for matching them part by part.
    fn same_structure(&self, x: &Size, y: &Size) -> bool {
        match (self.size(x), self.size(y)) {
            (Size::Var(_), _) | (_, Size::Var(_)) => true,
            (Size::Op(o1, a1, b1), Size::Op(o2, a2, b2)) => {
                o1 == o2 && self.same_structure(&a1, &a2) && self.same_structure(&b1, &b2)
            }
            (Size::Op(..), _) | (_, Size::Op(..)) => false,
            _ => true,
        }
    }

    /// Records that the existential size `h` met `other`; a second, different size
    /// known symbolically is a mismatch.
    fn meet_hidden(&mut self, h: Uid, other: Size, x: &Size, y: &Size) -> Result<(), UErr> {
        if self.ignore_sizes || size_has_var(&other) {
            return Ok(());
        }
        let Some(p) = size_poly(&other) else {
            return Ok(());
        };
        match self.hidden.iter().find(|(k, _)| *k == h) {
            Some((_, prev)) => {
                if size_poly(prev) == Some(p) {
                    Ok(())
                } else {
                    let prev = prev.clone();
                    let _ = (x, y);
                    Err(UErr::Size(prev, other))
                }
            }
            None => {
                self.hidden.push((h, other));
                Ok(())
            }
        }
    }

    /// Records that the type and size variables of `t` were fixed at moment `at`.
    pub fn freeze_ty(&mut self, t: &Ty, at: Uid) {
        let z = self.zonk(t);
        let (mut vars, mut sizes) = (Vec::new(), Vec::new());
        crate::decls::collect_vars(&z, &mut vars, &mut sizes);
        for v in vars {
            self.frozen_tys.entry(v).or_insert(at);
        }
        for s in sizes {
            self.frozen.entry(s).or_insert(at);
        }
    }

    /// The type variables left open in `t`, also those inside the constraints of open
    /// variables, each with the fields or constructors its constraint names: what a
    /// value of type `t` determines about them itself.
    pub fn open_vars(&self, t: &Ty) -> Vec<(u32, Vec<Name>)> {
        let mut out: Vec<(u32, Vec<Name>)> = Vec::new();
        let mut todo = Vec::new();
        collect_ty_vars(&self.zonk(t), &mut todo);
        while let Some(v) = todo.pop() {
            if out.iter().any(|(w, _)| *w == v) {
                continue;
            }
            let Some(info) = self.info(v) else {
                continue;
            };
            let mut names = Vec::new();
            match &info.cons {
                Cons::Fields(fs) => {
                    for (n, ft) in fs {
                        names.push(n.clone());
                        collect_ty_vars(&self.zonk(ft), &mut todo);
                    }
                }
                Cons::Constrs(cs) => {
                    for (n, ts) in cs {
                        names.push(n.clone());
                        ts.iter()
                            .for_each(|t| collect_ty_vars(&self.zonk(t), &mut todo));
                    }
                }
                Cons::None | Cons::Prims { .. } => {}
            }
            out.push((v, names));
        }
        out
    }

    /// A type with an unknown size made after `now` that the type variable `v` has
    /// taken from elsewhere, where `known` lists the fields or constructors that `v`'s own
    /// constraint named (their types come from the value that had type `v`). A variable
    /// that became a record or sum type is judged by its other fields or constructors;
    /// one that became any other type, by the whole type; one still open, by the
    /// fields or constructors its constraint gained.
    pub fn late_exist(&self, v: u32, known: &[Name], now: Uid) -> Option<Ty> {
        let t = self.shallow(&Ty::Var(v));
        let parts: Vec<Ty> = match &t {
            Ty::Var(w) => match self.info(*w).map(|i| &i.cons) {
                Some(Cons::Fields(fs)) => fs
                    .iter()
                    .filter(|(n, _)| !known.contains(n))
                    .map(|(_, t)| t.clone())
                    .collect(),
                Some(Cons::Constrs(cs)) => cs
                    .iter()
                    .filter(|(n, _)| !known.contains(n))
                    .flat_map(|(_, ts)| ts.iter().cloned())
                    .collect(),
                _ => Vec::new(),
            },
            Ty::Record(fs) if !known.is_empty() => fs
                .iter()
                .filter(|(n, _)| !known.contains(n))
                .map(|(_, t)| t.clone())
                .collect(),
            Ty::Sum(cs) if !known.is_empty() => cs
                .iter()
                .filter(|(n, _)| !known.contains(n))
                .flat_map(|(_, ts)| ts.iter().cloned())
                .collect(),
            Ty::Tuple(ts) if !known.is_empty() => ts
                .iter()
                .enumerate()
                .filter(|(i, _)| !known.iter().any(|n| n.as_ref() == i.to_string()))
                .map(|(_, t)| t.clone())
                .collect(),
            t => vec![t.clone()],
        };
        parts
            .iter()
            .map(|t| self.zonk(t))
            .find(|t| newest_exist(t).is_some_and(|e| e > now))
    }

    fn occurs(&self, v: u32, t: &Ty) -> bool {
        match self.shallow(t) {
            Ty::Var(w) => v == w,
            Ty::Array(e, _) => self.occurs(v, &e),
            Ty::Tuple(ts) => ts.iter().any(|t| self.occurs(v, t)),
            Ty::Record(fs) => fs.iter().any(|(_, t)| self.occurs(v, t)),
            Ty::Sum(cs) => cs
                .iter()
                .any(|(_, ts)| ts.iter().any(|t| self.occurs(v, t))),
            Ty::Arrow(a) => self.occurs(v, &a.param) || self.occurs(v, &a.ret),
            Ty::Abs(_, _, args) => args.iter().any(|a| match a {
                TyArg::Ty(t) => self.occurs(v, t),
                TyArg::Size(_) => false,
            }),
            _ => false,
        }
    }

    /// Lowers the level of every variable in `t` to at most `level`, and marks them
    /// as non-functional / equality when required.
    fn propagate(&mut self, t: &Ty, level: u32, no_fun: bool, eq: bool) {
        match self.shallow(t) {
            Ty::Var(w) => {
                if let VarState::Unbound(i) = &mut self.vars[w as usize] {
                    i.level = i.level.min(level);
                    i.no_fun |= no_fun;
                    i.eq |= eq;
                }
            }
            Ty::Array(e, _) => self.propagate(&e, level, no_fun, eq),
            Ty::Tuple(ts) => ts.iter().for_each(|t| self.propagate(t, level, no_fun, eq)),
            Ty::Record(fs) => fs
                .iter()
                .for_each(|(_, t)| self.propagate(t, level, no_fun, eq)),
            Ty::Sum(cs) => cs
                .iter()
                .for_each(|(_, ts)| ts.iter().for_each(|t| self.propagate(t, level, no_fun, eq))),
            Ty::Arrow(a) => {
                self.propagate(&a.param, level, false, false);
                self.propagate(&a.ret, level, false, false);
            }
            Ty::Abs(_, _, args) => {
                for a in &args {
                    if let TyArg::Ty(t) = a {
                        self.propagate(t, level, no_fun, eq);
                    }
                }
            }
            _ => {}
        }
    }

    fn bind(&mut self, v: u32, t: &Ty) -> Result<(), UErr> {
        let Some(info) = self.info(v).cloned() else {
            let b = self.shallow(&Ty::Var(v));
            return self.unify_in(&b, t);
        };
        if let Ty::Var(w) = t {
            return self.merge(v, *w, info);
        }
        if self.occurs(v, t) {
            return Err(UErr::Occurs);
        }
        let zt = self.zonk(t);
        if info.no_fun && zt.has_arrow() {
            return Err(UErr::Lifted(zt));
        }
        if info.eq && zt.has_arrow() {
            return Err(UErr::NoEq(zt));
        }
        if let Some(t0) = self.frozen_tys.get(&v).copied()
            && !self.ignore_sizes
        {
            if let Some(e) = newest_exist(&zt).filter(|e| *e > t0) {
                return Err(UErr::Causality(Size::Exist(e), Size::Exist(e)));
            }
            self.freeze_ty(&zt, t0);
        }
        // Bind first so that recursive unifications see the binding.
        self.vars[v as usize] = VarState::Bound(t.clone());
        self.propagate(t, info.level, info.no_fun, info.eq);
        match info.cons {
            Cons::None => Ok(()),
            Cons::Prims { mask, .. } => match &zt {
                Ty::Prim(p) if mask & prim_bit(*p) != 0 => Ok(()),
                Ty::Error => Ok(()),
                _ => {
                    // Undo the binding, so that messages show the type as it was.
                    self.vars[v as usize] = VarState::Unbound(info.clone());
                    Err(UErr::NotIn(zt.clone(), mask))
                }
            },
            Cons::Fields(fs) => {
                for (name, fty) in fs {
                    let actual = match &zt {
                        Ty::Record(rs) => rs.iter().find(|(n, _)| *n == name).map(|x| x.1.clone()),
                        Ty::Tuple(ts) => {
                            name.parse::<usize>().ok().and_then(|i| ts.get(i).cloned())
                        }
                        Ty::Error => Some(Ty::Error),
                        _ => None,
                    };
                    match actual {
                        Some(a) => self.unify_in(&a, &fty)?,
                        None => return Err(UErr::Field(name, zt.clone())),
                    }
                }
                Ok(())
            }
            Cons::Constrs(cs) => {
                for (name, payload) in cs {
                    let actual = match &zt {
                        Ty::Sum(ss) => ss.iter().find(|(n, _)| *n == name).map(|x| x.1.clone()),
                        Ty::Error => continue,
                        _ => None,
                    };
                    match actual {
                        Some(a) if a.len() == payload.len() => {
                            for (x, y) in a.iter().zip(&payload) {
                                self.unify_in(x, y)?;
                            }
                        }
                        Some(a) => {
                            return Err(UErr::ConstrArity(
                                name,
                                a.len(),
                                payload.len(),
                                zt.clone(),
                            ));
                        }
                        None => return Err(UErr::Constr(name, zt.clone())),
                    }
                }
                Ok(())
            }
        }
    }

    /// Binds `v` to the unbound variable `w`, combining their constraints into `w`.
    fn merge(&mut self, v: u32, w: u32, vi: VarInfo) -> Result<(), UErr> {
        let Some(wi) = self.info(w).cloned() else {
            let b = self.shallow(&Ty::Var(w));
            return self.bind(v, &b);
        };
        if let Some(t0) = self.frozen_tys.get(&v).copied() {
            let e = self.frozen_tys.entry(w).or_insert(t0);
            *e = (*e).min(t0);
        }
        self.vars[v as usize] = VarState::Bound(Ty::Var(w));
        let mut pending: Vec<(Ty, Ty)> = Vec::new();
        let cons = match (vi.cons.clone(), wi.cons.clone()) {
            (Cons::None, c) | (c, Cons::None) => c,
            (
                Cons::Prims {
                    mask: m1,
                    default: d1,
                },
                Cons::Prims {
                    mask: m2,
                    default: d2,
                },
            ) => {
                let mask = m1 & m2;
                if mask == 0 {
                    return Err(UErr::Mismatch(Ty::Var(v), Ty::Var(w)));
                }
                let in_mask = |d: Option<PrimType>| d.filter(|p| mask & prim_bit(*p) != 0);
                let default = match (in_mask(d1), in_mask(d2)) {
                    (Some(a), Some(b)) if a.is_float() || !b.is_float() => Some(a),
                    (Some(_), Some(b)) => Some(b),
                    (a, b) => a.or(b),
                };
                Cons::Prims { mask, default }
            }
            (Cons::Fields(mut a), Cons::Fields(b)) => {
                for (n, t) in b {
                    match a.iter().find(|(m, _)| *m == n) {
                        Some((_, t0)) => pending.push((t0.clone(), t)),
                        None => a.push((n, t)),
                    }
                }
                Cons::Fields(a)
            }
            (Cons::Constrs(mut a), Cons::Constrs(b)) => {
                for (n, ts) in b {
                    match a.iter().find(|(m, _)| *m == n) {
                        Some((_, t0)) => {
                            if t0.len() != ts.len() {
                                return Err(UErr::Constr(n, Ty::Var(w)));
                            }
                            for (x, y) in t0.iter().zip(ts) {
                                pending.push((x.clone(), y));
                            }
                        }
                        None => a.push((n, ts)),
                    }
                }
                Cons::Constrs(a)
            }
            _ => return Err(UErr::Mismatch(Ty::Var(v), Ty::Var(w))),
        };
        self.vars[w as usize] = VarState::Unbound(VarInfo {
            level: vi.level.min(wi.level),
            no_fun: vi.no_fun || wi.no_fun,
            eq: vi.eq || wi.eq,
            cons,
        });
        for (x, y) in pending {
            self.unify_in(&x, &y)?;
        }
        Ok(())
    }
}

/// Whether a size mentions the size variable `v`.
/// The newest unknown size ([`Size::Exist`]) among a type's array sizes.
fn newest_exist(t: &Ty) -> Option<Uid> {
    let mut best: Option<Uid> = None;
    crate::types::map_sizes(t, &mut |s: &Size| {
        if let Size::Exist(e) = s {
            best = Some(best.map_or(*e, |b| b.max(*e)));
        }
        s.clone()
    });
    best
}

/// The type variables of a type.
fn collect_ty_vars(t: &Ty, out: &mut Vec<u32>) {
    match t {
        Ty::Var(v) => out.push(*v),
        Ty::Prim(_) | Ty::Param(..) | Ty::Error => {}
        Ty::Abs(_, _, args) => {
            for a in args {
                if let TyArg::Ty(t) = a {
                    collect_ty_vars(t, out);
                }
            }
        }
        Ty::Array(e, _) => collect_ty_vars(e, out),
        Ty::Tuple(ts) => ts.iter().for_each(|t| collect_ty_vars(t, out)),
        Ty::Record(fs) => fs.iter().for_each(|(_, t)| collect_ty_vars(t, out)),
        Ty::Sum(cs) => cs
            .iter()
            .for_each(|(_, ts)| ts.iter().for_each(|t| collect_ty_vars(t, out))),
        Ty::Arrow(a) => {
            collect_ty_vars(&a.param, out);
            collect_ty_vars(&a.ret, out);
        }
    }
}

fn size_mentions(s: &Size, v: u32) -> bool {
    match s {
        Size::Var(w) => *w == v,
        Size::Op(_, a, b) => size_mentions(a, v) || size_mentions(b, v),
        _ => false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn literal_class_resolves_to_context() {
        let mut u = Unifier::default();
        let lit = u.fresh_prims(mask_numeric(), Some(PrimType::I32));
        u.unify(&Ty::Prim(PrimType::F32), &lit).unwrap();
        assert_eq!(u.zonk(&lit), Ty::Prim(PrimType::F32));
    }

    #[test]
    fn bool_is_not_numeric() {
        let mut u = Unifier::default();
        let lit = u.fresh_prims(mask_numeric(), None);
        let e = u.unify(&lit, &Ty::Prim(PrimType::Bool)).unwrap_err();
        assert_eq!(e.code(), "T002");
    }

    #[test]
    fn int_and_float_literals_merge_to_float_default() {
        let mut u = Unifier::default();
        let a = u.fresh_prims(mask_numeric(), Some(PrimType::I32));
        let b = u.fresh_prims(mask_float(), Some(PrimType::F64));
        u.unify(&a, &b).unwrap();
        let Ty::Var(v) = u.shallow(&a) else {
            panic!("still a variable")
        };
        assert_eq!(
            u.info(v).unwrap().cons,
            Cons::Prims {
                mask: mask_float(),
                default: Some(PrimType::F64)
            }
        );
    }

    #[test]
    fn distinct_constant_sizes_mismatch() {
        let mut u = Unifier::default();
        let a = make_array(Ty::Prim(PrimType::I32), vec![Size::Const(3)]);
        let b = make_array(Ty::Prim(PrimType::I32), vec![Size::Const(4)]);
        assert_eq!(u.unify(&a, &b).unwrap_err().code(), "S001");
        let n = u.fresh_size();
        let c = make_array(Ty::Prim(PrimType::I32), vec![n.clone()]);
        u.unify(&a, &c).unwrap();
        assert_eq!(u.size(&n), Size::Const(3));
    }

    #[test]
    fn array_variable_gets_rank() {
        let mut u = Unifier::default();
        let e = u.fresh();
        let a = make_array(e.clone(), vec![Size::Any]);
        let b = make_array(Ty::Prim(PrimType::F64), vec![Size::Any, Size::Any]);
        u.unify(&a, &b).unwrap();
        assert_eq!(u.zonk(&e).to_string(), "[]f64");
    }

    #[test]
    fn functions_cannot_be_array_elements() {
        let mut u = Unifier::default();
        let e = u.fresh_with(Cons::None, true);
        let f = Ty::Arrow(Box::new(Arrow {
            pname: None,
            param: Ty::Prim(PrimType::I32),
            ret: Ty::Prim(PrimType::I32),
            consume: false,
            ret_unique: false,
            consume_parts: Vec::new(),
            ret_parts: Vec::new(),
        }));
        assert_eq!(u.unify(&e, &f).unwrap_err().code(), "T007");
    }

    #[test]
    fn field_constraint_checks_record() {
        let mut u = Unifier::default();
        let v = u.fresh_with(
            Cons::Fields(vec![(Name::from("x"), Ty::Prim(PrimType::I32))]),
            false,
        );
        let r = Ty::Record(vec![(Name::from("y"), Ty::Prim(PrimType::I32))]);
        assert_eq!(u.unify(&v, &r).unwrap_err().code(), "T004");
    }
}
