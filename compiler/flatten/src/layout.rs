//! Transposed layouts: row-major copies of arrays that a parallel
//! operation's innermost loop would otherwise read across rows.
//!
//! Arrays are row-major, and `rearrange` (transposition) is a view that
//! only permutes strides. So in a matrix multiplication
//! `map (\a -> map (\b -> sum (map2 (*) a b)) (transpose B)) A` the
//! innermost loop walks a row of `transpose B`, a column of `B`: one
//! element every `p`, a cache miss per element. This pass finds such reads
//! and gives the parallel operation a row-major copy of the array, made
//! once before it, to read instead.
//!
//! # What is an access
//!
//! For each statement that [`crate::plan`] makes a segmented operation, the
//! pass follows every array free in it (a *root*, bound outside) through
//! the ways the operation takes it apart: a SOAC's input (each iteration
//! gets a row: the SOAC walks the root's outermost remaining dimension), an
//! index or slice with unit strides, a `rearrange`, an alias. An *access*
//! is a read of single elements in an innermost loop (a SOAC's map or a
//! `for` loop whose body holds no other loop or SOAC):
//!
//! - a SOAC of that loop whose input is a one-dimensional part of the root
//!   walks the dimension that part has left;
//! - a full index whose one index that varies with the loop is the loop's
//!   iteration index (its index parameter, an `iota` input's element, a
//!   `for` counter) walks the dimension that index selects.
//!
//! # When a copy is made
//!
//! An access is *strided* when the dimension it walks is not the root's
//! physically innermost one (the last dimension of a row-major array; for
//! `rearrange(perm, x)`, the dimension `perm` maps to `x`'s innermost). It
//! is *amortised* when some loop around it inside the operation (the
//! operation's own iteration space included) has an iteration variable
//! that the access does not depend on, directly or through anything
//! computed from it: then every element the access reads is read again on
//! every iteration of that loop, and the copy, which reads each element
//! once, costs at most the reads it saves. A strided, amortised access
//! gets a copy:
//!
//! - when it walks the root's last dimension (the root is a transposed
//!   view), a row-major copy of the root replaces it everywhere in the
//!   operation;
//! - when it indexes the root directly and walks another dimension, a
//!   row-major copy of `rearrange(q, root)`, with `q` moving that dimension
//!   last, and the index is permuted by `q` (`B[k, j]` becomes `B_tr[j, k]`).
//!
//! Arrays read once (a column sum reads each element once), accesses whose
//! walked dimension is already contiguous, and accesses in a loop that is
//! not innermost are left alone. [`Rule::Always`] drops the amortisation
//! condition, to measure what a copy would cost where it does not pay.
//!
//! # What the copy is
//!
//! A perfect nest of maps over the copy's index space whose innermost map
//! reads one element of the root (`#[unsafe]`: the indices are in range by
//! construction), so the backend runs it as one parallel operation with a
//! tight inner loop; for the transposed read, element `[j, k]` of the copy
//! is `root[k, j]`. A `copy` statement of a view does the same one element
//! at a time through generic strided positions, about fifteen times slower
//! on this backend. When a size of the root is unknown (`?`) the copy is a
//! `copy` statement (of `rearrange(q, root)` where the index is permuted).
//!
//! # Where the copy goes
//!
//! Right before the parallel operation, or before the outermost sequential
//! `loop` around it whose body does not bind the root (so a matrix
//! multiplication inside a loop copies its operand once); never out of an
//! `if` branch. Its only free variable is the root, which is in scope
//! there. Each parallel operation gets its own copies.

use std::collections::{HashMap, HashSet};

use ir::{
    DimIndex, Exp, Function, LoopForm, Operand, PrimValue, Program, Size, Stm, Type, VarId, VarInfo,
};

/// Which strided accesses get a copy.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Rule {
    /// Strided accesses that are amortised (the module documentation).
    Amortised,
    /// Every strided access, amortised or not (for measurements).
    Always,
}

