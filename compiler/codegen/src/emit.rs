//! Rust code for one IR function: statements become `let` bindings, bodies
//! become blocks, loops become Rust loops over a tuple of loop state.
//!
//! Values: a scalar is a Rust primitive; an array (or accumulator) is the
//! runtime's `Arr<T>`. Every function returns `R<(results,)>`, so a
//! run-time failure propagates with `?` and keeps the span of the statement
//! that failed.
//!
//! Moves: an array used by value (aliased, passed to a function, updated in
//! place, carried by a loop) is moved into its last use when it was bound
//! in the same body (or is movable into the branch of an `if` or the scope
//! of a `with_acc` being emitted), and cloned otherwise. Cloning shares the
//! buffer; an update then copies it, which keeps the semantics and makes
//! the in-place updates of a loop's unique array happen in place.

use std::collections::{HashMap, HashSet};
use std::fmt::Write;

use ir::uses::{exp_binds, exp_uses};
use ir::walk::{Occ, walk_body, walk_exp};
use ir::{
    Body, DimIndex, Exp, Function, Lambda, LoopForm, Operand, Program, Size, Span, Stm, Type, VarId,
};
use values::PrimType;

use crate::Options;
use crate::scalar;

/// An error of code generation: a construct the emitter cannot compile.
pub type Error = String;
type E<T> = Result<T, Error>;

/// The bookkeeping of one body being emitted.
struct Level {
    /// Variables that may be moved from this body: bound in it, or movable
    /// into it from the enclosing body.
    local: HashSet<VarId>,
    /// The index of the last statement using each variable (the number of
    /// statements for the results).
    last_use: HashMap<VarId, usize>,
    /// Occurrences of each variable in the current statement.
    occ: HashMap<VarId, usize>,
    /// The current statement.
    cur: usize,
}

/// Emits one function.
pub struct FnEmitter<'a> {
    prog: &'a Program,
    id: ir::FunId,
    f: &'a Function,
    opts: &'a Options,
    /// The Rust code written so far.
    pub out: String,
    levels: Vec<Level>,
    /// The operator closure of each accumulator variable (`None`: updates
    /// overwrite).
    acc_ops: HashMap<VarId, Option<String>>,
    /// The neutral element (a Rust expression) of each accumulator operator.
    acc_neutral: HashMap<String, String>,
    fresh: usize,
    /// The parallel depth up to which SOACs may still be segmented
    /// operations: 0, or deeper inside the body of a map with parallelism
    /// inside (`segnest`).
    par_inside: usize,
    /// Nesting depth of parallel regions being emitted.
    in_par: usize,
    unsafe_depth: usize,
    /// The text of a source location, for naming segmented operations.
    locate: Option<&'a dyn Fn(Span) -> String>,
    /// The function's table of statement locations (`L_`): failing
    /// operations take a reference to their entry, read only when they
    /// fail.
    locs: Vec<(u32, u32, u32)>,
    /// The index of each location in `locs`.
    loc_ids: HashMap<(u32, u32, u32), usize>,
    /// The number of uses of each variable in the whole function.
    uses: HashMap<VarId, usize>,
}

/// The Rust name of variable `v`.
pub fn var(v: VarId) -> String {
    format!("v{}", ir::ids::EntityId::index(v))
}

/// The Rust name of function `f`.
pub fn fun_name(f: ir::FunId) -> String {
    format!("f{}", ir::ids::EntityId::index(f))
}

/// The Rust type of an IR type.
pub fn rust_type(t: &Type) -> String {
    if t.shape.is_empty() && !t.acc {
        scalar::rust_prim(t.elem).to_string()
    } else {
        format!("Arr<{}>", scalar::rust_prim(t.elem))
    }
}

/// A span as a Rust tuple expression.
pub fn span_lit(s: Span) -> String {
    format!("({}u32, {}u32, {}u32)", s.file, s.start, s.end)
}

fn tuple(items: &[String]) -> String {
    if items.len() == 1 {
        format!("({},)", items[0])
    } else {
        format!("({})", items.join(", "))
    }
}

fn occurrences(e: &Exp) -> HashMap<VarId, usize> {
    let mut m = HashMap::new();
    walk_exp(e, &mut |o| {
        if let Occ::Use(v) = o {
            *m.entry(v).or_insert(0) += 1;
        }
    });
    m
}

