//! Constructing functions in code.
//!
//! A [`FunctionBuilder`] owns the variable arena of the function being
//! built; [`BodyBuilder`]s borrow it to append statements to one body, and
//! nest for the bodies of `if`, `loop` and lambdas. Names given to new
//! variables are made unique within the function by appending `_N`.
//!
//! ```
//! use ir::builder::FunctionBuilder;
//! use ir::{BinOp, Operand, PrimType, Type};
//!
//! let mut fb = FunctionBuilder::new("double");
//! let x = fb.param("x", Type::scalar(PrimType::I32));
//! let body = fb.body(|b| {
//!     let y = b.binop("y", BinOp::Add, x.into(), x.into());
//!     vec![y.into()]
//! });
//! let f = fb.finish(vec![Type::scalar(PrimType::I32)], body);
//! let mut prog = ir::Program::default();
//! prog.functions.push(f);
//! ir::verify::verify(&prog).unwrap();
//! ```

use std::collections::HashSet;

use values::PrimType;

use crate::arena::PrimaryMap;
use crate::ids::{EntityId, VarId};
use crate::syntax::*;
use crate::typeof_::TypeCtx;
use crate::types::{Size, Span, Type};

/// The variables of a function under construction, with unique names.
#[derive(Clone, Debug, Default)]
pub struct Vars {
    arena: PrimaryMap<VarId, VarInfo>,
    names: HashSet<String>,
}

impl Vars {
    /// A new variable; its name is `name`, or `name_N` if that is taken.
    pub fn fresh(&mut self, name: &str, ty: Type) -> VarId {
        let base = if name.is_empty() { "v" } else { name };
        let mut unique = base.to_string();
        if self.names.contains(&unique) || !crate::print::is_plain_name(&unique) {
            unique = format!("{base}_{}", self.arena.next_key().index());
            while self.names.contains(&unique) {
                unique.push('_');
            }
        }
        self.names.insert(unique.clone());
        self.arena.push(VarInfo { name: unique, ty })
    }

    /// The type of a variable (a `bool` scalar for an unknown id).
    pub fn type_of(&self, v: VarId) -> Type {
        self.arena
            .get(v)
            .map(|i| i.ty.clone())
            .unwrap_or(Type::scalar(PrimType::Bool))
    }

    /// The arena.
    pub fn arena(&self) -> &PrimaryMap<VarId, VarInfo> {
        &self.arena
    }
}

/// Builds one [`Function`].
#[derive(Debug)]
pub struct FunctionBuilder {
    name: String,
    attrs: Vec<Attr>,
    params: Vec<Param>,
    vars: Vars,
}

impl FunctionBuilder {
    /// Starts a function called `name`.
    pub fn new(name: &str) -> FunctionBuilder {
        FunctionBuilder {
            name: name.to_string(),
            attrs: Vec::new(),
            params: Vec::new(),
            vars: Vars::default(),
        }
    }

    /// Adds a parameter.
    pub fn param(&mut self, name: &str, ty: Type) -> VarId {
        let v = self.vars.fresh(name, ty);
        self.params.push(Param::new(v));
        v
    }

    /// Adds a unique (consumable) parameter.
    pub fn unique_param(&mut self, name: &str, ty: Type) -> VarId {
        let v = self.vars.fresh(name, ty);
        self.params.push(Param::unique(v));
        v
    }

    /// Adds a function attribute.
    pub fn attr(&mut self, a: Attr) {
        self.attrs.push(a);
    }

    /// A new variable of the function.
    pub fn var(&mut self, name: &str, ty: Type) -> VarId {
        self.vars.fresh(name, ty)
    }

    /// Builds the function's body with `f`, which returns the results.
    pub fn body(&mut self, f: impl FnOnce(&mut BodyBuilder<'_>) -> Vec<Operand>) -> Body {
        let mut b = BodyBuilder::new(&mut self.vars);
        let result = f(&mut b);
        b.finish(result)
    }

    /// The finished function.
    pub fn finish(self, ret: Vec<Type>, body: Body) -> Function {
        Function {
            name: self.name,
            attrs: self.attrs,
            params: self.params,
            ret,
            body,
            vars: self.vars.arena,
        }
    }
}

/// Appends statements to one body.
#[derive(Debug)]
pub struct BodyBuilder<'a> {
    vars: &'a mut Vars,
    stms: Vec<Stm>,
    span: Span,
    next_attrs: Vec<Attr>,
}