/// The pass, with [`Rule::Amortised`]; the multicore pipeline runs it after
/// the standard pipeline, before lowering.
pub const PASS: ir::Pass = ir::Pass {
    name: "layout",
    description: "row-major copies of transposed arrays read across rows in parallel operations' innermost loops",
    run: layout,
};

/// The pass with [`Rule::Always`], for measurements.
pub const PASS_ALWAYS: ir::Pass = ir::Pass {
    name: "layout_always",
    description: "the layout pass copying wherever an innermost read is strided, amortised or not",
    run: layout_always,
};

/// Runs the pass on every function with [`Rule::Always`].
pub fn layout_always(prog: Program) -> Program {
    layout_with(prog, Rule::Always)
}

/// Runs the pass on every function with [`Rule::Amortised`].
pub fn layout(prog: Program) -> Program {
    layout_with(prog, Rule::Amortised)
}

/// Runs the pass on every function with `rule`.
pub fn layout_with(mut prog: Program, rule: Rule) -> Program {
    let ids: Vec<_> = prog.functions.keys().collect();
    for id in ids {
        function(&mut prog.functions[id], rule);
    }
    prog
}

/// One copy to insert: `var = copy(src)`, or `var = copy(rearrange(perm,
/// src))` through the view `view`.
#[derive(Clone, Debug)]
struct CopyDef {
    src: VarId,
    perm: Option<Vec<usize>>,
    ty: Type,
    name: String,
    /// The span of the parallel operation it is for.
    span: ir::Span,
}

/// Edits found by the analysis, applied by [`rewrite`]. Copies are named
/// by their position in `copies` until their variables exist.
#[derive(Default)]
struct Edits {
    copies: Vec<CopyDef>,
    /// Copies to insert before the statement whose first bound variable is
    /// the key.
    before: HashMap<VarId, Vec<usize>>,
    /// Roots replaced by a copy in the parallel statement keyed by its
    /// first bound variable.
    substs: HashMap<VarId, Vec<(VarId, usize)>>,
    /// Index statements (keyed by their bound variable) that read a copy
    /// with the index permuted.
    indices: HashMap<VarId, (usize, Vec<usize>)>,
}

fn function(f: &mut Function, rule: Rule) {
    let mut cx = Cx {
        f,
        rule,
        rearranges: HashMap::new(),
        edits: Edits::default(),
    };
    collect_rearranges(&f.body, &mut cx.rearranges);
    let pending = cx.body(&f.body, false, &[]);
    let mut edits = cx.edits;
    // Copies that would leave the function body stay before their anchors.
    for p in pending {
        edits.before.entry(p.anchor).or_default().push(p.copy);
    }
    if edits.copies.is_empty() {
        return;
    }
    let mut names: HashSet<String> = f.vars.values().map(|v| v.name.clone()).collect();
    let mut ids = Vec::new();
    let mut defs = Vec::new();
    for c in &edits.copies {
        let name = unique_name(&mut names, &c.name);
        let id = f.vars.push(VarInfo {
            name,
            ty: c.ty.clone(),
        });
        ids.push(id);
        defs.push(copy_stms(f, &mut names, c, id));
    }
    rewrite(&mut f.body, &edits, &ids, &defs);
}

