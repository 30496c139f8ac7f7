//! Static values: what a source expression denotes after internalisation.
//!
//! A [`V`] is a tree whose leaves are IR operands. Records and tuples are
//! trees of their components (record fields sorted by name); an array of
//! any element type is [`V::Arr`]: its dimensions (IR sizes, constants or
//! `i64` variables in scope) and its element tree, each of whose leaves is
//! one IR array of primitives with those outer dimensions — so an array of
//! tuples is a tuple of arrays. Functions are [`V::Fun`], statically known
//! closures; they never reach the IR.
//!
//! A [`T`] is the shape of a value without its operands: the key under
//! which a function is specialised, and the recipe for binding fresh
//! variables of the same shape (parameters, loop parameters, branch and
//! call results).

use std::fmt::Write as _;
use std::rc::Rc;

use ir::{Operand, PrimType, Size, Type, VarId};
use syntax::ast::{self, Name};

use crate::env::Env;
use crate::fb::{Fb, sc};

/// A static value.
#[derive(Clone, Debug)]
pub(crate) enum V {
    /// A scalar, or (inside [`V::Arr`]) an array of primitives.
    Leaf(Operand),
    /// A tuple.
    Tuple(Vec<V>),
    /// A record, fields sorted by name.
    Record(Vec<(Name, V)>),
    /// An array: dimensions and the element tree (never itself an array).
    Arr(Vec<Size>, Box<V>),
    /// A function.
    Fun(Rc<Closure>),
    /// A value of a sum type: the tag (an `i64` leaf, the number
    /// [`crate::cx::Cx::ctor_tag`] gives the constructor) and the payload
    /// of every constructor the value may have here, sorted by name. The
    /// payloads of the constructors it does not have hold blank values.
    Sum(Box<V>, Vec<(Name, Vec<V>)>),
}

/// A function value.
#[derive(Debug)]
pub(crate) enum Closure {
    /// A user function or lambda with the environment it was defined in.
    Def {
        def: Rc<FunDef>,
        env: Env,
        /// True for a definition at module level: its environment holds no
        /// IR variables, so it can become an IR function of its own.
        top: bool,
        /// True when the body may refer to IR variables of its environment
        /// (false for module-level definitions). A local function or lambda
        /// that captures none can be passed to a specialised recursive
        /// function (`iter (\x -> x + 1) n`), which would not terminate if
        /// inlined.
        captures: bool,
    },
    /// A prelude intrinsic.
    Intrinsic { name: Name, arity: usize },
    /// A builtin operator.
    Op(Name),
    /// A function applied to some of its arguments, with size arguments
    /// the checker recorded for the use.
    Partial {
        f: Rc<Closure>,
        args: Vec<V>,
        sizes: Vec<(Name, V)>,
    },
    /// A right section `(op y)`: `\x -> f x y`.
    Flip { f: V, y: V },
    /// A projection section `(.a.b)`.
    Project(Vec<Name>),
    /// An index section `(.[i])`, its indices evaluated.
    Index(Vec<crate::index::Idx>),
    /// `(.[i].f)`, `(.a[1:3])`: a path of fields and indices, indices evaluated.
    Path(Vec<crate::paths::PathIdx>),
    /// `\d -> (jvp2 f x d).1` (`forward`) or `\d -> (vjp2 f x d).1`:
    /// one derivative of `f` at `x`, for `jmp2` and `mjp2`.
    Deriv { forward: bool, f: V, x: V },
}

/// A function definition.
#[derive(Debug)]
pub(crate) struct FunDef {
    pub name: Option<Name>,
    pub size_names: Vec<Name>,
    pub params: Vec<ast::Pat>,
    pub body: ast::Expr,
    /// The declared result type.
    pub ret: Option<ast::TypeExp>,
    /// True for a module-level function whose body may call itself (it
    /// has a result type and its name was not bound before).
    pub recursive: bool,
    /// The attributes of the definition (`#[noinline] def f …`), given to
    /// every IR function specialised from it.
    pub attrs: Vec<ir::Attr>,
}