impl<'a> BodyBuilder<'a> {
    /// A builder for a body whose variables live in `vars`.
    pub fn new(vars: &'a mut Vars) -> BodyBuilder<'a> {
        BodyBuilder {
            vars,
            stms: Vec::new(),
            span: Span::NONE,
            next_attrs: Vec::new(),
        }
    }

    /// A new variable.
    pub fn var(&mut self, name: &str, ty: Type) -> VarId {
        self.vars.fresh(name, ty)
    }

    /// The type of an operand.
    pub fn type_of(&self, o: &Operand) -> Type {
        match o {
            Operand::Var(v) => self.vars.type_of(*v),
            Operand::Const(c) => Type::scalar(c.prim_type()),
        }
    }

    /// The span given to the statements pushed from now on.
    pub fn set_span(&mut self, span: Span) {
        self.span = span;
    }

    /// Attributes for the next statement pushed.
    pub fn attrs(&mut self, attrs: Vec<Attr>) {
        self.next_attrs = attrs;
    }

    /// Appends `pat = exp`.
    pub fn push(&mut self, pat: Vec<VarId>, exp: Exp) {
        self.stms.push(Stm {
            pat,
            exp,
            attrs: std::mem::take(&mut self.next_attrs),
            span: self.span,
        });
    }

    /// Appends `exp`, binding its results to new variables named
    /// `name`, `name_1`, … whose types are inferred; fails (appending
    /// nothing) when the expression is ill-typed. Applications cannot be
    /// inferred here: use [`BodyBuilder::push`] with typed variables.
    pub fn bind(&mut self, name: &str, exp: Exp) -> Result<Vec<VarId>, String> {
        let ctx = TypeCtx {
            vars: self.vars.arena(),
            functions: None,
        };
        let types = ctx.exp_types(&exp)?;
        let pat = types
            .into_iter()
            .map(|t| self.vars.fresh(name, t))
            .collect();
        self.push(Vec::clone(&pat), exp);
        Ok(pat)
    }

    /// Like [`BodyBuilder::bind`] for an expression with one result.
    pub fn bind1(&mut self, name: &str, exp: Exp) -> Result<VarId, String> {
        match self.bind(name, exp)?.as_slice() {
            [v] => Ok(*v),
            vs => Err(format!("expression has {} results, not one", vs.len())),
        }
    }

    /// `name = op(x, y)`, typed as `x`.
    pub fn binop(&mut self, name: &str, op: BinOp, x: Operand, y: Operand) -> VarId {
        let t = self.type_of(&x);
        let v = self.var(name, t);
        self.push(vec![v], Exp::BinOp(op, x, y));
        v
    }

    /// `name = op(x, y)` for a comparison.
    pub fn cmp(&mut self, name: &str, op: CmpOp, x: Operand, y: Operand) -> VarId {
        let v = self.var(name, Type::scalar(PrimType::Bool));
        self.push(vec![v], Exp::Cmp(op, x, y));
        v
    }

    /// `name = arr[i...]` for a full index (a scalar).
    pub fn index(&mut self, name: &str, arr: VarId, idx: &[Operand]) -> VarId {
        let t = Type::scalar(self.vars.type_of(arr).elem);
        let v = self.var(name, t);
        let idx = idx.iter().map(|i| DimIndex::Fix(*i)).collect();
        self.push(vec![v], Exp::Index(arr, idx));
        v
    }

    /// A nested body (for `if` and `loop`) built by `f`.
    pub fn nested(&mut self, f: impl FnOnce(&mut BodyBuilder<'_>) -> Vec<Operand>) -> Body {
        let mut b = BodyBuilder::new(self.vars);
        b.span = self.span;
        let result = f(&mut b);
        b.finish(result)
    }

    /// A lambda with parameters named and typed by `params`, result types
    /// `ret`, and a body built by `f` from the parameter variables.
    pub fn lambda(
        &mut self,
        params: &[(&str, Type)],
        ret: Vec<Type>,
        f: impl FnOnce(&mut BodyBuilder<'_>, &[VarId]) -> Vec<Operand>,
    ) -> Lambda {
        let vs: Vec<VarId> = params
            .iter()
            .map(|(n, t)| self.vars.fresh(n, t.clone()))
            .collect();
        let body = self.nested(|b| f(b, &vs));
        Lambda {
            params: vs.into_iter().map(Param::new).collect(),
            ret,
            body,
        }
    }

    /// The binary operator `op` on scalars of type `t` as a lambda.
    pub fn binop_lambda(&mut self, op: BinOp, t: PrimType) -> Lambda {
        let st = Type::scalar(t);
        self.lambda(
            &[("a", st.clone()), ("b", st.clone())],
            vec![st],
            |b, ps| vec![b.binop("r", op, ps[0].into(), ps[1].into()).into()],
        )
    }

    /// `map` of `lambda` over `inputs` of outer size `w`; binds one array
    /// per lambda result.
    pub fn map(&mut self, name: &str, w: Operand, inputs: Vec<VarId>, map: Lambda) -> Vec<VarId> {
        let ws = w.to_size();
        let pat = map
            .ret
            .iter()
            .map(|t| {
                let t = if t.acc { t.clone() } else { t.array_of(ws) };
                self.vars.fresh(name, t)
            })
            .collect::<Vec<_>>();
        let exp = Exp::Screma(Box::new(Screma {
            w,
            inputs,
            scans: Vec::new(),
            reduces: Vec::new(),
            map,
        }));
        self.push(pat.clone(), exp);
        pat
    }

    /// The finished body with results `result`.
    pub fn finish(self, result: Vec<Operand>) -> Body {
        Body {
            stms: self.stms,
            result,
        }
    }
}

/// The shape `[n]` of a size operand, for convenience.
pub fn dim(n: Operand) -> Vec<Size> {
    vec![n.to_size()]
}