impl<'a> FnEmitter<'a> {
    /// An emitter for function `f` of `prog`.
    pub fn new(
        prog: &'a Program,
        id: ir::FunId,
        f: &'a Function,
        opts: &'a Options,
    ) -> FnEmitter<'a> {
        FnEmitter {
            prog,
            id,
            f,
            opts,
            out: String::new(),
            levels: Vec::new(),
            acc_ops: HashMap::new(),
            acc_neutral: HashMap::new(),
            fresh: 0,
            par_inside: 0,
            in_par: 0,
            unsafe_depth: 0,
            locate: None,
            locs: Vec::new(),
            loc_ids: HashMap::new(),
            uses: HashMap::new(),
        }
    }

    fn w(&mut self, s: &str) {
        self.out.push_str(s);
    }

    fn next_id(&mut self) -> usize {
        self.fresh += 1;
        self.fresh
    }

    fn ty(&self, v: VarId) -> E<&'a Type> {
        self.f
            .var_type(v)
            .ok_or_else(|| format!("variable {v:?} is not in function `{}`", self.f.name))
    }

    fn is_array(&self, v: VarId) -> bool {
        self.f.var_type(v).is_some_and(|t| !t.is_scalar())
    }

    /// An operand read by value where it is a scalar, or by reference (the
    /// variable's name) where it is an array.
    fn read(&self, o: &Operand) -> String {
        match o {
            Operand::Const(c) => scalar::literal(*c),
            Operand::Var(v) => var(*v),
        }
    }

    /// An operand used by value: arrays moved at their last use, cloned
    /// otherwise.
    fn take(&self, o: &Operand) -> String {
        match o {
            Operand::Const(c) => scalar::literal(*c),
            Operand::Var(v) => self.take_var(*v),
        }
    }

    fn movable(&self, v: VarId) -> bool {
        let Some(l) = self.levels.last() else {
            return false;
        };
        l.local.contains(&v)
            && l.last_use.get(&v) == Some(&l.cur)
            && l.occ.get(&v).copied().unwrap_or(0) <= 1
    }

    fn take_var(&self, v: VarId) -> String {
        if !self.is_array(v) || self.movable(v) {
            var(v)
        } else {
            format!("{}.clone()", var(v))
        }
    }

    /// The variables of the current body that may move into a nested
    /// block run at most once (a branch of an `if`, a `with_acc` scope).
    fn movable_into_block(&self) -> HashSet<VarId> {
        match self.levels.last() {
            Some(l) => l
                .local
                .iter()
                .filter(|v| l.last_use.get(v) == Some(&l.cur))
                .copied()
                .collect(),
            None => HashSet::new(),
        }
    }

    fn size(&self, s: &Size) -> E<String> {
        match s {
            Size::Const(n) => Ok(format!("({n}i64)")),
            Size::Var(v) => Ok(var(*v)),
            Size::Any => Err("a size `?` in an expression cannot be computed".into()),
        }
    }

    fn sizes(&self, s: &[Size]) -> E<String> {
        let v: Vec<String> = s.iter().map(|d| self.size(d)).collect::<E<_>>()?;
        Ok(format!("&[{}]", v.join(", ")))
    }

    /// Emits the function.
    pub fn function(&mut self) -> E<()> {
        let f = self.f;
        let params: Vec<String> = f
            .params
            .iter()
            .map(|p| Ok(format!("{}: {}", var(p.var), rust_type(self.ty(p.var)?))))
            .collect::<E<_>>()?;
        let rets: Vec<String> = f.ret.iter().map(rust_type).collect();
        writeln!(
            self.out,
            "#[allow(unused_mut, unused_variables, unused_parens)]\nfn {}({}) -> R<{}> {{",
            fun_name(self.id),
            params.join(", "),
            tuple(&rets)
        )
        .ok();
        let locals: Vec<VarId> = f.params.iter().map(|p| p.var).collect();
        walk_body(&f.body, &mut |o| {
            if let Occ::Use(v) = o {
                *self.uses.entry(v).or_insert(0) += 1;
            }
        });
        let res = self.body(&f.body, &locals, HashSet::new())?;
        if !self.locs.is_empty() {
            let items: Vec<String> = self
                .locs
                .iter()
                .map(|(f, s, e)| format!("({f}, {s}, {e})"))
                .collect();
            writeln!(
                self.out,
                "static L_: [(u32, u32, u32); {}] = [{}];",
                items.len(),
                items.join(", ")
            )
            .ok();
        }
        writeln!(self.out, "Ok({res})\n}}\n").ok();
        Ok(())
    }

    /// Emits the statements of `b` and returns its results as a tuple
    /// expression. `bound` are the variables bound just before (parameters),
    /// `inherited` those movable into it from the enclosing body.
    fn body(&mut self, b: &Body, bound: &[VarId], inherited: HashSet<VarId>) -> E<String> {
        let mut local = inherited;
        local.extend(bound.iter().copied());
        let mut last_use = HashMap::new();
        for (k, s) in b.stms.iter().enumerate() {
            local.extend(s.pat.iter().copied());
            let mut u = HashSet::new();
            exp_uses(&self.f.vars, &s.exp, &mut u);
            for v in u {
                last_use.insert(v, k);
            }
        }
        let n = b.stms.len();
        let mut res_occ = HashMap::new();
        for o in &b.result {
            if let Operand::Var(v) = o {
                last_use.insert(*v, n);
                *res_occ.entry(*v).or_insert(0) += 1;
            }
        }
        self.levels.push(Level {
            local,
            last_use,
            occ: HashMap::new(),
            cur: 0,
        });
        let r = self.stms(b);
        let out = match r {
            Ok(()) => {
                if let Some(l) = self.levels.last_mut() {
                    l.cur = n;
                    l.occ = res_occ;
                }
                let items: Vec<String> = b.result.iter().map(|o| self.take(o)).collect();
                Ok(tuple(&items))
            }
            Err(e) => Err(e),
        };
        self.levels.pop();
        out
    }

    fn stms(&mut self, b: &Body) -> E<()> {
        let mut k = 0;
        while k < b.stms.len() {
            let s = &b.stms[k];
            if let Some(n) = self.literal(&b.stms[k..])? {
                k += n;
                continue;
            }
            let occ = occurrences(&s.exp);
            if let Some(l) = self.levels.last_mut() {
                l.cur = k;
                l.occ = occ;
            }
            self.stm(s)?;
            k += 1;
        }
        Ok(())
    }

    /// An array literal: a `scratch` array of constant shape whose every
    /// element the next statements write once, each at a constant index,
    /// each intermediate array used only by the next write. Emits the
    /// array built from its elements at once (no per-element update) and
    /// returns the number of statements it covers.
    fn literal(&mut self, stms: &[Stm]) -> E<Option<usize>> {
        const MAX_ELEMS: i64 = 64;
        let Some(first) = stms.first() else {
            return Ok(None);
        };
        let (Exp::Scratch { elem, shape }, &[start]) = (&first.exp, first.pat.as_slice()) else {
            return Ok(None);
        };
        let mut cur = start;
        let dims: Option<Vec<i64>> = shape
            .iter()
            .map(|d| match d {
                Size::Const(n) if *n >= 0 => Some(*n),
                _ => None,
            })
            .collect();
        let Some(dims) = dims else {
            return Ok(None);
        };
        let n = dims.iter().product::<i64>();
        if n == 0 || n > MAX_ELEMS || dims.is_empty() {
            return Ok(None);
        }
        let mut elems: Vec<Option<String>> = vec![None; n as usize];
        for (j, s) in stms.iter().enumerate().skip(1).take(n as usize) {
            let (Exp::Update(arr, idx, v), [next]) = (&s.exp, s.pat.as_slice()) else {
                return Ok(None);
            };
            if *arr != cur || self.uses.get(&cur) != Some(&1) || idx.len() != dims.len() {
                return Ok(None);
            }
            if let Operand::Var(x) = v
                && self.is_array(*x)
            {
                return Ok(None);
            }
            let mut flat = 0i64;
            for (d, &len) in idx.iter().zip(&dims) {
                match d {
                    DimIndex::Fix(Operand::Const(c)) => match c.as_i128() {
                        Some(i) if i >= 0 && i < i128::from(len) => flat = flat * len + i as i64,
                        _ => return Ok(None),
                    },
                    _ => return Ok(None),
                }
            }
            let slot = &mut elems[flat as usize];
            if slot.is_some() {
                return Ok(None);
            }
            *slot = Some(self.read(v));
            cur = *next;
            if j == n as usize {
                let items: Option<Vec<String>> = elems.iter().cloned().collect();
                let Some(items) = items else {
                    return Ok(None);
                };
                let shape: Vec<String> = dims.iter().map(|d| format!("{d}usize")).collect();
                writeln!(
                    self.out,
                    "let {}: Arr<{t}> = Arr::new([{}], vec![{}]);",
                    var(cur),
                    shape.join(", "),
                    items.join(", "),
                    t = scalar::rust_prim(*elem),
                )
                .ok();
                return Ok(Some(n as usize + 1));
            }
        }
        Ok(None)
    }

    fn pattern(&self, pat: &[VarId]) -> E<(String, String)> {
        let names: Vec<String> = pat.iter().map(|v| var(*v)).collect();
        let types: Vec<String> = pat
            .iter()
            .map(|v| Ok(rust_type(self.ty(*v)?)))
            .collect::<E<_>>()?;
        Ok((tuple(&names), tuple(&types)))
    }

    fn stm(&mut self, s: &Stm) -> E<()> {
        let unsafe_here = s.attrs.contains(&ir::Attr::Unsafe);
        if unsafe_here {
            self.unsafe_depth += 1;
        }
        let r = self.stm_inner(s);
        if unsafe_here {
            self.unsafe_depth -= 1;
        }
        r
    }

    fn checks_off(&self) -> bool {
        !self.opts.safe || self.unsafe_depth > 0
    }

    /// The location of `span` as a Rust expression: an entry of the
    /// function's location table.
    fn loc(&mut self, span: Span) -> String {
        let key = (span.file, span.start, span.end);
        let next = self.locs.len();
        let k = *self.loc_ids.entry(key).or_insert(next);
        if k == next {
            self.locs.push(key);
        }
        format!("L_[{k}]")
    }

    fn stm_inner(&mut self, s: &Stm) -> E<()> {
        let sp = self.loc(s.span);
        if let Exp::Assert { cond, msg, args } = &s.exp {
            let c = self.read(cond);
            let failure = if args.is_empty() {
                format!("assertion_failure({msg:?}, &{sp})")
            } else {
                let vals: Vec<String> = args
                    .iter()
                    .map(|a| format!("Elem::to_prim({})", self.read(a)))
                    .collect();
                format!(
                    "assertion_failure_with({msg:?}, &[{}], &{sp})",
                    vals.join(", ")
                )
            };
            writeln!(self.out, "if !{c} {{ return Err({failure}); }}").ok();
            return Ok(());
        }
        let (pat, types) = self.pattern(&s.pat)?;
        if let Some(e) = self.simple(s, &sp)? {
            writeln!(self.out, "let {pat}: {types} = ({e},);").ok();
            return Ok(());
        }
        write!(self.out, "let {pat}: {types} = ").ok();
        self.compound(s, &sp)?;
        self.w(";\n");
        Ok(())
    }

    fn prim_of(&self, o: &Operand) -> E<PrimType> {
        match o {
            Operand::Const(c) => Ok(c.prim_type()),
            Operand::Var(v) => Ok(self.ty(*v)?.elem),
        }
    }

    fn ix_list(&self, idx: &[DimIndex]) -> String {
        let parts: Vec<String> = idx
            .iter()
            .map(|d| match d {
                DimIndex::Fix(i) => format!("Ix::Fix({})", self.read(i)),
                DimIndex::Range { start, len, stride } => format!(
                    "Ix::Range({}, {}, {})",
                    self.read(start),
                    self.read(len),
                    self.read(stride)
                ),
            })
            .collect();
        format!("&[{}]", parts.join(", "))
    }

    fn fixed(idx: &[DimIndex]) -> Option<Vec<Operand>> {
        idx.iter()
            .map(|d| match d {
                DimIndex::Fix(i) => Some(*i),
                DimIndex::Range { .. } => None,
            })
            .collect()
    }

    /// A single-result expression, when `s` is one.
    fn simple(&mut self, s: &Stm, sp: &str) -> E<Option<String>> {
        Ok(Some(match &s.exp {
            Exp::Atom(o) => {
                if let (Operand::Var(v), Some(p)) = (o, s.pat.first()) {
                    self.set_acc_op(*p, *v);
                }
                self.take(o)
            }
            Exp::UnOp(op, x) => scalar::unop(*op, self.prim_of(x)?, &self.read(x)),
            Exp::BinOp(op, x, y) => {
                scalar::binop(*op, self.prim_of(x)?, &self.read(x), &self.read(y), sp)?
            }
            Exp::Cmp(op, x, y) => scalar::cmp(*op, &self.read(x), &self.read(y)),
            Exp::Convert(k, t, x) => scalar::convert(*k, self.prim_of(x)?, *t, &self.read(x)),
            Exp::Math(f, args) => {
                let t = match args.first() {
                    Some(a) => self.prim_of(a)?,
                    None => return Err("a math function without arguments".into()),
                };
                let a: Vec<String> = args.iter().map(|a| self.read(a)).collect();
                scalar::math(*f, t, &a)
            }
            Exp::Index(arr, idx) => {
                let a = var(*arr);
                let rank = self.ty(*arr)?.rank();
                match Self::fixed(idx) {
                    Some(ix) if ix.len() == rank => {
                        let ixs: Vec<String> = ix.iter().map(|i| self.read(i)).collect();
                        if self.checks_off() && rank == 1 {
                            format!("{a}.as_slice()[{} as usize]", ixs[0])
                        } else if rank == 1 {
                            format!("{a}.get1({}, &{sp})?", ixs[0])
                        } else if rank == 2 {
                            format!("{a}.get2({}, {}, &{sp})?", ixs[0], ixs[1])
                        } else {
                            format!("{a}.getn(&[{}], &{sp})?", ixs.join(", "))
                        }
                    }
                    _ => format!("at({a}.slice({}), {sp})?", self.ix_list(idx)),
                }
            }
            Exp::Update(arr, idx, v) => {
                let a = self.take_var(*arr);
                let rank = self.ty(*arr)?.rank();
                let value_scalar = match v {
                    Operand::Const(_) => true,
                    Operand::Var(x) => !self.is_array(*x),
                };
                match Self::fixed(idx) {
                    Some(ix) if ix.len() == rank && value_scalar => {
                        let ixs: Vec<String> = ix.iter().map(|i| self.read(i)).collect();
                        if rank == 1 {
                            format!("{a}.set1({}, {}, &{sp})?", ixs[0], self.read(v))
                        } else {
                            format!("{a}.set(&[{}], {}, &{sp})?", ixs.join(", "), self.read(v))
                        }
                    }
                    _ if value_scalar => format!(
                        "at({a}.update_fill({}, {}), {sp})?",
                        self.ix_list(idx),
                        self.read(v)
                    ),
                    _ => format!(
                        "at({a}.update({}, &{}), {sp})?",
                        self.ix_list(idx),
                        self.read(v)
                    ),
                }
            }
            Exp::Iota { n, start, step } => {
                let t = self.prim_of(start)?;
                let tn = scalar::rust_prim(t);
                let elem = if t.is_integer() {
                    format!(
                        "{}.wrapping_add({}.wrapping_mul(k as {tn}))",
                        self.read(start),
                        self.read(step)
                    )
                } else {
                    format!(
                        "<{tn} as Float>::from64(Float::to64({}) + Float::to64({}) * k as f64)",
                        self.read(start),
                        self.read(step)
                    )
                };
                format!(
                    "{{ let n_ = at(len_of({}), {sp})?; Arr::new([n_], (0..n_).map(|k| {elem}).collect()) }}",
                    self.read(n)
                )
            }
            Exp::Replicate { shape, value } => {
                let dims = self.sizes(shape)?;
                match value {
                    Operand::Var(x) if self.is_array(*x) => {
                        format!("at(Arr::replicate_arr({dims}, &{}), {sp})?", var(*x))
                    }
                    _ => format!("at(Arr::replicate({dims}, {}), {sp})?", self.read(value)),
                }
            }
            Exp::Reshape { shape, arr } => {
                format!("at({}.reshape({}), {sp})?", var(*arr), self.sizes(shape)?)
            }
            Exp::Rearrange { perm, arr } => {
                let p: Vec<String> = perm.iter().map(|x| x.to_string()).collect();
                format!("{}.rearrange(&[{}])", var(*arr), p.join(", "))
            }
            Exp::Concat { dim, len, arrs } => {
                let a: Vec<String> = arrs.iter().map(|x| format!("&{}", var(*x))).collect();
                format!(
                    "at(Arr::concat({dim}, {}, &[{}]), {sp})?",
                    self.size(len)?,
                    a.join(", ")
                )
            }
            // A copy is a fresh array; where the copied array dies here, its
            // buffer is reused when nothing else holds it.
            Exp::Copy(arr) if self.movable(*arr) => format!("{}.into_unique()", var(*arr)),
            Exp::Copy(arr) => format!("{}.copy()", var(*arr)),
            Exp::Scratch { elem, shape } => format!(
                "at(Arr::<{}>::scratch({}), {sp})?",
                scalar::rust_prim(*elem),
                self.sizes(shape)?
            ),
            Exp::UpdateAcc { acc, idx, value } => {
                let a = self.take_var(*acc);
                let op = self.acc_ops.get(acc).cloned().ok_or_else(|| {
                    format!(
                        "the accumulator `{}` does not come from a with_acc of this function",
                        self.f.var_name(*acc).unwrap_or("?")
                    )
                })?;
                if let Some(p) = s.pat.first() {
                    self.acc_ops.insert(*p, op.clone());
                }
                let ixs: Vec<String> = idx.iter().map(|i| self.read(i)).collect();
                let ix = format!("&[{}]", ixs.join(", "));
                let val = self.read(value);
                let value_scalar = match value {
                    Operand::Const(_) => true,
                    Operand::Var(x) => !self.is_array(*x),
                };
                let full = idx.len() == self.ty(*acc)?.rank();
                match (op, value_scalar) {
                    (Some(op), true) if full => {
                        format!("{{ let mut a_ = {a}; a_.accumulate({ix}, {val}, &{op})?; a_ }}")
                    }
                    (None, true) => format!("{{ let mut a_ = {a}; a_.scatter1({ix}, {val}); a_ }}"),
                    (None, false) => format!(
                        "{{ let mut a_ = {a}; at(a_.scatter_row({ix}, &{val}), {sp})?; a_ }}"
                    ),
                    (Some(op), true) => format!(
                        "{{ let mut a_ = {a}; if let Some((k_, 1)) = a_.block({ix}) {{ let o_ = a_.as_slice()[k_]; let n_ = {op}(o_, {val})?; a_.make_mut()[k_] = n_; }} a_ }}"
                    ),
                    (Some(op), false) => format!(
                        "{{ let mut a_ = {a}; if let Some((k_, n_)) = a_.block({ix}) {{ if {val}.as_slice().len() != n_ {{ return fail(\"Size mismatch: accumulated value does not fit its destination\", {sp}); }} for e_ in 0..n_ {{ let o_ = a_.as_slice()[k_ + e_]; let x_ = {op}(o_, {val}.as_slice()[e_])?; a_.make_mut()[k_ + e_] = x_; }} }} a_ }}"
                    ),
                }
            }
            _ => return Ok(None),
        }))
    }

    /// Emits an expression producing a tuple of the statement's results.
    fn compound(&mut self, s: &Stm, sp: &str) -> E<()> {
        if let Some(r) = crate::segnest::dispatch(self, s, sp) {
            return r;
        }
        match &s.exp {
            Exp::If {
                cond,
                then_body,
                else_body,
            } => {
                let inherit = self.movable_into_block();
                writeln!(self.out, "if {} {{", self.read(cond)).ok();
                let r = self.body(then_body, &[], inherit.clone())?;
                writeln!(self.out, "{r}\n}} else {{").ok();
                let r = self.body(else_body, &[], inherit)?;
                writeln!(self.out, "{r}\n}}").ok();
                // An accumulator result keeps the operator of the branch's.
                for (k, p) in s.pat.iter().enumerate() {
                    if let Some(Operand::Var(v)) = then_body.result.get(k)
                        && let Some(op) = self.acc_ops.get(v).cloned()
                    {
                        self.acc_ops.insert(*p, op);
                    }
                }
                Ok(())
            }
            Exp::Loop { params, form, body } => self.loop_exp(s, params, form, body),
            Exp::Apply { fun, args } => {
                if let Some(f) = self.prog.functions.get(*fun)
                    && f.params
                        .iter()
                        .any(|p| f.var_type(p.var).is_some_and(|t| t.acc))
                {
                    return Err(format!(
                        "passing an accumulator to function `{}` is not supported by the multicore backend",
                        f.name
                    ));
                }
                let a: Vec<String> = args.iter().map(|a| self.take(a)).collect();
                write!(self.out, "{}({})?", fun_name(*fun), a.join(", ")).ok();
                Ok(())
            }
            // Segmented operations were taken by `segnest::dispatch`.
            Exp::Screma(sc) => crate::soac::screma(self, s, sc, false, sp),
            Exp::Hist(h) => crate::soac::hist(self, s, h, sp),
            Exp::Scatter(sc) => crate::soac::scatter(self, s, sc, sp),
            Exp::WithAcc(wa) => {
                self.w("{\n");
                let mut params = Vec::new();
                for (k, (input, p)) in wa.inputs.iter().zip(&wa.lambda.params).enumerate() {
                    let op = match &input.op {
                        Some((l, ne)) => {
                            let name = format!("accop_{}_{k}", self.next_id());
                            self.acc_neutral.insert(name.clone(), self.read(ne));
                            let t = scalar::rust_prim(self.ty(input.arr)?.elem);
                            writeln!(self.out, "let {name} = |x_: {t}, y_: {t}| -> R<{t}> {{").ok();
                            self.lambda_call_body(l, &["x_".into(), "y_".into()])?;
                            self.w("};\n");
                            Some(name)
                        }
                        None => None,
                    };
                    self.acc_ops.insert(p.var, op);
                    params.push(p.var);
                }
                for (input, p) in wa.inputs.iter().zip(&wa.lambda.params) {
                    writeln!(
                        self.out,
                        "let {} = {};",
                        var(p.var),
                        self.take_var(input.arr)
                    )
                    .ok();
                }
                let inherit = self.movable_into_block();
                let r = self.body(&wa.lambda.body, &params, inherit)?;
                writeln!(self.out, "{r}\n}}").ok();
                Ok(())
            }
            Exp::CustomVjp(c) => {
                self.w("{\n");
                let mut params = Vec::new();
                for (p, a) in c.f.params.iter().zip(&c.args) {
                    writeln!(self.out, "let {} = {};", var(p.var), self.take(a)).ok();
                    params.push(p.var);
                }
                let inherit = self.movable_into_block();
                let r = self.body(&c.f.body, &params, inherit)?;
                writeln!(self.out, "{r}\n}}").ok();
                Ok(())
            }
            Exp::Jvp(_) | Exp::Vjp(_) => Err(format!(
                "{} is not expanded: this use of automatic differentiation is not yet supported by the compiler's AD pass",
                if matches!(s.exp, Exp::Jvp(_)) {
                    "jvp"
                } else {
                    "vjp"
                }
            )),
            other => Err(format!(
                "internal error: unexpected expression {:?}",
                std::mem::discriminant(other)
            )),
        }
    }

    /// Emits the body of lambda `l` applied to the Rust expressions `args`
    /// (bound to its parameters), ending in `Ok(result)`; for closures.
    /// A single result is returned bare, several as a tuple.
    pub(crate) fn lambda_call_body(&mut self, l: &Lambda, args: &[String]) -> E<()> {
        let mut params = Vec::new();
        for (p, a) in l.params.iter().zip(args) {
            writeln!(self.out, "let {} = {a};", var(p.var)).ok();
            params.push(p.var);
        }
        self.in_par += 1;
        let r = self.body(&l.body, &params, HashSet::new());
        self.in_par -= 1;
        let r = r?;
        if l.body.result.len() == 1 {
            writeln!(self.out, "Ok({r}.0)").ok();
        } else {
            writeln!(self.out, "Ok({r})").ok();
        }
        Ok(())
    }

    fn loop_exp(
        &mut self,
        s: &Stm,
        params: &[(ir::Param, Operand)],
        form: &LoopForm,
        body: &Body,
    ) -> E<()> {
        let id = self.next_id();
        let inits: Vec<String> = params.iter().map(|(_, o)| self.take(o)).collect();
        let vars: Vec<VarId> = params.iter().map(|(p, _)| p.var).collect();
        for ((p, init), pat) in params.iter().zip(&s.pat) {
            if let Operand::Var(v) = init
                && let Some(op) = self.acc_ops.get(v).cloned()
            {
                self.acc_ops.insert(p.var, op.clone());
                self.acc_ops.insert(*pat, op);
            }
        }
        let names: Vec<String> = vars.iter().map(|v| var(*v)).collect();
        let types: Vec<String> = vars
            .iter()
            .map(|v| Ok(rust_type(self.ty(*v)?)))
            .collect::<E<_>>()?;
        writeln!(
            self.out,
            "{{\nlet mut st_{id}: {} = {};",
            tuple(&types),
            tuple(&inits)
        )
        .ok();
        let mut bound = vars.clone();
        match form {
            LoopForm::For { i, bound: n } => {
                writeln!(
                    self.out,
                    "let n_{id} = {};\nfor {} in 0..n_{id} {{\nlet {}: {} = st_{id};",
                    self.read(n),
                    var(*i),
                    tuple(&names),
                    tuple(&types)
                )
                .ok();
                bound.push(*i);
            }
            LoopForm::While { cond } => {
                let k = vars.iter().position(|v| v == cond).ok_or_else(|| {
                    "a while loop's condition is not one of its parameters".to_string()
                })?;
                writeln!(
                    self.out,
                    "while st_{id}.{k} {{\nlet {}: {} = st_{id};",
                    tuple(&names),
                    tuple(&types)
                )
                .ok();
            }
        }
        let r = self.body(body, &bound, HashSet::new())?;
        writeln!(self.out, "st_{id} = {r};\n}}\nst_{id}\n}}").ok();
        Ok(())
    }

    /// Starts timing a segmented operation for the profiler: opens a block
    /// whose value is the operation's; returns the operation's name (its
    /// kind and source location) for [`FnEmitter::profile_end`].
    pub(crate) fn profile_start(&mut self, kind: &str, span: Span) -> String {
        let place = match self.locate {
            Some(l) if !span.is_none() => l(span),
            _ => String::new(),
        };
        let name = if place.is_empty() {
            kind.to_string()
        } else {
            format!("{kind} {place}")
        };
        self.w("{\nlet pt_ = fut_runtime_multicore::profile::op_start();\nlet pr_ = ");
        name
    }

    /// Closes the block of [`FnEmitter::profile_start`], recording the
    /// operation's time.
    pub(crate) fn profile_end(&mut self, name: &str) {
        writeln!(
            self.out,
            ";\nfut_runtime_multicore::profile::op_end({name:?}, pt_);\npr_\n}}"
        )
        .ok();
    }

    /// Names segmented operations after their source location, for the
    /// profiler (without it they are named after their kind only).
    pub fn set_locate(&mut self, locate: &'a dyn Fn(Span) -> String) {
        self.locate = Some(locate);
    }

    /// The program being compiled.
    pub(crate) fn program(&self) -> &'a Program {
        self.prog
    }

    /// The current unique-name counter, for SOAC emission.
    pub(crate) fn fresh_id(&mut self) -> usize {
        self.next_id()
    }

    pub(crate) fn write(&mut self, s: &str) {
        self.w(s);
    }

    pub(crate) fn var_type(&self, v: VarId) -> E<&'a Type> {
        self.ty(v)
    }

    pub(crate) fn operand(&self, o: &Operand) -> String {
        self.read(o)
    }

    pub(crate) fn operand_by_value(&self, o: &Operand) -> String {
        self.take(o)
    }

    pub(crate) fn var_by_value(&self, v: VarId) -> String {
        self.take_var(v)
    }

    /// Emits a lambda's body as the body of a loop iteration: parameters
    /// bound to `args`, statements, and the results as a tuple expression.
    pub(crate) fn inline_body(
        &mut self,
        l: &Lambda,
        args: &[String],
        parallel_inside: bool,
    ) -> E<String> {
        let mut params = Vec::new();
        for (p, a) in l.params.iter().zip(args) {
            writeln!(self.out, "let {} = {a};", var(p.var)).ok();
            params.push(p.var);
        }
        if !parallel_inside {
            self.in_par += 1;
        }
        let r = self.body(&l.body, &params, HashSet::new());
        if !parallel_inside {
            self.in_par -= 1;
        }
        r
    }

    pub(crate) fn enter_par(&mut self) {
        self.in_par += 1;
    }

    pub(crate) fn leave_par(&mut self) {
        self.in_par -= 1;
    }

    /// The operator closure and neutral element of accumulator `v`, when it
    /// has an operator.
    pub(crate) fn acc_op(&self, v: VarId) -> Option<(String, String)> {
        let op = self.acc_ops.get(&v)?.clone()?;
        let ne = self.acc_neutral.get(&op)?.clone();
        Some((op, ne))
    }

    pub(crate) fn set_acc_op(&mut self, v: VarId, from: VarId) {
        if let Some(op) = self.acc_ops.get(&from).cloned() {
            self.acc_ops.insert(v, op);
        }
    }

    /// Whether a SOAC emitted now may be a segmented operation: it is not
    /// inside one (or only inside the body of a map with parallelism
    /// inside), and not nested too deeply.
    pub(crate) fn may_parallelise(&self) -> bool {
        self.in_par <= self.par_inside && self.levels.len() < 64
    }

    /// Whether the current statement, which may be a segmented operation,
    /// is in the body of a map with parallelism inside (see
    /// [`FnEmitter::with_parallel_inside`]).
    pub(crate) fn in_parallel_body(&self) -> bool {
        self.in_par > 0
    }

    /// Runs `emit` with the SOACs of the next lambda body allowed to be
    /// segmented operations: for a map with parallelism inside.
    pub(crate) fn with_parallel_inside<T>(&mut self, emit: impl FnOnce(&mut Self) -> T) -> T {
        let old = self.par_inside;
        self.par_inside = self.in_par + 1;
        let r = emit(self);
        self.par_inside = old;
        r
    }

    /// The IR function being emitted.
    pub(crate) fn ir_function(&self) -> &'a Function {
        self.f
    }

    /// The declared row shape of an output as a Rust expression (sizes
    /// bound inside `e` are unknown and taken as 0), for results of no rows.
    pub(crate) fn declared_shape(&self, t: &Type, e: &Exp) -> String {
        let mut inner = HashSet::new();
        exp_binds(e, &mut inner);
        let dims: Vec<String> = t
            .shape
            .iter()
            .map(|d| match d {
                Size::Const(n) => format!("{}usize", (*n).max(0)),
                Size::Var(v) if !inner.contains(v) => format!("({}.max(0) as usize)", var(*v)),
                _ => "0usize".into(),
            })
            .collect();
        format!("vec![{}]", dims.join(", "))
    }
}