impl FunDef {
    pub fn new(
        name: Option<Name>,
        type_params: &[ast::TypeParam],
        params: Vec<ast::Pat>,
        body: ast::Expr,
    ) -> FunDef {
        let size_names = type_params
            .iter()
            .filter_map(|p| match p {
                ast::TypeParam::Size(i) => Some(i.name.clone()),
                ast::TypeParam::Type(..) => None,
            })
            .collect();
        FunDef {
            name,
            size_names,
            params,
            body,
            ret: None,
            recursive: false,
            attrs: Vec::new(),
        }
    }
}

impl Closure {
    /// The number of arguments before the closure runs.
    pub fn arity(&self) -> usize {
        match self {
            Closure::Def { def, .. } => def.params.len(),
            Closure::Intrinsic { arity, .. } => *arity,
            Closure::Op(_) => 2,
            Closure::Partial { f, args, .. } => f.arity().saturating_sub(args.len()),
            Closure::Flip { .. }
            | Closure::Project(_)
            | Closure::Index(_)
            | Closure::Path(_)
            | Closure::Deriv { .. } => 1,
        }
    }

    /// True when the closure refers to no IR variable.
    pub fn is_static(&self) -> bool {
        match self {
            Closure::Def { top, .. } => *top,
            Closure::Intrinsic { .. } | Closure::Op(_) | Closure::Project(_) => true,
            Closure::Partial { .. }
            | Closure::Flip { .. }
            | Closure::Index(_)
            | Closure::Path(_)
            | Closure::Deriv { .. } => false,
        }
    }
}

impl Closure {
    /// True when the closure may refer to an IR variable: a local function
    /// or lambda that captures one, or a partial application or section
    /// holding one. Such a closure can only be inlined; any other can be
    /// passed to a specialised function.
    pub fn has_ir_var(&self) -> bool {
        match self {
            Closure::Def { top, captures, .. } => !*top && *captures,
            Closure::Intrinsic { .. } | Closure::Op(_) | Closure::Project(_) => false,
            Closure::Partial { f, args, sizes } => {
                f.has_ir_var()
                    || args.iter().any(V::has_ir_var)
                    || sizes.iter().any(|(_, v)| v.has_ir_var())
            }
            Closure::Flip { f, y } => f.has_ir_var() || y.has_ir_var(),
            Closure::Index(_) | Closure::Path(_) | Closure::Deriv { .. } => true,
        }
    }
}

/// The shape of a value.
#[derive(Clone, Debug)]
pub(crate) enum T {
    Prim(PrimType),
    Tuple(Vec<T>),
    Record(Vec<(Name, T)>),
    /// An array: its rank and element shape.
    Arr(usize, Box<T>),
    /// A static function, by identity.
    Fun(Rc<Closure>),
    /// A sum: the constructors (sorted by name) and their payload shapes;
    /// the tag is an `i64` leaf before the payloads.
    Sum(Vec<(Name, Vec<T>)>),
}

impl V {
    /// The unit value.
    pub fn unit() -> V {
        V::Tuple(Vec::new())
    }

    /// The operand of a scalar value.
    pub fn scalar(&self) -> Option<Operand> {
        match self {
            V::Leaf(o) => Some(*o),
            _ => None,
        }
    }

    /// The leaves, left to right.
    pub fn leaves(&self, out: &mut Vec<Operand>) {
        match self {
            V::Leaf(o) => out.push(*o),
            V::Tuple(vs) => vs.iter().for_each(|v| v.leaves(out)),
            V::Record(fs) => fs.iter().for_each(|(_, v)| v.leaves(out)),
            V::Arr(_, e) => e.leaves(out),
            V::Fun(_) => {}
            V::Sum(t, cs) => {
                t.leaves(out);
                cs.iter().flat_map(|(_, p)| p).for_each(|v| v.leaves(out));
            }
        }
    }