/// The statements that bind `id` to copy `c`: a perfect nest of maps over
/// the copy's index space reading one element of the source each (the
/// backend runs it as one parallel operation with a tight inner loop), or a
/// `copy` statement when a size is unknown.
fn copy_stms(f: &mut Function, names: &mut HashSet<String>, c: &CopyDef, id: VarId) -> Vec<Stm> {
    let stm = |pat: Vec<VarId>, exp: Exp, attrs: Vec<ir::Attr>| Stm {
        pat,
        exp,
        attrs,
        span: c.span,
    };
    let rank = c.ty.rank();
    let perm: Vec<usize> = c.perm.clone().unwrap_or_else(|| (0..rank).collect());
    let widths: Option<Vec<Operand>> =
        c.ty.shape
            .iter()
            .map(|s| match s {
                Size::Var(v) => Some(Operand::Var(*v)),
                Size::Const(n) => Some(Operand::i64(*n)),
                Size::Any => None,
            })
            .collect();
    let Some(widths) = widths.filter(|w| w.len() == rank && rank > 0) else {
        let mut out = Vec::new();
        let mut src = c.src;
        if let Some(perm) = &c.perm {
            let name = unique_name(names, &format!("{}_view", c.name));
            let view = f.vars.push(VarInfo {
                name,
                ty: c.ty.clone(),
            });
            out.push(stm(
                vec![view],
                Exp::Rearrange {
                    perm: perm.clone(),
                    arr: c.src,
                },
                Vec::new(),
            ));
            src = view;
        }
        out.push(stm(vec![id], Exp::Copy(src), Vec::new()));
        return out;
    };
    let mut fresh = |base: &str, ty: Type| {
        let name = unique_name(names, base);
        f.vars.push(VarInfo { name, ty })
    };
    let elem = c.ty.elem;
    let idx: Vec<VarId> = (0..rank)
        .map(|_| fresh("i", Type::scalar(ir::PrimType::I64)))
        .collect();
    // Element `[i_0, …]` of the copy is element `j` of the source, where
    // `j[perm[k]] = i_k`.
    let mut src_idx = vec![DimIndex::Fix(Operand::i64(0)); rank];
    for (k, &d) in perm.iter().enumerate() {
        src_idx[d] = DimIndex::Fix(Operand::Var(idx[k]));
    }
    let e = fresh(&format!("{}_elem", c.name), Type::scalar(elem));
    let mut body = ir::Body {
        stms: vec![stm(
            vec![e],
            Exp::Index(c.src, src_idx),
            vec![ir::Attr::Unsafe],
        )],
        result: vec![Operand::Var(e)],
    };
    let mut ret = Type::scalar(elem);
    for k in (0..rank).rev() {
        let lambda = ir::Lambda {
            params: vec![ir::Param::new(idx[k])],
            ret: vec![ret],
            body,
        };
        let screma = Exp::Screma(Box::new(ir::Screma {
            w: widths[k],
            inputs: Vec::new(),
            scans: Vec::new(),
            reduces: Vec::new(),
            map: lambda,
        }));
        ret = Type::array(elem, c.ty.shape[k..].to_vec());
        if k == 0 {
            return vec![stm(vec![id], screma, Vec::new())];
        }
        let row = fresh(&format!("{}_row", c.name), ret.clone());
        body = ir::Body {
            stms: vec![stm(vec![row], screma, Vec::new())],
            result: vec![Operand::Var(row)],
        };
    }
    Vec::new()
}

fn unique_name(names: &mut HashSet<String>, base: &str) -> String {
    let mut name = base.to_string();
    let mut k = 1;
    while names.contains(&name) {
        name = format!("{base}_{k}");
        k += 1;
    }
    names.insert(name.clone());
    name
}

fn collect_rearranges(b: &ir::Body, out: &mut HashMap<VarId, (Vec<usize>, VarId)>) {
    for s in &b.stms {
        if let (Exp::Rearrange { perm, arr }, [v]) = (&s.exp, s.pat.as_slice()) {
            out.insert(*v, (perm.clone(), *arr));
        }
        for (_, nb) in ir::uses::nested_bodies(&s.exp) {
            collect_rearranges(nb, out);
        }
    }
}

/// A copy waiting for its place: before statement `anchor`, or further out.
struct Pending {
    copy: usize,
    root: VarId,
    anchor: VarId,
}

struct Cx<'a> {
    f: &'a Function,
    rule: Rule,
    /// `v = rearrange(perm, x)` anywhere in the function.
    rearranges: HashMap<VarId, (Vec<usize>, VarId)>,
    edits: Edits,
}

impl Cx<'_> {
    /// Analyses the statements of `b` (a function body, or the body of a
    /// sequential loop or branch around parallel operations); returns the
    /// copies to hoist out of it when `in_loop` (a loop body) and their
    /// roots are not bound in it.
    fn body(&mut self, b: &ir::Body, in_loop: bool, params: &[VarId]) -> Vec<Pending> {
        let mut bound: HashSet<VarId> = params.iter().copied().collect();
        let mut out = Vec::new();
        for s in &b.stms {
            let mut here: Vec<Pending> = Vec::new();
            if crate::plan(self.f, s).is_some() {
                here = self.parallel(s);
            } else {
                match &s.exp {
                    Exp::Loop { .. } => {
                        let mut inner = Vec::new();
                        for (ps, nb) in ir::uses::nested_bodies(&s.exp) {
                            inner.extend(self.body(nb, true, &ps));
                        }
                        match s.pat.first() {
                            Some(&a) => {
                                here = inner
                                    .into_iter()
                                    .map(|p| Pending { anchor: a, ..p })
                                    .collect();
                            }
                            None => self.place(inner),
                        }
                    }
                    Exp::If { .. } => {
                        for (ps, nb) in ir::uses::nested_bodies(&s.exp) {
                            let inner = self.body(nb, false, &ps);
                            self.place(inner);
                        }
                    }
                    _ => {}
                }
            }
            for p in here {
                if in_loop && !bound.contains(&p.root) {
                    out.push(p);
                } else {
                    self.place(vec![p]);
                }
            }
            bound.extend(s.pat.iter().copied());
        }
        if !in_loop {
            self.place(std::mem::take(&mut out));
        }
        out
    }

    fn place(&mut self, ps: Vec<Pending>) {
        for p in ps {
            self.edits.before.entry(p.anchor).or_default().push(p.copy);
        }
    }

    /// The copies parallel statement `s` gets, recorded in the edits.
    fn parallel(&mut self, s: &Stm) -> Vec<Pending> {
        let Some(&anchor) = s.pat.first() else {
            return Vec::new();
        };
        let mut a = Accesses::new(self.f);
        a.stm(s, 0);
        let mut by_root: HashMap<VarId, usize> = HashMap::new();
        let mut by_perm: HashMap<(VarId, Vec<usize>), usize> = HashMap::new();
        let mut pending = Vec::new();
        for acc in a.found {
            let Some(ty) = self.f.var_type(acc.root).filter(|t| !t.acc) else {
                continue;
            };
            let rank = ty.rank();
            if acc.walked == self.inner_dim(acc.root, rank) {
                continue;
            }
            let amortised = (1..acc.depth).any(|k| acc.deps & bit(k) == 0);
            if self.rule == Rule::Amortised && !amortised {
                continue;
            }
            let base = self.f.var_name(acc.root).unwrap_or("arr").to_string();
            if acc.walked + 1 == rank {
                if by_root.contains_key(&acc.root) {
                    continue;
                }
                let k = self.new_copy(
                    acc.root,
                    None,
                    ty.clone(),
                    format!("{base}_rowmajor"),
                    s.span,
                );
                by_root.insert(acc.root, k);
                self.edits
                    .substs
                    .entry(anchor)
                    .or_default()
                    .push((acc.root, k));
                pending.push(Pending {
                    copy: k,
                    root: acc.root,
                    anchor,
                });
            } else if let Some(stm) = acc.direct_index {
                let mut perm: Vec<usize> = (0..rank).filter(|&d| d != acc.walked).collect();
                perm.push(acc.walked);
                let k = match by_perm.get(&(acc.root, perm.clone())) {
                    Some(&k) => k,
                    None => {
                        let shape = perm.iter().map(|&d| ty.shape[d]).collect();
                        let t = Type::array(ty.elem, shape);
                        let k = self.new_copy(
                            acc.root,
                            Some(perm.clone()),
                            t,
                            format!("{base}_tr"),
                            s.span,
                        );
                        by_perm.insert((acc.root, perm.clone()), k);
                        pending.push(Pending {
                            copy: k,
                            root: acc.root,
                            anchor,
                        });
                        k
                    }
                };
                self.edits.indices.insert(stm, (k, perm));
            }
        }
        pending
    }

    fn new_copy(
        &mut self,
        src: VarId,
        perm: Option<Vec<usize>>,
        ty: Type,
        name: String,
        span: ir::Span,
    ) -> usize {
        self.edits.copies.push(CopyDef {
            src,
            perm,
            ty,
            name,
            span,
        });
        self.edits.copies.len() - 1
    }

    /// The dimension of `v` (of rank `rank`) whose stride is one: the last
    /// for a row-major array, the one a `rearrange` moved there otherwise.
    fn inner_dim(&self, v: VarId, rank: usize) -> usize {
        let mut seen = 0;
        let mut v = v;
        let mut chain = Vec::new();
        while let Some((perm, x)) = self.rearranges.get(&v) {
            chain.push(perm);
            v = *x;
            seen += 1;
            if seen > 16 {
                break;
            }
        }
        let mut inner = rank.saturating_sub(1);
        for perm in chain.into_iter().rev() {
            inner = perm.iter().position(|&d| d == inner).unwrap_or(inner);
        }
        inner
    }
}