    /// The leaves as a list.
    pub fn leaf_list(&self) -> Vec<Operand> {
        let mut out = Vec::new();
        self.leaves(&mut out);
        out
    }

    /// The dimensions of every array, in the order [`V::leaves`] visits them.
    pub fn dims(&self, out: &mut Vec<Size>) {
        match self {
            V::Leaf(_) | V::Fun(_) => {}
            V::Tuple(vs) => vs.iter().for_each(|v| v.dims(out)),
            V::Record(fs) => fs.iter().for_each(|(_, v)| v.dims(out)),
            V::Arr(ds, e) => {
                out.extend(ds.iter().copied());
                e.dims(out);
            }
            V::Sum(_, cs) => cs.iter().flat_map(|(_, p)| p).for_each(|v| v.dims(out)),
        }
    }

    /// The dimensions and then the leaves: how a value crosses a function,
    /// loop or branch boundary.
    pub fn flat(&self) -> Vec<Operand> {
        let mut ds = Vec::new();
        self.dims(&mut ds);
        let mut out: Vec<Operand> = ds.iter().map(|s| size_operand(*s)).collect();
        self.leaves(&mut out);
        out
    }

    /// Replaces the leaves (in order) by `new`.
    pub fn with_leaves(&self, new: &mut impl Iterator<Item = Operand>) -> V {
        match self {
            V::Leaf(o) => V::Leaf(new.next().unwrap_or(*o)),
            V::Tuple(vs) => V::Tuple(vs.iter().map(|v| v.with_leaves(new)).collect()),
            V::Record(fs) => V::Record(
                fs.iter()
                    .map(|(n, v)| (n.clone(), v.with_leaves(new)))
                    .collect(),
            ),
            V::Arr(ds, e) => V::Arr(ds.clone(), Box::new(e.with_leaves(new))),
            V::Fun(c) => V::Fun(c.clone()),
            V::Sum(t, cs) => {
                let t = t.with_leaves(new);
                V::Sum(
                    Box::new(t),
                    cs.iter()
                        .map(|(n, p)| (n.clone(), p.iter().map(|v| v.with_leaves(new)).collect()))
                        .collect(),
                )
            }
        }
    }

    /// True when the value holds a function that refers to IR variables.
    pub fn has_local_fun(&self) -> bool {
        match self {
            V::Leaf(_) => false,
            V::Tuple(vs) => vs.iter().any(V::has_local_fun),
            V::Record(fs) => fs.iter().any(|(_, v)| v.has_local_fun()),
            V::Arr(_, e) => e.has_local_fun(),
            V::Fun(c) => !c.is_static(),
            V::Sum(_, cs) => cs.iter().flat_map(|(_, p)| p).any(V::has_local_fun),
        }
    }

    /// True when the value refers to an IR variable: a variable leaf or
    /// dimension, or a function that captures one.
    pub fn has_ir_var(&self) -> bool {
        match self {
            V::Leaf(o) => matches!(o, Operand::Var(_)),
            V::Tuple(vs) => vs.iter().any(V::has_ir_var),
            V::Record(fs) => fs.iter().any(|(_, v)| v.has_ir_var()),
            V::Arr(ds, e) => ds.iter().any(|d| matches!(d, Size::Var(_))) || e.has_ir_var(),
            V::Fun(c) => c.has_ir_var(),
            V::Sum(t, cs) => t.has_ir_var() || cs.iter().flat_map(|(_, p)| p).any(V::has_ir_var),
        }
    }

    /// The value with every array dimension `d` replaced by `f(d)`.
    pub fn map_dims(&self, f: &dyn Fn(Size) -> Size) -> V {
        match self {
            V::Leaf(_) | V::Fun(_) => self.clone(),
            V::Tuple(vs) => V::Tuple(vs.iter().map(|v| v.map_dims(f)).collect()),
            V::Record(fs) => {
                V::Record(fs.iter().map(|(n, v)| (n.clone(), v.map_dims(f))).collect())
            }
            V::Arr(ds, e) => V::Arr(ds.iter().map(|d| f(*d)).collect(), Box::new(e.map_dims(f))),
            V::Sum(t, cs) => V::Sum(
                t.clone(),
                cs.iter()
                    .map(|(n, p)| (n.clone(), p.iter().map(|v| v.map_dims(f)).collect()))
                    .collect(),
            ),
        }
    }

    /// True when the value holds a function.
    pub fn has_fun(&self) -> bool {
        match self {
            V::Leaf(_) => false,
            V::Tuple(vs) => vs.iter().any(V::has_fun),
            V::Record(fs) => fs.iter().any(|(_, v)| v.has_fun()),
            V::Arr(_, e) => e.has_fun(),
            V::Fun(_) => true,
            V::Sum(_, cs) => cs.iter().flat_map(|(_, p)| p).any(V::has_fun),
        }
    }

    /// The shape of the value.
    pub fn shape(&self, fb: &Fb) -> T {
        self.shape_in(fb)
    }

    fn shape_in(&self, fb: &Fb) -> T {
        match self {
            V::Leaf(o) => T::Prim(fb.op_ty(o).elem),
            V::Tuple(vs) => T::Tuple(vs.iter().map(|v| v.shape_in(fb)).collect()),
            V::Record(fs) => T::Record(
                fs.iter()
                    .map(|(n, v)| (n.clone(), v.shape_in(fb)))
                    .collect(),
            ),
            V::Arr(ds, e) => T::Arr(ds.len(), Box::new(e.shape_in(fb))),
            V::Fun(c) => T::Fun(c.clone()),
            V::Sum(_, cs) => T::Sum(
                cs.iter()
                    .map(|(n, p)| (n.clone(), p.iter().map(|v| v.shape_in(fb)).collect()))
                    .collect(),
            ),
        }
    }
}

/// An `i64` operand for a size.
pub(crate) fn size_operand(s: Size) -> Operand {
    match s {
        Size::Const(c) => Operand::i64(c),
        Size::Var(v) => Operand::Var(v),
        Size::Any => Operand::i64(0),
    }
}

impl T {
    /// A text key for memoisation: functions by identity.
    pub fn key(&self, out: &mut String) {
        match self {
            T::Prim(p) => out.push_str(p.name()),
            T::Tuple(ts) => {
                out.push('(');
                for t in ts {
                    t.key(out);
                    out.push(',');
                }
                out.push(')');
            }
            T::Record(fs) => {
                out.push('{');
                for (n, t) in fs {
                    let _ = write!(out, "{n}:");
                    t.key(out);
                    out.push(',');
                }
                out.push('}');
            }
            T::Arr(r, e) => {
                let _ = write!(out, "[{r}]");
                e.key(out);
            }
            T::Fun(c) => {
                let _ = write!(out, "fn{:p}", Rc::as_ptr(c));
            }
            T::Sum(cs) => {
                out.push('<');
                for (n, ts) in cs {
                    let _ = write!(out, "#{n}");
                    for t in ts {
                        out.push(' ');
                        t.key(out);
                    }
                    out.push('|');
                }
                out.push('>');
            }
        }
    }

    /// Number of dimensions of all arrays.
    pub fn num_dims(&self) -> usize {
        match self {
            T::Prim(_) | T::Fun(_) => 0,
            T::Tuple(ts) => ts.iter().map(T::num_dims).sum(),
            T::Record(fs) => fs.iter().map(|(_, t)| t.num_dims()).sum(),
            T::Arr(r, e) => r + e.num_dims(),
            T::Sum(cs) => cs.iter().flat_map(|(_, p)| p).map(T::num_dims).sum(),
        }
    }

    /// Binds fresh variables of this shape with `mk(name, type)`: first one
    /// `i64` per dimension, then the leaves. Returns the value and all the
    /// variables in order (dimensions, then leaves).
    pub fn instantiate(
        &self,
        fb: &mut Fb,
        name: &str,
        mk: &mut dyn FnMut(&mut Fb, &str, Type) -> VarId,
    ) -> (V, Vec<VarId>) {
        self.instantiate_known(fb, name, &[], mk)
    }