fn bit(depth: usize) -> u64 {
    if depth < 64 { 1 << depth } else { 0 }
}

/// A part of a root array inside the parallel operation: which of the
/// root's dimensions it has left, in order, and the loops (as a bit set of
/// depths) it depends on.
#[derive(Clone, Debug)]
struct Part {
    root: VarId,
    dims: Vec<usize>,
    deps: u64,
}

/// A read of single elements of a root in an innermost loop.
#[derive(Clone, Debug)]
struct Access {
    root: VarId,
    /// The root's dimension the loop walks.
    walked: usize,
    /// The depth of the loop (the operation's own space is depth 1).
    depth: usize,
    /// The loops it depends on, its own included.
    deps: u64,
    /// The index statement, when it indexes the root itself.
    direct_index: Option<VarId>,
}

/// The analysis of one parallel statement.
struct Accesses<'a> {
    f: &'a Function,
    /// The loops each variable bound inside depends on.
    deps: HashMap<VarId, u64>,
    parts: HashMap<VarId, Part>,
    /// Iteration indices, with the depth of their loop.
    indices: HashMap<VarId, usize>,
    /// `v = iota(n, start, 1)` bound anywhere in the function seen so far.
    iotas: HashSet<VarId>,
    /// Whether the loop at each depth is innermost.
    innermost: Vec<bool>,
    found: Vec<Access>,
}

impl<'a> Accesses<'a> {
    fn new(f: &'a Function) -> Self {
        let mut iotas = HashSet::new();
        collect_iotas(&f.body, &mut iotas);
        Accesses {
            f,
            deps: HashMap::new(),
            parts: HashMap::new(),
            indices: HashMap::new(),
            iotas,
            innermost: vec![false],
            found: Vec::new(),
        }
    }

    fn dep(&self, o: &Operand) -> u64 {
        o.var()
            .and_then(|v| self.deps.get(&v).copied())
            .unwrap_or(0)
    }

    /// The part `v` is: a tracked part, or a root (an array bound outside).
    fn part(&self, v: VarId) -> Option<Part> {
        if let Some(p) = self.parts.get(&v) {
            return Some(p.clone());
        }
        if self.deps.contains_key(&v) {
            return None;
        }
        let t = self.f.var_type(v)?;
        (!t.acc && t.rank() > 0).then(|| Part {
            root: v,
            dims: (0..t.rank()).collect(),
            deps: 0,
        })
    }

    fn body(&mut self, b: &ir::Body, depth: usize) {
        for s in &b.stms {
            self.stm(s, depth);
        }
    }

    fn stm(&mut self, s: &Stm, depth: usize) {
        let free = ir::uses::exp_free(&self.f.vars, &s.exp);
        let deps = free
            .iter()
            .fold(0, |m, v| m | self.deps.get(v).copied().unwrap_or(0));
        match &s.exp {
            Exp::Index(arr, idx) => self.index(s, *arr, idx, depth),
            Exp::Rearrange { perm, arr } => {
                if let (Some(p), [v]) = (self.part(*arr), s.pat.as_slice())
                    && perm.len() == p.dims.len()
                {
                    let dims = perm.iter().map(|&d| p.dims[d]).collect();
                    self.parts.insert(*v, Part { dims, ..p });
                }
            }
            Exp::Atom(Operand::Var(arr)) => {
                if let (Some(p), [v]) = (self.part(*arr), s.pat.as_slice()) {
                    self.parts.insert(*v, p);
                }
            }
            Exp::Screma(sc) => self.soac(&sc.inputs, &sc.map, depth),
            Exp::Hist(h) => self.soac(&h.inputs, &h.map, depth),
            Exp::Scatter(sc) => self.soac(&sc.inputs, &sc.map, depth),
            Exp::Loop { params, form, body } => {
                let d = depth + 1;
                for (p, init) in params {
                    self.deps.insert(p.var, self.dep(init) | bit(d));
                }
                if let LoopForm::For { i, .. } = form {
                    self.deps.insert(*i, bit(d));
                    self.indices.insert(*i, d);
                }
                self.enter(body, d);
            }
            Exp::If {
                then_body,
                else_body,
                ..
            } => {
                self.body(then_body, depth);
                self.body(else_body, depth);
            }
            Exp::WithAcc(w) => {
                for p in &w.lambda.params {
                    self.deps.insert(p.var, deps);
                }
                self.body(&w.lambda.body, depth);
            }
            Exp::CustomVjp(c) => {
                for p in &c.f.params {
                    self.deps.insert(p.var, deps);
                }
                self.body(&c.f.body, depth);
            }
            _ => {}
        }
        for v in &s.pat {
            self.deps.entry(*v).or_insert(deps);
        }
    }

    fn enter(&mut self, b: &ir::Body, depth: usize) {
        self.innermost.truncate(depth);
        self.innermost.push(!has_loops(b));
        self.body(b, depth);
    }

    fn soac(&mut self, inputs: &[VarId], map: &ir::Lambda, depth: usize) {
        let d = depth + 1;
        let innermost = !has_loops(&map.body);
        for (k, p) in map.params.iter().enumerate() {
            let Some(&input) = inputs.get(k) else {
                // The iteration index.
                self.deps.insert(p.var, bit(d));
                self.indices.insert(p.var, d);
                continue;
            };
            if self.iotas.contains(&input) {
                self.deps.insert(p.var, bit(d));
                self.indices.insert(p.var, d);
                continue;
            }
            match self.part(input) {
                Some(part) if !part.dims.is_empty() => {
                    let deps = part.deps | bit(d);
                    if part.dims.len() == 1 {
                        if innermost {
                            self.found.push(Access {
                                root: part.root,
                                walked: part.dims[0],
                                depth: d,
                                deps,
                                direct_index: None,
                            });
                        }
                        self.deps.insert(p.var, deps);
                    } else {
                        self.parts.insert(
                            p.var,
                            Part {
                                dims: part.dims[1..].to_vec(),
                                deps,
                                root: part.root,
                            },
                        );
                        self.deps.insert(p.var, deps);
                    }
                }
                _ => {
                    let deps = self.deps.get(&input).copied().unwrap_or(0) | bit(d);
                    self.deps.insert(p.var, deps);
                }
            }
        }
        self.enter(&map.body, d);
    }