    /// Like [`T::instantiate`], but where `known[i]` is a size, the value
    /// and the leaves' types have that size as dimension `i` instead of
    /// the variable bound for it (which is still bound and returned).
    pub fn instantiate_known(
        &self,
        fb: &mut Fb,
        name: &str,
        known: &[Option<Size>],
        mk: &mut dyn FnMut(&mut Fb, &str, Type) -> VarId,
    ) -> (V, Vec<VarId>) {
        let n = self.num_dims();
        let dims: Vec<VarId> = (0..n)
            .map(|_| mk(fb, &format!("{name}_d"), sc(PrimType::I64)))
            .collect();
        let sizes: Vec<Size> = dims
            .iter()
            .enumerate()
            .map(|(i, d)| known.get(i).copied().flatten().unwrap_or(Size::Var(*d)))
            .collect();
        let mut di = sizes.into_iter();
        let mut leaves = Vec::new();
        let v = self.inst(fb, name, &[], &mut di, &mut leaves, mk);
        let mut all = dims;
        all.extend(leaves);
        (v, all)
    }

    fn inst(
        &self,
        fb: &mut Fb,
        name: &str,
        outer: &[Size],
        dims: &mut dyn Iterator<Item = Size>,
        leaves: &mut Vec<VarId>,
        mk: &mut dyn FnMut(&mut Fb, &str, Type) -> VarId,
    ) -> V {
        match self {
            T::Prim(p) => {
                let v = mk(fb, name, Type::array(*p, outer.to_vec()));
                leaves.push(v);
                V::Leaf(Operand::Var(v))
            }
            T::Tuple(ts) => V::Tuple(
                ts.iter()
                    .map(|t| t.inst(fb, name, outer, dims, leaves, mk))
                    .collect(),
            ),
            T::Record(fs) => V::Record(
                fs.iter()
                    .map(|(n, t)| (n.clone(), t.inst(fb, n, outer, dims, leaves, mk)))
                    .collect(),
            ),
            T::Arr(r, e) => {
                let ds: Vec<Size> = (0..*r).map(|_| dims.next().unwrap_or(Size::Any)).collect();
                let mut all = outer.to_vec();
                all.extend(ds.iter().copied());
                let ev = e.inst(fb, name, &all, dims, leaves, mk);
                V::Arr(ds, Box::new(ev))
            }
            T::Fun(c) => V::Fun(c.clone()),
            T::Sum(cs) => {
                let tag = T::Prim(PrimType::I64).inst(fb, "tag", outer, dims, leaves, mk);
                let cs = cs
                    .iter()
                    .map(|(n, ts)| {
                        let p = ts
                            .iter()
                            .map(|t| t.inst(fb, n, outer, dims, leaves, mk))
                            .collect();
                        (n.clone(), p)
                    })
                    .collect();
                V::Sum(Box::new(tag), cs)
            }
        }
    }

    /// The IR types of the leaves with every dimension `?` (for function
    /// result types).
    pub fn leaf_types_any(&self, outer: usize, out: &mut Vec<Type>) {
        match self {
            T::Prim(p) => out.push(Type::array(*p, vec![Size::Any; outer])),
            T::Tuple(ts) => ts.iter().for_each(|t| t.leaf_types_any(outer, out)),
            T::Record(fs) => fs.iter().for_each(|(_, t)| t.leaf_types_any(outer, out)),
            T::Arr(r, e) => e.leaf_types_any(outer + r, out),
            T::Fun(_) => {}
            T::Sum(cs) => {
                T::Prim(PrimType::I64).leaf_types_any(outer, out);
                cs.iter()
                    .flat_map(|(_, p)| p)
                    .for_each(|t| t.leaf_types_any(outer, out));
            }
        }
    }
}