    fn index(&mut self, s: &Stm, arr: VarId, idx: &[DimIndex], depth: usize) {
        let Some(part) = self.part(arr) else {
            return;
        };
        let mut deps = part.deps;
        let mut dims = Vec::new();
        let mut fixed = Vec::new();
        for (k, di) in idx.iter().enumerate() {
            let Some(&dim) = part.dims.get(k) else {
                return;
            };
            match di {
                DimIndex::Fix(o) => {
                    deps |= self.dep(o);
                    fixed.push((dim, *o));
                }
                DimIndex::Range { start, len, stride } => {
                    if *stride != Operand::Const(PrimValue::I64(1)) {
                        return;
                    }
                    deps |= self.dep(start) | self.dep(len);
                    dims.push(dim);
                }
            }
        }
        dims.extend(part.dims.iter().skip(idx.len()).copied());
        let Some(&v) = s.pat.first() else {
            return;
        };
        if !dims.is_empty() {
            self.parts.insert(
                v,
                Part {
                    root: part.root,
                    dims,
                    deps,
                },
            );
            return;
        }
        // A read of one element: an access when it is in an innermost loop
        // and one index is that loop's iteration index.
        if depth == 0 || !self.innermost.get(depth).copied().unwrap_or(false) {
            return;
        }
        let here = bit(depth);
        let varying: Vec<_> = fixed
            .iter()
            .filter(|(_, o)| self.dep(o) & here != 0)
            .collect();
        if let [(dim, Operand::Var(i))] = varying.as_slice()
            && self.indices.get(i) == Some(&depth)
        {
            let direct = part.root == arr && part.dims.iter().copied().eq(0..part.dims.len());
            self.found.push(Access {
                root: part.root,
                walked: *dim,
                depth,
                deps: deps | here,
                direct_index: direct.then_some(v),
            });
        }
    }
}

fn collect_iotas(b: &ir::Body, out: &mut HashSet<VarId>) {
    for s in &b.stms {
        if let (Exp::Iota { step, .. }, [v]) = (&s.exp, s.pat.as_slice())
            && matches!(step, Operand::Const(c) if c.as_i128() == Some(1))
        {
            out.insert(*v);
        }
        for (_, nb) in ir::uses::nested_bodies(&s.exp) {
            collect_iotas(nb, out);
        }
    }
}

/// Whether `b` holds a loop or a SOAC (through branches and accumulator
/// scopes).
fn has_loops(b: &ir::Body) -> bool {
    b.stms.iter().any(|s| match &s.exp {
        Exp::Loop { .. } | Exp::Screma(_) | Exp::Hist(_) | Exp::Scatter(_) => true,
        Exp::If {
            then_body,
            else_body,
            ..
        } => has_loops(then_body) || has_loops(else_body),
        Exp::WithAcc(w) => has_loops(&w.lambda.body),
        Exp::CustomVjp(c) => has_loops(&c.f.body),
        _ => false,
    })
}

/// Applies the edits: copies inserted before their anchors (`defs`: the
/// statements of each), roots replaced in parallel statements, indices
/// permuted.
fn rewrite(b: &mut ir::Body, edits: &Edits, ids: &[VarId], defs: &[Vec<Stm>]) {
    let stms = std::mem::take(&mut b.stms);
    for mut s in stms {
        if let Some(&key) = s.pat.first() {
            for &k in edits.before.get(&key).into_iter().flatten() {
                b.stms.extend(defs[k].iter().cloned());
            }
            if let Some((k, perm)) = edits.indices.get(&key)
                && let Exp::Index(arr, idx) = &mut s.exp
            {
                *arr = ids[*k];
                let old = std::mem::take(idx);
                *idx = perm.iter().map(|&d| old[d]).collect();
            }
        }
        for nb in ir::walk::nested_bodies_mut(&mut s.exp) {
            rewrite(nb, edits, ids, defs);
        }
        if let Some(subst) = s.pat.first().and_then(|k| edits.substs.get(k)) {
            let map: HashMap<VarId, Operand> = subst
                .iter()
                .map(|&(root, k)| (root, Operand::Var(ids[k])))
                .collect();
            ir::walk::walk_exp_mut(&mut s.exp, &mut |slot| ir::walk::subst_slot(&map, slot));
        }
        b.stms.push(s);
    }
}

#[cfg(test)]
mod tests;
