//! SOACs: maps write each row straight into their result's block (a
//! parallel loop when `flatten` planned a `SegMap`), scans and reductions
//! keep their running values in variables (or blocks, for array operands),
//! `hist` and `scatter` write into their consumed destinations, and
//! accumulators are views of the arrays they update.

use std::cell::{Cell, RefCell};

use ir::{CmpOp, Hist, Lambda, Operand, PrimType, Scatter, Screma, WithAcc};

use super::partials::{long_enough, partial_identities};
use super::{Lowerer, R, Val, bin};
use crate::syntax::*;

/// The most chunks a parallel reduction or scan is split into: the number
/// of per-chunk partial results. A backend runs the chunks on its threads
/// (or thread blocks); more chunks than threads balance uneven work.
pub const CHUNKS: i64 = 64;

/// The most chunks a reduction or histogram outside other parallel loops
/// is split into on a device ([`super::Options::device`]): the runtime
/// chooses fewer, as many as the device keeps busy. The chunks' partial
/// results of a reduction are combined on the device in rounds of
/// [`super::rounds::GROUP`] ([`Lowerer::device_rounds`]) down to [`CHUNKS`].
pub const DEVICE_CHUNKS: i64 = 1 << 24;

/// The most chunks a scan is split into on a device when it also reduces
/// or scans arrays: its chunks' partial results are combined on the host,
/// in order. Other scans take up to [`DEVICE_CHUNKS`], their chunks'
/// prefixes computed on the device ([`Lowerer::device_scan_prefixes`]).
pub const DEVICE_SCAN_CHUNKS: i64 = 4096;

/// The most chunks a histogram is split into on a device: each bucket's
/// thread then combines this many copies, one after the other. Also the
/// default of the tuning parameter `hist_copies_threshold`: the fewest
/// updates per bucket for which chunks fill copies of their own rather
/// than updating the destination atomically.
pub const DEVICE_HIST_CHUNKS: i64 = 1024;

/// Whether, on a device, the chunks' prefixes of the screma `s` (running
/// values `scan_state` of its scans) are computed on the device: scans of
/// scalars, and no reductions.
fn device_scan(s: &Screma, scan_state: &[Vec<State>]) -> bool {
    !s.scans.is_empty() && s.reduces.is_empty() && all_scalars(scan_state)
}

/// Whether every component of the running values `states` is a scalar.
fn all_scalars(states: &[Vec<State>]) -> bool {
    states
        .iter()
        .flatten()
        .all(|x| matches!(x, State::Scalar(_)))
}

/// The running value of one scan or reduction component.
#[derive(Clone)]
pub(super) enum State {
    Scalar(SVar),
    Array(View),
}

impl<'p> Lowerer<'p> {
    /// The lambda arguments for row `i` of `inputs` (scalars read, rows of
    /// arrays as views, accumulators whole, element `i` of an `iota` that
    /// `index` marks as the loop's index computed), with the index when `l`
    /// takes one more parameter than there are inputs.
    pub(super) fn row_args(
        &mut self,
        l: &Lambda,
        inputs: &[Val<'p>],
        index: &[bool],
        i: &SExp,
    ) -> R<Vec<Val<'p>>> {
        let mut args = Vec::new();
        for (k, x) in inputs.iter().enumerate() {
            args.push(match x {
                Val::Array(v) if index.get(k) == Some(&true) => {
                    Val::Scalar(Self::index_element(v, i))
                }
                Val::Array(v) if v.rank() == 1 => {
                    let name = l
                        .params
                        .get(k)
                        .map(|p| self.var_name(p.var))
                        .unwrap_or_else(|| "x".into());
                    let x = self.new_var(&name, v.elem);
                    self.push(Stm::Read {
                        var: x,
                        view: v.clone(),
                        idx: vec![i.clone()],
                    });
                    Val::Scalar(SExp::Var(x))
                }
                Val::Array(v) => Val::Array(v.at(std::slice::from_ref(i))),
                other => other.clone(),
            });
        }
        if l.params.len() == inputs.len() + 1 {
            args.push(Val::Scalar(i.clone()));
        }
        Ok(args)
    }

    pub(super) fn inputs(&self, vs: &[ir::VarId]) -> R<Vec<Val<'p>>> {
        vs.iter().map(|v| self.lookup(*v)).collect()
    }

    /// Wraps the statements `f` emits in [`Stm::Planned`] when `planned`
    /// names a segmented operation.
    fn planned(
        &mut self,
        planned: Option<&'static str>,
        f: impl FnOnce(&mut Self) -> R<()>,
    ) -> R<()> {
        match planned {
            None => f(self),
            Some(seg_op) => {
                let body = self.nested(f)?;
                self.push(Stm::Planned { seg_op, body });
                Ok(())
            }
        }
    }

    /// A sequential `for` loop over `0..n`.
    pub(super) fn seq_loop(
        &mut self,
        n: SExp,
        body: impl FnOnce(&mut Self, &SExp) -> R<()>,
    ) -> R<()> {
        let i = self.new_var("i", PrimType::I64);
        let idx = SExp::Var(i);
        let block = self.nested(|l| body(l, &idx))?;
        self.push(Stm::For {
            i,
            bound: n,
            body: block,
        });
        Ok(())
    }

    /// The most chunks of an operation lowered here: [`CHUNKS`], or on a
    /// device outside other parallel loops `device`
    /// ([`DEVICE_CHUNKS`] for reductions, [`DEVICE_SCAN_CHUNKS`],
    /// [`DEVICE_HIST_CHUNKS`]).
    pub(super) fn most_chunks(&self, device: i64) -> i64 {
        if self.device && !self.nest_here && !self.parallel {
            device
        } else {
            CHUNKS
        }
    }

    /// The number of chunks a parallel region over `w` iterations is split
    /// into (chosen when it runs, between 1 and `most`, and at most `cap`
    /// when there is one: an [`SExp::Chunks`] whose cost
    /// [`Self::set_chunk_cost`] fills in once the region is lowered) and
    /// the iterations per chunk, bound to fresh variables.
    pub(super) fn chunking_capped(
        &mut self,
        w: &SExp,
        cap: Option<SExp>,
        most: i64,
    ) -> (SExp, SExp) {
        use SExp as E;
        let count = E::Chunks {
            w: Box::new(w.clone()),
            cost: 1,
            most,
        };
        let count = match cap {
            None => count,
            Some(cap) => {
                let count = E::Var(self.assign_fresh("most_chunks", PrimType::I64, count));
                bin(ir::BinOp::Max, bin(ir::BinOp::Min, count, cap), E::i64(1))
            }
        };
        let k = E::Var(self.assign_fresh("chunks", PrimType::I64, count));
        let up = E::minus(E::plus(w.clone(), k.clone()), E::i64(1));
        let chunk = self.assign_fresh("chunk", PrimType::I64, bin(ir::BinOp::Div, up, k.clone()));
        (k, E::Var(chunk))
    }

    /// Sets the cost of one iteration in the chunk count that
    /// [`Self::chunking_capped`] bound last: the work of the loop over the chunks
    /// just lowered (the last statement) spread over a chunk's iterations,
    /// which [`crate::cost`] counts as
    /// [`crate::cost::UNKNOWN_TRIPS`].
    pub(super) fn set_chunk_cost(&mut self) {
        let per_chunk = match self.stms.last() {
            Some(Stm::ParFor { body, .. }) => crate::cost::cost(body),
            Some(s) => crate::cost::stm_cost(s),
            None => return,
        };
        for s in self.stms.iter_mut().rev() {
            if let Stm::Assign {
                exp: SExp::Chunks { cost, .. },
                ..
            } = s
            {
                *cost = crate::cost::per_chunk_iteration(per_chunk);
                return;
            }
        }
    }

    /// Writes the scalar running values of `state` into `views` at `idx`
    /// (array components are updated in place already).
    pub(super) fn write_scalars(&mut self, views: &[View], state: &[State], idx: &SExp) {
        for (view, st) in views.iter().zip(state) {
            if let State::Scalar(v) = st {
                self.push(Stm::Write {
                    view: view.clone(),
                    idx: vec![idx.clone()],
                    value: SExp::Var(*v),
                });
            }
        }
    }

    /// Applies operator `op` to the running values and `new`, and stores
    /// the results in the running values.
    pub(super) fn combine(&mut self, op: &'p Lambda, state: &[State], new: &[Val<'p>]) -> R<()> {
        if self.combine_in_place(op, state, new)? {
            return Ok(());
        }
        let mut args: Vec<Val<'p>> = state
            .iter()
            .map(|s| match s {
                State::Scalar(x) => Val::Scalar(SExp::Var(*x)),
                State::Array(v) => Val::Array(v.clone()),
            })
            .collect();
        args.extend(new.iter().cloned());
        let out = self.apply(op, args, &[])?;
        let mut assigns = Vec::new();
        for (s, r) in state.iter().zip(out) {
            match (s, r) {
                (State::Scalar(x), Val::Scalar(e)) => {
                    let t = self.assign_fresh("op_res", self.var_elem(*x), e);
                    assigns.push((*x, t));
                }
                (State::Array(v), Val::Array(r)) => {
                    if *v != r {
                        self.copy(v, &r);
                    }
                }
                _ => return self.fail("an operator result of the wrong kind"),
            }
        }
        for (x, t) in assigns {
            self.push(Stm::Assign {
                var: x,
                exp: SExp::Var(t),
                span: self.span,
            });
        }
        Ok(())
    }

    /// Combines running arrays `state` with new arrays `new` in place, when
    /// the operator is [`Elementwise`] (`map2 (+)`, an array reduction's
    /// usual operator, as reverse-mode AD makes for adjoints summed over a
    /// map): each element of the running arrays is read, combined with the
    /// new arrays' element at the same index by the scalar operator, and
    /// written back, in sequential loops over the arrays' shape. Without
    /// this the operator's map writes a fresh array that is then copied
    /// over the running one: two more passes over arrays as large as a
    /// gradient. Returns whether it applied.
    fn combine_in_place(&mut self, op: &'p Lambda, state: &[State], new: &[Val<'p>]) -> R<bool> {
        let Some(e) = elementwise(op, state) else {
            return Ok(false);
        };
        let free = ir::uses::lambda_free(&self.f.vars, e.map);
        if e.params.iter().any(|p| free.contains(p)) {
            return Ok(false);
        }
        let mut views = Vec::new();
        for st in state {
            match st {
                State::Array(v) => views.push(v.clone()),
                State::Scalar(_) => return Ok(false),
            }
        }
        let mut news = Vec::new();
        for x in new {
            match x {
                Val::Array(v) if v.shape == views[0].shape => news.push(v.clone()),
                _ => return Ok(false),
            }
        }
        // A new array in a running array's block could be overwritten
        // before it is read.
        if news.iter().any(|n| views.iter().any(|v| v.mem == n.mem)) {
            return Ok(false);
        }
        let shape = views[0].shape.clone();
        let all: Vec<View> = views.iter().chain(&news).cloned().collect();
        self.seq_nest(&shape, Vec::new(), &mut |l, idx| {
            let xs = l.read_each(&all, idx, "elem");
            let args = e
                .inputs
                .iter()
                .map(|&p| Val::Scalar(SExp::Var(xs[p])))
                .collect();
            let out = l.apply(e.map, args, &[])?;
            for (v, r) in views.iter().zip(out) {
                let Val::Scalar(r) = r else {
                    return l.fail("an elementwise operator result of the wrong kind");
                };
                l.push(Stm::Write {
                    view: v.clone(),
                    idx: idx.to_vec(),
                    value: r,
                });
            }
            Ok(())
        })?;
        Ok(true)
    }

    /// Reads the element at `idx` of each of `views` into a fresh scalar
    /// named `name`.
    pub(super) fn read_each(&mut self, views: &[View], idx: &[SExp], name: &str) -> Vec<SVar> {
        views
            .iter()
            .map(|v| {
                let x = self.new_var(name, v.elem);
                self.push(Stm::Read {
                    var: x,
                    view: v.clone(),
                    idx: idx.to_vec(),
                });
                x
            })
            .collect()
    }

    /// Sequential loops over `shape`, outermost first; `body` gets the
    /// indices.
    fn seq_nest(
        &mut self,
        shape: &[SExp],
        idx: Vec<SExp>,
        body: &mut dyn FnMut(&mut Self, &[SExp]) -> R<()>,
    ) -> R<()> {
        match shape.split_first() {
            None => body(self, &idx),
            Some((n, rest)) => self.seq_loop(n.clone(), |l, i| {
                let mut idx = idx;
                idx.push(i.clone());
                l.seq_nest(rest, idx, body)
            }),
        }
    }

    /// Running values initialised from the neutral elements.
    pub(super) fn init_state(&mut self, neutral: &[Operand]) -> R<Vec<State>> {
        let mut out = Vec::new();
        for n in neutral {
            out.push(match self.operand(n)? {
                Val::Scalar(e) => {
                    let t = match n {
                        Operand::Const(c) => c.prim_type(),
                        Operand::Var(v) => self.var_type(*v)?.elem,
                    };
                    State::Scalar(self.assign_fresh("acc", t, e))
                }
                Val::Array(v) => {
                    let s = self.alloc("acc", v.elem, v.shape.clone());
                    self.copy(&s, &v);
                    State::Array(s)
                }
                Val::Acc(..) => return self.fail("an accumulator as a neutral element"),
            });
        }
        Ok(out)
    }

    pub(crate) fn screma(
        &mut self,
        stm: &'p ir::Stm,
        s: &'p Screma,
        hints: &[Option<View>],
    ) -> R<Vec<Val<'p>>> {
        if let Some(row) = self.group_red.take() {
            return self.group_row_reduction(s, row);
        }
        let w = self.scalar(&s.w)?;
        let inputs = self.inputs(&s.inputs)?;
        let index = self.index_inputs(&s.inputs, &inputs);
        let n_scan: usize = s.scans.iter().map(|x| x.neutral.len()).sum();
        let n_red: usize = s.reduces.iter().map(|x| x.neutral.len()).sum();
        let has_acc = inputs.iter().any(|x| matches!(x, Val::Acc(..)));
        // Destinations: scanned arrays and mapped arrays.
        let mut dests: Vec<Option<View>> = Vec::new();
        // Rows whose size is known only once the first row is computed:
        // the dimensions' variables, set (and the block allocated) then.
        let mut late: Vec<Vec<(usize, SVar)>> = Vec::new();
        // The element counts of the destinations given for such rows
        // (row-major views): the rows go there instead of a fresh block,
        // and must fill it.
        let mut late_into: Vec<Option<SExp>> = Vec::new();
        for (j, t) in s.map.ret.iter().enumerate() {
            late.push(Vec::new());
            late_into.push(None);
            let is_red = j >= n_scan && j < n_scan + n_red;
            if is_red || t.acc {
                dests.push(None);
                continue;
            }
            let name = stm
                .pat
                .get(j)
                .map(|v| self.var_name(*v))
                .unwrap_or_else(|| "r".into());
            let mut shape = vec![w.clone()];
            for (k, d) in t.shape.iter().enumerate() {
                match self.size(d) {
                    Ok(e) => shape.push(e),
                    Err(_) => {
                        let x = self.assign_fresh(
                            &format!("{name}_d{}", k + 1),
                            PrimType::I64,
                            SExp::i64(0),
                        );
                        late[j].push((k + 1, x));
                        shape.push(SExp::Var(x));
                    }
                }
            }
            let hint = if j >= n_scan {
                hints.get(j).cloned().flatten()
            } else {
                None
            };
            match hint {
                Some(h) if !late[j].is_empty() => {
                    if h.elem == t.elem && h.rank() == shape.len() && h.is_row_major() {
                        late_into[j] = Some(h.count());
                        let strides = row_major_strides(&shape);
                        dests.push(Some(View {
                            shape,
                            strides,
                            ..h
                        }));
                    } else {
                        dests.push(Some(self.dest(None, &name, t.elem, shape)));
                    }
                }
                _ => dests.push(Some(self.dest(hint.as_ref(), &name, t.elem, shape))),
            }
        }
        let has_late = late.iter().any(|l| !l.is_empty());
        if late.iter().take(n_scan).any(|l| !l.is_empty()) {
            return self
                .fail("a scan whose rows have a size unknown before it runs is not lowered yet");
        }
        let mut red_state = Vec::new();
        for r in &s.reduces {
            red_state.push(self.init_state(&r.neutral)?);
        }
        let mut scan_state = Vec::new();
        for sc in &s.scans {
            scan_state.push(self.init_state(&sc.neutral)?);
        }
        let acc_results: RefCell<Vec<Val<'p>>> = RefCell::new(Vec::new());
        // Whether an iteration may be the first, which sizes and allocates
        // the rows whose size is known only once one is computed.
        let may_size_rows = Cell::new(true);
        let iteration = |l: &mut Self,
                         inputs: &[Val<'p>],
                         i: &SExp,
                         scan_state: &[Vec<State>],
                         red_state: &[Vec<State>]|
         -> R<()> {
            let args = l.row_args(&s.map, inputs, &index, i)?;
            let row_hints: Vec<Option<View>> = dests
                .iter()
                .enumerate()
                .map(|(j, d)| match d {
                    Some(d) if j >= n_scan + n_red && d.rank() > 1 && late[j].is_empty() => {
                        Some(d.at(std::slice::from_ref(i)))
                    }
                    _ => None,
                })
                .collect();
            let res = l.apply(&s.map, args, &row_hints)?;
            if res.len() != s.map.ret.len() {
                return l.fail("a map lambda with the wrong number of results");
            }
            let mut off = 0;
            for (k, sc) in s.scans.iter().enumerate() {
                let m = sc.neutral.len();
                l.combine(&sc.op, &scan_state[k], &res[off..off + m])?;
                for (j, st) in scan_state[k].iter().enumerate() {
                    let Some(d) = &dests[off + j] else { continue };
                    match st {
                        State::Scalar(x) => l.push(Stm::Write {
                            view: d.clone(),
                            idx: vec![i.clone()],
                            value: SExp::Var(*x),
                        }),
                        State::Array(v) => {
                            let row = d.at(std::slice::from_ref(i));
                            l.copy(&row, v);
                        }
                    }
                }
                off += m;
            }
            for (k, r) in s.reduces.iter().enumerate() {
                let m = r.neutral.len();
                l.combine(&r.op, &red_state[k], &res[off..off + m])?;
                off += m;
            }
            for (j, x) in res.iter().enumerate().skip(n_scan + n_red) {
                match (x, &dests[j]) {
                    (Val::Scalar(e), Some(d)) => l.push(Stm::Write {
                        view: d.clone(),
                        idx: vec![i.clone()],
                        value: e.clone(),
                    }),
                    (Val::Array(r), Some(d)) => {
                        if !late[j].is_empty() && may_size_rows.get() {
                            let first = SExp::cmp(CmpOp::Eq, i.clone(), SExp::i64(0));
                            let (r, d, late) = (r.clone(), d.clone(), late[j].clone());
                            let then_block = l.nested(|l| {
                                for (k, x) in &late {
                                    l.push(Stm::Assign {
                                        var: *x,
                                        exp: r.shape[k - 1].clone(),
                                        span: l.span,
                                    });
                                }
                                match &late_into[j] {
                                    Some(n) => l.push(Stm::Assert {
                                        cond: SExp::cmp(CmpOp::Eq, d.count(), n.clone()),
                                        msg: "Size mismatch: rows of {} elements in all \
                                              for a destination of {}"
                                            .into(),
                                        args: vec![d.count(), n.clone()],
                                        span: l.span,
                                        check: Check::Always,
                                    }),
                                    None => l.push(Stm::Alloc {
                                        mem: d.mem,
                                        count: d.count(),
                                    }),
                                }
                                Ok(())
                            })?;
                            l.push_when(first, then_block);
                        }
                        let row = d.at(std::slice::from_ref(i));
                        if *r != row {
                            l.copy(&row, r);
                        }
                    }
                    (Val::Acc(..), None) => acc_results.borrow_mut().push(x.clone()),
                    _ => return l.fail("a map result of the wrong kind"),
                }
            }
            Ok(())
        };
        // Nested in a parallel loop, only the maps, reductions and scans of
        // a map with parallelism inside are parallel (`inner_par`).
        let nested = self.parallel;
        let plan = if !self.parallel || self.inner_par {
            flatten::plan(self.f, stm)
        } else {
            None
        };
        let inner = matches!(
            plan,
            Some(flatten::Plan::Nest(_) | flatten::Plan::Versioned(_))
        ) && !nested;
        let outer_plan = plan.clone().filter(|_| !nested);
        let only_map = n_scan + n_red == 0 && !has_acc && !has_late;
        let scalar_states = scan_state
            .iter()
            .chain(&red_state)
            .flatten()
            .all(|x| matches!(x, State::Scalar(_)));
        // Reductions of arrays (`flatten::array_reduction`) run in
        // parallel only outside any other parallel operation, as chunks
        // keeping partial arrays.
        let arrays_ok = !nested && n_scan == 0 && flatten::array_reduction(s);
        // The screma as one sequential loop (`planned` names the segmented
        // operation it stands for), with partial results where they pay.
        let sequential = |l: &mut Self, planned: Option<&'static str>| {
            let ids = partial_identities(s).filter(|_| {
                !has_acc
                    && !has_late
                    && scalar_states
                    && long_enough(&w)
                    && l.reads_contiguously(&inputs, &index)
            });
            l.planned(planned, |l| match &ids {
                Some(ids) => l.partials_loop(w.clone(), s, ids, &red_state, |l, i, rd| {
                    iteration(l, &inputs, i, &scan_state, rd)
                }),
                None => l.seq_loop(w.clone(), |l, i| {
                    iteration(l, &inputs, i, &scan_state, &red_state)
                }),
            })
        };
        let group_rows = match plan {
            Some(flatten::Plan::Nest(_) | flatten::Plan::Versioned(_))
                if self.device && !nested && only_map =>
            {
                super::segred_groups::group_reducible(s)
            }
            _ => None,
        };
        if plan.is_some() && only_map {
            let threads = |l: &mut Self| {
                l.inner_next = inner;
                l.inner_red_next = matches!(plan, Some(flatten::Plan::Nest(_))) && !nested;
                l.nest_here = nested;
                let done = l.loop_nest(vec![w.clone()], true, |l, idx| {
                    iteration(l, &inputs, &idx[0], &scan_state, &red_state)
                });
                l.nest_here = false;
                done
            };
            match group_rows {
                // On a device, long rows of a segmented reduction: a group
                // of threads per row.
                Some(row_red) => {
                    let row =
                        |l: &mut Self, g: &SExp| iteration(l, &inputs, g, &scan_state, &red_state);
                    self.segred_versions(row_red, w.clone(), &row, threads)?;
                }
                None => threads(self)?,
            }
        } else if outer_plan.is_some() && n_scan + n_red == 0 && !has_acc && has_late {
            // Rows of a size known only once one is computed: the first
            // row alone sizes and allocates the results, then the others
            // run in parallel, each copy checking its row's shape.
            let nonempty = SExp::cmp(CmpOp::Lt, SExp::i64(0), w.clone());
            let rows = self.nested(|l| {
                iteration(l, &inputs, &SExp::i64(0), &scan_state, &red_state)?;
                may_size_rows.set(false);
                l.loop_nest(
                    vec![SExp::minus(w.clone(), SExp::i64(1))],
                    true,
                    |l, idx| {
                        let i = SExp::plus(idx[0].clone(), SExp::i64(1));
                        iteration(l, &inputs, &i, &scan_state, &red_state)
                    },
                )
            })?;
            self.push_when(nonempty, rows);
        } else if plan.is_some() && !has_acc && !has_late && (scalar_states || arrays_ok) {
            let states = (scan_state.as_slice(), red_state.as_slice());
            let chunked = |l: &mut Self| {
                l.nest_here = nested;
                let done = l.chunked(w.clone(), s, states, &dests[..n_scan], |l, i, sc, rd| {
                    iteration(l, &inputs, i, sc, rd)
                });
                l.nest_here = false;
                done
            };
            if nested {
                // Nested in a parallel loop: split only when the runtime
                // gives more than one chunk (the outer loop leaves threads
                // idle); otherwise the sequential loop, without the partial
                // results' blocks and the loop over chunks. Of constant size
                // and too little work for the runtime ever to split: the
                // sequential loop alone. On a device, the sequential loop
                // alone too: a kernel's threads cannot split their work
                // further (the partial results' blocks would be allocated
                // inside the kernel).
                let seq = self.nested(|l| sequential(l, None))?;
                let small = !self.inner_red
                    || self.device
                    || w.as_i64().is_some()
                        && crate::cost::cost(&seq) < crate::cost::MIN_SPLIT_WORK;
                if small {
                    self.stms.extend(seq.stms);
                } else {
                    let par = self.nested(chunked)?;
                    let count = par.stms.iter().find_map(|s| match s {
                        Stm::Assign {
                            exp: e @ SExp::Chunks { .. },
                            ..
                        } => Some(e.clone()),
                        _ => None,
                    });
                    match count {
                        Some(count) => self.push(Stm::If {
                            cond: SExp::cmp(CmpOp::Le, count, SExp::i64(1)),
                            then_block: seq,
                            else_block: par,
                        }),
                        None => {
                            return self.fail("a nested parallel reduction without a chunk count");
                        }
                    }
                }
            } else {
                chunked(self)?;
            }
        } else if let Some(accs) =
            (outer_plan.is_some() && n_scan == 0 && !has_late && (scalar_states || arrays_ok))
                .then(|| self.shared_accs(&s.map, &inputs))
                .flatten()
        {
            // A map updating accumulators with operators, and perhaps
            // reducing: private copies or atomic updates (`accs`), the
            // reductions' partial results per chunk.
            self.acc_map(w, s, &inputs, &accs, &red_state, |l, inputs, i, rd| {
                iteration(l, inputs, i, &scan_state, rd)
            })?;
        } else {
            let seg = outer_plan.map(|p| match p {
                flatten::Plan::Seg(op) | flatten::Plan::Versioned(op) => op.name(),
                flatten::Plan::Nest(_) => flatten::SegOp::Map.name(),
                flatten::Plan::Scatter => "scatter",
            });
            sequential(self, seg)?;
        }
        // Results: scanned arrays, reduced values, mapped arrays.
        let mut out = Vec::new();
        for d in dests.iter().take(n_scan) {
            match d {
                Some(d) => out.push(Val::Array(d.clone())),
                None => return self.fail("a scan without a destination"),
            }
        }
        for st in red_state.iter().flatten() {
            out.push(match st {
                State::Scalar(x) => Val::Scalar(SExp::Var(*x)),
                State::Array(v) => Val::Array(v.clone()),
            });
        }
        let mut accs = acc_results.into_inner().into_iter();
        let mut acc_inputs = inputs.iter().filter(|x| matches!(x, Val::Acc(..)));
        for (j, t) in s.map.ret.iter().enumerate().skip(n_scan + n_red) {
            if t.acc {
                // Accumulators are static views: the same whatever the
                // number of iterations.
                match acc_inputs.next().cloned().or_else(|| accs.next()) {
                    Some(a) => out.push(a),
                    None => return self.fail("an accumulator result without an accumulator input"),
                }
            } else {
                match &dests[j] {
                    Some(d) => out.push(Val::Array(d.clone())),
                    None => return self.fail("a map result without a destination"),
                }
            }
        }
        Ok(out)
    }

    /// A segmented reduction or scan as parallel regions with explicit
    /// per-chunk partial results: the `w` iterations split into at most
    /// [`CHUNKS`] chunks; a parallel loop over the chunks runs each
    /// chunk's iterations from the neutral elements and writes its partial
    /// results; a sequential loop combines them in chunk order (the
    /// reductions' results, and for scans each chunk's prefix); for scans
    /// a second parallel loop applies each chunk's prefix to its elements.
    fn chunked(
        &mut self,
        w: SExp,
        s: &'p Screma,
        (scan_state, red_state): (&[Vec<State>], &[Vec<State>]),
        scan_dests: &[Option<View>],
        iteration: impl Fn(&mut Self, &SExp, &[Vec<State>], &[Vec<State>]) -> R<()>,
    ) -> R<()> {
        use SExp as E;
        let most = self.most_chunks(if s.scans.is_empty() || device_scan(s, scan_state) {
            DEVICE_CHUNKS
        } else {
            DEVICE_SCAN_CHUNKS
        });
        let (k, chunk) = self.chunking_capped(&w, None, most);
        let scan_parts = self.partial_blocks("scan_part", &k, scan_state);
        let red_parts = self.partial_blocks("red_part", &k, red_state);
        self.par_label = if s.scans.is_empty() {
            "segred"
        } else {
            "segscan"
        };
        // Nested in a parallel loop (a row's reduction split only when the
        // outer loop leaves threads idle), the chunks keep one chain: the
        // row's sequential version already has the partial results, and
        // this copy of the body would double the code again.
        let partials = !self.nest_here;
        // On a device, neighbouring threads read neighbouring elements
        // when each chunk takes every k-th iteration (coalesced accesses),
        // which only a commutative reduction allows.
        let stride = (most == DEVICE_CHUNKS
            && s.scans.is_empty()
            && s.reduces.iter().all(|r| r.is_commutative()))
        .then(|| k.clone());
        self.chunk_loop_next = true;
        self.loop_nest(vec![k.clone()], true, |l, c| {
            let c = &c[0];
            let parts = (scan_parts.as_slice(), red_parts.as_slice());
            let ids = partial_identities(s).filter(|_| partials && all_scalars(red_state));
            l.chunk_partials(s, c, (&w, &chunk, stride.as_ref()), ids, parts, &iteration)
        })?;
        self.set_chunk_cost();
        let states = (scan_state, red_state);
        let rounds = most == DEVICE_CHUNKS;
        let prefixes = self.combine_partials(s, &k, states, (&scan_parts, &red_parts), rounds)?;
        if s.scans.is_empty() {
            return Ok(());
        }
        // Each chunk's prefix applied to its elements.
        self.par_label = "segscan-carry";
        self.chunk_loop_next = true;
        self.loop_nest(vec![k.clone()], true, |l, c| {
            let c = &c[0];
            let (start, len) = l.chunk_bounds(&w, &chunk, c);
            l.seq_loop(len, |l, j| {
                let i = l.assign_fresh("i", PrimType::I64, E::plus(start, j.clone()));
                let i = E::Var(i);
                let mut off = 0;
                for (n, sc) in s.scans.iter().enumerate() {
                    let m = sc.neutral.len();
                    let mut args = Vec::new();
                    for pre in &prefixes[n] {
                        let x = l.new_var("prefix", pre.elem);
                        l.push(Stm::Read {
                            var: x,
                            view: pre.clone(),
                            idx: vec![c.clone()],
                        });
                        args.push(Val::Scalar(E::Var(x)));
                    }
                    let dests = &scan_dests[off..off + m];
                    for d in dests.iter().flatten() {
                        let x = l.new_var("elem", d.elem);
                        l.push(Stm::Read {
                            var: x,
                            view: d.clone(),
                            idx: vec![i.clone()],
                        });
                        args.push(Val::Scalar(E::Var(x)));
                    }
                    let out = l.apply(&sc.op, args, &[])?;
                    for (d, r) in dests.iter().flatten().zip(out) {
                        let Val::Scalar(e) = r else {
                            return l.fail("a scan operator result of the wrong kind");
                        };
                        l.push(Stm::Write {
                            view: d.clone(),
                            idx: vec![i.clone()],
                            value: e,
                        });
                    }
                    off += m;
                }
                Ok(())
            })
        })
    }

    /// Per component of the running values `st`, a `[k]` block for the
    /// chunks' partial results (`[k]` followed by the shape of an array
    /// component: a partial array per chunk).
    pub(super) fn partial_blocks(
        &mut self,
        name: &str,
        k: &SExp,
        st: &[Vec<State>],
    ) -> Vec<Vec<View>> {
        st.iter()
            .map(|comps| {
                comps
                    .iter()
                    .map(|x| match x {
                        State::Scalar(v) => {
                            let t = self.var_elem(*v);
                            self.alloc(name, t, vec![k.clone()])
                        }
                        State::Array(a) => {
                            let mut shape = vec![k.clone()];
                            shape.extend(a.shape.iter().cloned());
                            self.alloc(name, a.elem, shape)
                        }
                    })
                    .collect()
            })
            .collect()
    }

    /// Writes the running values of `state` into the partial-result
    /// blocks `views` at chunk `c`: scalars as elements, arrays as rows.
    fn write_partials(&mut self, views: &[View], state: &[State], c: &SExp) {
        self.write_scalars(views, state, c);
        for (view, st) in views.iter().zip(state) {
            if let State::Array(a) = st {
                let row = view.at(std::slice::from_ref(c));
                self.copy(&row, a);
            }
        }
    }

    /// The first iteration and the number of iterations of chunk `c` when
    /// `w` iterations are split into chunks of `chunk`, bound to fresh
    /// variables.
    fn chunk_bounds(&mut self, w: &SExp, chunk: &SExp, c: &SExp) -> (SExp, SExp) {
        use SExp as E;
        let start = self.assign_fresh("start", PrimType::I64, E::times(c.clone(), chunk.clone()));
        let rest = E::minus(w.clone(), E::Var(start));
        let len = bin(
            ir::BinOp::Max,
            bin(ir::BinOp::Min, chunk.clone(), rest),
            E::i64(0),
        );
        let len = self.assign_fresh("len", PrimType::I64, len);
        (E::Var(start), E::Var(len))
    }

    /// The body of chunk `c` of a parallel scan or reduction: running
    /// values of its own from the neutral elements, its iterations (of `w`
    /// split into chunks of `chunk` consecutive iterations, or with
    /// `stride` (the number of chunks `k`) every `k`-th from `c`: only
    /// for commutative operators; with `ids`, the reductions'
    /// identities, several partial results per chunk), and its results written at `c` of `parts` (the
    /// scans' and the reductions' [`Self::partial_blocks`]). `iteration`
    /// gets the index and the running values to update.
    pub(super) fn chunk_partials(
        &mut self,
        s: &'p Screma,
        c: &SExp,
        (w, chunk, stride): (&SExp, &SExp, Option<&SExp>),
        ids: Option<Vec<ir::PrimValue>>,
        (scan_parts, red_parts): (&[Vec<View>], &[Vec<View>]),
        iteration: &impl Fn(&mut Self, &SExp, &[Vec<State>], &[Vec<State>]) -> R<()>,
    ) -> R<()> {
        use SExp as E;
        let mut local_scan = Vec::new();
        for sc in &s.scans {
            local_scan.push(self.init_state(&sc.neutral)?);
        }
        let mut local_red = Vec::new();
        for r in &s.reduces {
            local_red.push(self.init_state(&r.neutral)?);
        }
        // Chunk `c` takes iterations `start + j`, or with a stride `k`
        // (the number of chunks) iterations `c + j·k`.
        let (start, len, step) = match stride {
            None => {
                let (start, len) = self.chunk_bounds(w, chunk, c);
                (start, len, E::i64(1))
            }
            Some(k) => {
                let rest = E::plus(
                    E::minus(w.clone(), c.clone()),
                    E::minus(k.clone(), E::i64(1)),
                );
                let len = bin(ir::BinOp::Div, rest, k.clone());
                let len =
                    self.assign_fresh("len", PrimType::I64, bin(ir::BinOp::Max, len, E::i64(0)));
                (c.clone(), E::Var(len), k.clone())
            }
        };
        let at = |j: &SExp| E::plus(start.clone(), E::times(j.clone(), step.clone()));
        match ids {
            Some(ids) => self.partials_loop(len, s, &ids, &local_red, |l, j, rd| {
                let i = l.assign_fresh("i", PrimType::I64, at(j));
                iteration(l, &E::Var(i), &local_scan, rd)
            })?,
            None => self.seq_loop(len, |l, j| {
                let i = l.assign_fresh("i", PrimType::I64, at(j));
                iteration(l, &E::Var(i), &local_scan, &local_red)
            })?,
        }
        for (parts, st) in scan_parts
            .iter()
            .chain(red_parts)
            .zip(local_scan.iter().chain(&local_red))
        {
            self.write_partials(parts, st, c);
        }
        Ok(())
    }

    /// The `k` chunks' partial results `parts` (per scan, then per
    /// reduction) combined into the running values `states` in chunk
    /// order; returns, per scan, the `[k]` blocks of each chunk's prefix
    /// (the running values before it). With `rounds` (many chunks on a
    /// device), a reduction of scalars first combines them on the device
    /// ([`Self::device_rounds`]).
    pub(super) fn combine_partials(
        &mut self,
        s: &'p Screma,
        k: &SExp,
        (scan_state, red_state): (&[Vec<State>], &[Vec<State>]),
        (scan_parts, red_parts): (&[Vec<View>], &[Vec<View>]),
        rounds: bool,
    ) -> R<Vec<Vec<View>>> {
        if rounds && device_scan(s, scan_state) {
            return self.device_scan_prefixes(s, k, scan_parts);
        }
        let prefixes = self.partial_blocks("prefix", k, scan_state);
        // Reductions of arrays by an elementwise operator combine their
        // partial arrays element by element, in parallel, each element's
        // chunks in order (one parallel loop rather than one per chunk).
        let elementwise: Vec<Option<Elementwise<'p>>> = s
            .reduces
            .iter()
            .zip(red_state)
            .map(|(r, st)| {
                elementwise(&r.op, st).filter(|e| {
                    // The scalar operator reads the arrays only through
                    // its map's inputs.
                    let free = ir::uses::lambda_free(&self.f.vars, e.map);
                    !e.params.iter().any(|p| free.contains(p))
                })
            })
            .collect();
        let in_chunk_order = !s.scans.is_empty() || elementwise.iter().any(Option::is_none);
        // On a device, a reduction of scalars combines its many chunks'
        // results on the device first, down to at most CHUNKS.
        let k = &if rounds && s.scans.is_empty() && all_scalars(red_state) {
            self.device_rounds(s, k, red_parts)?
        } else {
            k.clone()
        };
        let chunk_order = |l: &mut Self, c: &SExp| -> R<()> {
            // A partial array is its chunk's row of the block (rank above 1).
            let read = |l: &mut Self, parts: &[View]| -> Vec<Val<'p>> {
                parts
                    .iter()
                    .map(|p| {
                        if p.rank() > 1 {
                            return Val::Array(p.at(std::slice::from_ref(c)));
                        }
                        let x = l.new_var("part", p.elem);
                        l.push(Stm::Read {
                            var: x,
                            view: p.clone(),
                            idx: vec![c.clone()],
                        });
                        Val::Scalar(SExp::Var(x))
                    })
                    .collect()
            };
            for (n, sc) in s.scans.iter().enumerate() {
                l.write_scalars(&prefixes[n], &scan_state[n], c);
                let vals = read(l, &scan_parts[n]);
                l.combine(&sc.op, &scan_state[n], &vals)?;
            }
            for (n, r) in s.reduces.iter().enumerate() {
                if elementwise[n].is_some() {
                    continue;
                }
                let vals = read(l, &red_parts[n]);
                l.combine(&r.op, &red_state[n], &vals)?;
            }
            Ok(())
        };
        if in_chunk_order {
            self.seq_loop(k.clone(), chunk_order)?;
        }
        for (n, e) in elementwise.iter().enumerate() {
            if let Some(e) = e {
                self.combine_elementwise(e, k, &red_state[n], &red_parts[n])?;
            }
        }
        Ok(prefixes)
    }

    /// The partial arrays `parts` (`[k][n]` blocks) of a reduction by the
    /// elementwise operator `e` combined into its running arrays `state`:
    /// a parallel loop over the elements, each combining its `k` chunks'
    /// elements in chunk order.
    fn combine_elementwise(
        &mut self,
        e: &Elementwise<'p>,
        k: &SExp,
        state: &[State],
        parts: &[View],
    ) -> R<()> {
        let views: Vec<View> = state
            .iter()
            .filter_map(|st| match st {
                State::Array(v) => Some(v.clone()),
                State::Scalar(_) => None,
            })
            .collect();
        let Some(first) = views.first() else {
            return self.fail("an elementwise reduction without arrays");
        };
        self.par_label = "segred-combine";
        self.loop_nest(first.shape.clone(), true, |l, idx| {
            let xs = l.read_each(&views, idx, "acc_elem");
            l.seq_loop(k.clone(), |l, c| {
                let mut args = Vec::new();
                for &p in &e.inputs {
                    args.push(if p < xs.len() {
                        Val::Scalar(SExp::Var(xs[p]))
                    } else {
                        let part = &parts[p - xs.len()];
                        let y = l.new_var("part", part.elem);
                        let mut at = vec![c.clone()];
                        at.extend(idx.iter().cloned());
                        l.push(Stm::Read {
                            var: y,
                            view: part.clone(),
                            idx: at,
                        });
                        Val::Scalar(SExp::Var(y))
                    });
                }
                let out = l.apply(e.map, args, &[])?;
                let states: Vec<State> = xs.iter().map(|x| State::Scalar(*x)).collect();
                let mut assigns = Vec::new();
                for (x, r) in states.iter().zip(out) {
                    let (State::Scalar(x), Val::Scalar(r)) = (x, r) else {
                        return l.fail("an elementwise operator result of the wrong kind");
                    };
                    let t = l.assign_fresh("op_res", l.var_elem(*x), r);
                    assigns.push((*x, t));
                }
                for (x, t) in assigns {
                    l.push(Stm::Assign {
                        var: x,
                        exp: SExp::Var(t),
                        span: l.span,
                    });
                }
                Ok(())
            })?;
            for (v, x) in views.iter().zip(&xs) {
                l.push(Stm::Write {
                    view: v.clone(),
                    idx: idx.to_vec(),
                    value: SExp::Var(*x),
                });
            }
            Ok(())
        })
    }

    /// `cond` for indices `idx` of the outer dimensions of `v`.
    fn in_bounds(v: &View, idx: &[SExp]) -> SExp {
        let mut cond = SExp::Const(ir::PrimValue::Bool(true));
        for (i, n) in idx.iter().zip(&v.shape) {
            cond = SExp::and(cond, SExp::cmp(CmpOp::Le, SExp::i64(0), i.clone()));
            cond = SExp::and(cond, SExp::cmp(CmpOp::Lt, i.clone(), n.clone()));
        }
        cond
    }

    pub(crate) fn hist(&mut self, stm: &'p ir::Stm, h: &'p Hist) -> R<Vec<Val<'p>>> {
        let w = self.scalar(&h.w)?;
        let inputs = self.inputs(&h.inputs)?;
        let mut dests = Vec::new();
        for op in &h.hists {
            dests.push(
                op.dests
                    .iter()
                    .map(|d| self.array(*d))
                    .collect::<R<Vec<_>>>()?,
            );
        }
        let planned = !self.parallel && flatten::plan(self.f, stm).is_some();
        let scalar_dests = dests.iter().flatten().all(|d| d.rank() == 1);
        let atomic = self.device && h.hists.iter().all(|op| op.dests.len() == 1);
        if planned && scalar_dests && atomic {
            // On a device, histograms of single values: private copies
            // per chunk where there are many updates per bucket, atomic
            // updates of the destinations otherwise (`atomic_hist`).
            let cap = Self::hist_chunk_cap(&w, &dests);
            let copies = self.nested(|l| l.chunked_hist(w.clone(), h, &inputs, &dests))?;
            let atomics = self.nested(|l| l.atomic_hist(w.clone(), h, &inputs, &dests))?;
            self.push(Stm::If {
                cond: SExp::cmp(
                    CmpOp::Le,
                    SExp::Tuned {
                        name: "hist_copies_threshold".into(),
                        default: DEVICE_HIST_CHUNKS,
                    },
                    cap,
                ),
                then_block: copies,
                else_block: atomics,
            });
        } else if planned && scalar_dests {
            self.chunked_hist(w, h, &inputs, &dests)?;
        } else {
            let dests_ref = &dests;
            self.planned(planned.then_some("seghist"), |l| {
                l.seq_loop(w, |l, i| {
                    let args = l.row_args(&h.map, &inputs, &[], i)?;
                    let res = l.apply(&h.map, args, &[])?;
                    l.hist_updates(h, &res, dests_ref)
                })
            })?;
        }
        Ok(dests.into_iter().flatten().map(Val::Array).collect())
    }

    /// One iteration's updates of histograms `dests` (per operator, its
    /// destinations) with the map's results `res`; out-of-bounds buckets
    /// are ignored.
    fn hist_updates(&mut self, h: &'p Hist, res: &[Val<'p>], dests: &[Vec<View>]) -> R<()> {
        let l = self;
        let mut off = 0;
        for (k, op) in h.hists.iter().enumerate() {
            let m = op.dests.len();
            let (Some(Val::Scalar(ix)), Some(vals)) = (res.get(off), res.get(off + 1..off + 1 + m))
            else {
                return l.fail("a hist lambda with the wrong results");
            };
            off += 1 + m;
            let ds = &dests[k];
            let Some(first) = ds.first() else { continue };
            let ix = l.assign_fresh("bucket", PrimType::I64, ix.clone());
            let ix = SExp::Var(ix);
            let cond = Self::in_bounds(first, std::slice::from_ref(&ix));
            let vals = vals.to_vec();
            let then_block = l.nested(|l| {
                let mut olds = Vec::new();
                let mut state = Vec::new();
                for d in ds {
                    if d.rank() == 1 {
                        let x = l.new_var("old", d.elem);
                        l.push(Stm::Read {
                            var: x,
                            view: d.clone(),
                            idx: vec![ix.clone()],
                        });
                        olds.push(x);
                        state.push(State::Scalar(x));
                    } else {
                        state.push(State::Array(d.at(std::slice::from_ref(&ix))));
                    }
                }
                l.combine(&op.op, &state, &vals)?;
                l.write_scalars(ds, &state, &ix);
                Ok(())
            })?;
            l.push_when(cond, then_block);
        }
        Ok(())
    }

    /// The most chunks of a histogram of `w` iterations into `dests`:
    /// each chunk fills copies of the histograms, so no more chunks than
    /// make the copies cost as much as the iterations (`w` over the
    /// buckets of all destinations).
    fn hist_chunk_cap(w: &SExp, dests: &[Vec<View>]) -> SExp {
        let bins = dests
            .iter()
            .flatten()
            .filter_map(|d| d.shape.first().cloned())
            .reduce(SExp::plus)
            .unwrap_or(SExp::i64(1));
        bin(
            ir::BinOp::Div,
            w.clone(),
            bin(ir::BinOp::Max, bins, SExp::i64(1)),
        )
    }

    /// A histogram of single values (one destination per operator) as one
    /// parallel loop over its `w` iterations, each combining its values
    /// into the destinations `dests` by atomic updates
    /// ([`Stm::AtomicUpdate`]; out-of-bounds buckets are ignored).
    fn atomic_hist(
        &mut self,
        w: SExp,
        h: &'p Hist,
        inputs: &[Val<'p>],
        dests: &[Vec<View>],
    ) -> R<()> {
        self.par_label = "seghist-atomic";
        self.loop_nest(vec![w], true, |l, i| {
            let args = l.row_args(&h.map, inputs, &[], &i[0])?;
            let res = l.apply(&h.map, args, &[])?;
            let mut off = 0;
            for (op, ds) in h.hists.iter().zip(dests) {
                let (Some(Val::Scalar(ix)), Some(Val::Scalar(v)), [d]) =
                    (res.get(off), res.get(off + 1), ds.as_slice())
                else {
                    return l.fail("a hist lambda with the wrong results");
                };
                off += 2;
                let ix = SExp::Var(l.assign_fresh("bucket", PrimType::I64, ix.clone()));
                let value = SExp::Var(l.assign_fresh("value", d.elem, v.clone()));
                let cond = Self::in_bounds(d, std::slice::from_ref(&ix));
                let update = l.nested(|l| l.atomic_combine(&op.op, d, vec![ix], value))?;
                l.push_when(cond, update);
            }
            Ok(())
        })
    }

    /// A segmented histogram as parallel regions with per-chunk histograms:
    /// the iterations split into at most [`CHUNKS`] chunks (and at most one
    /// per `bins` iterations, `bins` the buckets of all destinations), each updating
    /// its own copy of the histograms (initialised to the neutral
    /// elements), then a parallel loop over the buckets combines the
    /// chunks' copies into the destinations in chunk order.
    fn chunked_hist(
        &mut self,
        w: SExp,
        h: &'p Hist,
        inputs: &[Val<'p>],
        dests: &[Vec<View>],
    ) -> R<()> {
        use SExp as E;
        let cap = Self::hist_chunk_cap(&w, dests);
        let most = self.most_chunks(DEVICE_HIST_CHUNKS);
        let (k, chunk) = self.chunking_capped(&w, Some(cap), most);
        // Per destination: a [chunks][bins] block of per-chunk histograms.
        let mut parts: Vec<Vec<View>> = Vec::new();
        for ds in dests {
            let mut ps = Vec::new();
            for d in ds {
                ps.push(self.alloc("sub_hist", d.elem, vec![k.clone(), d.shape[0].clone()]));
            }
            parts.push(ps);
        }
        self.par_label = "seghist";
        self.chunk_loop_next = true;
        self.loop_nest(vec![k.clone()], true, |l, c| {
            let c = &c[0];
            let mine: Vec<Vec<View>> = parts
                .iter()
                .map(|ps| ps.iter().map(|p| p.at(std::slice::from_ref(c))).collect())
                .collect();
            for (op, ps) in h.hists.iter().zip(&mine) {
                for (p, ne) in ps.iter().zip(&op.neutral) {
                    let ne = l.scalar(ne)?;
                    let bins = p.shape[0].clone();
                    let p = p.clone();
                    l.seq_loop(bins, |l, b| {
                        l.push(Stm::Write {
                            view: p,
                            idx: vec![b.clone()],
                            value: ne,
                        });
                        Ok(())
                    })?;
                }
            }
            let start = l.assign_fresh("start", PrimType::I64, E::times(c.clone(), chunk.clone()));
            let rest = E::minus(w.clone(), E::Var(start));
            let len = bin(
                ir::BinOp::Max,
                bin(ir::BinOp::Min, chunk.clone(), rest),
                E::i64(0),
            );
            l.seq_loop(len, |l, j| {
                let i = l.assign_fresh("i", PrimType::I64, E::plus(E::Var(start), j.clone()));
                let args = l.row_args(&h.map, inputs, &[], &E::Var(i))?;
                let res = l.apply(&h.map, args, &[])?;
                l.hist_updates(h, &res, &mine)
            })
        })?;
        self.set_chunk_cost();
        for ((op, ds), ps) in h.hists.iter().zip(dests).zip(&parts) {
            let Some(first) = ds.first() else { continue };
            let bins = first.shape[0].clone();
            let (ds, ps) = (ds.clone(), ps.clone());
            let k = k.clone();
            self.par_label = "seghist-combine";
            self.loop_nest(vec![bins], true, |l, b| {
                let b = b[0].clone();
                let state: Vec<State> = ds
                    .iter()
                    .map(|d| {
                        let x = l.new_var("bucket", d.elem);
                        l.push(Stm::Read {
                            var: x,
                            view: d.clone(),
                            idx: vec![b.clone()],
                        });
                        State::Scalar(x)
                    })
                    .collect();
                l.seq_loop(k, |l, c| {
                    let vals: Vec<Val<'p>> = ps
                        .iter()
                        .map(|p| {
                            let x = l.new_var("part", p.elem);
                            l.push(Stm::Read {
                                var: x,
                                view: p.clone(),
                                idx: vec![c.clone(), b.clone()],
                            });
                            Val::Scalar(E::Var(x))
                        })
                        .collect();
                    l.combine(&op.op, &state, &vals)
                })?;
                l.write_scalars(&ds, &state, &b);
                Ok(())
            })?;
        }
        Ok(())
    }

    pub(crate) fn scatter(&mut self, stm: &'p ir::Stm, s: &'p Scatter) -> R<Vec<Val<'p>>> {
        let w = self.scalar(&s.w)?;
        let inputs = self.inputs(&s.inputs)?;
        let dests = s
            .dests
            .iter()
            .map(|d| self.array(d.arr))
            .collect::<R<Vec<_>>>()?;
        let plan = (!self.parallel)
            .then(|| flatten::plan(self.f, stm))
            .flatten();
        let dests_ref = &dests;
        let inputs = &inputs;
        // The sequential loop, writing as it goes.
        let sequential = |l: &mut Self, planned: Option<&'static str>| {
            l.planned(planned, |l| {
                l.seq_loop(w.clone(), |l, i| {
                    let args = l.row_args(&s.map, inputs, &[], i)?;
                    let res = l.apply(&s.map, args, &[])?;
                    let mut off = 0;
                    for (d, view) in s.dests.iter().zip(dests_ref) {
                        let mut idx = Vec::new();
                        for j in 0..d.rank {
                            let Some(Val::Scalar(e)) = res.get(off + j) else {
                                return l.fail("a scatter lambda with the wrong results");
                            };
                            let x = l.assign_fresh("ix", PrimType::I64, e.clone());
                            idx.push(SExp::Var(x));
                        }
                        let Some(v) = res.get(off + d.rank).cloned() else {
                            return l.fail("a scatter lambda with the wrong results");
                        };
                        off += d.rank + 1;
                        let cond = Self::in_bounds(view, &idx);
                        let target = view.at(&idx);
                        let then_block = l.nested(|l| {
                            match v {
                                Val::Scalar(e) if target.rank() == 0 => l.push(Stm::Write {
                                    view: view.clone(),
                                    idx: idx.clone(),
                                    value: e,
                                }),
                                Val::Array(a) => l.copy(&target, &a),
                                _ => return l.fail("a scattered value that does not fit"),
                            }
                            Ok(())
                        })?;
                        l.push_when(cond, then_block);
                    }
                    Ok(())
                })
            })
        };
        if matches!(plan, Some(flatten::Plan::Scatter)) && Self::par_scatter_fits(s, &dests) {
            let row_args = |l: &mut Self, i: &SExp| l.row_args(&s.map, inputs, &[], i);
            self.par_scatter(s, w.clone(), &dests, row_args, Self::in_bounds)?;
        } else {
            sequential(self, plan.is_some().then_some("scatter"))?;
        }
        Ok(dests.into_iter().map(Val::Array).collect())
    }

    pub(crate) fn with_acc(&mut self, w: &'p WithAcc) -> R<Vec<Val<'p>>> {
        let mut accs = Vec::new();
        for inp in &w.inputs {
            let v = self.array(inp.arr)?;
            accs.push(Val::Acc(v, inp.op.as_ref().map(|(l, _)| l)));
        }
        let k = accs.len();
        let out = self.apply(&w.lambda, accs, &[])?;
        let mut res = Vec::new();
        for (j, x) in out.into_iter().enumerate() {
            res.push(match x {
                Val::Acc(v, _) if j < k => Val::Array(v),
                Val::Acc(..) => return self.fail("a `with_acc` returning an extra accumulator"),
                other => other,
            });
        }
        Ok(res)
    }

    pub(crate) fn update_acc(
        &mut self,
        acc: ir::VarId,
        idx: &[Operand],
        value: &Operand,
    ) -> R<Vec<Val<'p>>> {
        let a = self.lookup(acc)?;
        let Val::Acc(view, op) = &a else {
            return self.fail("`update_acc` of something that is not an accumulator");
        };
        let idx = idx.iter().map(|i| self.scalar(i)).collect::<R<Vec<_>>>()?;
        let value = self.operand(value)?;
        let cond = Self::in_bounds(view, &idx);
        let target = view.at(&idx);
        let then_block = self.nested(|l| {
            match (&value, op) {
                (Val::Scalar(e), None) if target.rank() == 0 => l.push(Stm::Write {
                    view: target.clone(),
                    idx: Vec::new(),
                    value: e.clone(),
                }),
                (Val::Array(src), None) => l.copy(&target, src),
                (Val::Scalar(e), Some(op)) if target.rank() == 0 && l.is_atomic_acc(view.mem) => {
                    l.atomic_combine(op, &target, Vec::new(), e.clone())?;
                }
                (Val::Scalar(e), Some(op)) if target.rank() == 0 => {
                    let old = l.new_var("old", target.elem);
                    l.push(Stm::Read {
                        var: old,
                        view: target.clone(),
                        idx: Vec::new(),
                    });
                    l.combine(op, &[State::Scalar(old)], &[Val::Scalar(e.clone())])?;
                    l.push(Stm::Write {
                        view: target.clone(),
                        idx: Vec::new(),
                        value: SExp::Var(old),
                    });
                }
                (Val::Array(src), Some(op)) => {
                    let sizes = target.shape.clone();
                    let (t, s) = (target.clone(), src.clone());
                    let atomic = l.is_atomic_acc(view.mem);
                    l.loop_nest(sizes, false, |l, j| {
                        if atomic {
                            let new = l.new_var("new", s.elem);
                            l.push(Stm::Read {
                                var: new,
                                view: s.clone(),
                                idx: j.to_vec(),
                            });
                            return l.atomic_combine(op, &t, j.to_vec(), SExp::Var(new));
                        }
                        let old = l.new_var("old", t.elem);
                        l.push(Stm::Read {
                            var: old,
                            view: t.clone(),
                            idx: j.to_vec(),
                        });
                        let new = l.new_var("new", s.elem);
                        l.push(Stm::Read {
                            var: new,
                            view: s.clone(),
                            idx: j.to_vec(),
                        });
                        l.combine(op, &[State::Scalar(old)], &[Val::Scalar(SExp::Var(new))])?;
                        l.push(Stm::Write {
                            view: t.clone(),
                            idx: j.to_vec(),
                            value: SExp::Var(old),
                        });
                        Ok(())
                    })?;
                }
                _ => return l.fail("an accumulator update whose value does not fit"),
            }
            Ok(())
        })?;
        self.push_when(cond, then_block);
        Ok(vec![a])
    }
}

/// A reduction operator on arrays that is a map of a scalar operator
/// over them (`map2 (+)`, or maps of maps of it for arrays of higher
/// rank): the scalar operator, per input of its map the position of the
/// operator's parameter it reads (the running values first, then the new
/// ones), and the parameters of every level (which the scalar operator
/// must not read but through its inputs).
struct Elementwise<'p> {
    map: &'p Lambda,
    inputs: Vec<usize>,
    params: Vec<ir::VarId>,
}

/// `op` as an [`Elementwise`] operator over the running arrays `state`
/// (all of one rank), when it is one: at each level a body of one map
/// over the level's parameters, whose results are the level's, in order;
/// scalars innermost.
fn elementwise<'p>(op: &'p Lambda, state: &[State]) -> Option<Elementwise<'p>> {
    let mut ranks = state.iter().map(|st| match st {
        State::Array(v) => v.rank(),
        State::Scalar(_) => 0,
    });
    let rank = ranks.next()?;
    if rank == 0 || ranks.any(|r| r != rank) || op.params.len() != 2 * state.len() {
        return None;
    }
    let mut lam = op;
    let mut pos: Vec<usize> = (0..op.params.len()).collect();
    let mut params = Vec::new();
    for _ in 0..rank {
        params.extend(lam.params.iter().map(|p| p.var));
        let [stm] = lam.body.stms.as_slice() else {
            return None;
        };
        let ir::Exp::Screma(sc) = &stm.exp else {
            return None;
        };
        let results_match = lam.body.result.len() == stm.pat.len()
            && lam
                .body
                .result
                .iter()
                .zip(&stm.pat)
                .all(|(r, v)| *r == Operand::Var(*v));
        if !sc.scans.is_empty()
            || !sc.reduces.is_empty()
            || !results_match
            || stm.pat.len() != state.len()
        {
            return None;
        }
        pos = sc
            .inputs
            .iter()
            .map(|v| {
                let p = lam.params.iter().position(|q| q.var == *v)?;
                pos.get(p).copied()
            })
            .collect::<Option<Vec<usize>>>()?;
        lam = &sc.map;
    }
    lam.ret
        .iter()
        .all(|t| t.is_scalar())
        .then_some(Elementwise {
            map: lam,
            inputs: pos,
            params,
        })
}

#[cfg(test)]
mod tests {
    //! The SOACs of a map with parallelism inside are parallel loops nested
    //! in the map's parallel loop, with the results of sequential ones.

    use values::Value;

    use crate::interp::{Chunking, run_function, run_function_chunked};
    use crate::lower_text;
    use crate::print::print_program;

    /// Per row of `xss`, the sum of its squares and its elements times 3
    /// (two SOACs: a map with parallelism inside); `attr` marks both inner
    /// SOACs.
    fn program(attr: &str) -> String {
        format!(
            r"fun main(n: i64, m: i64, xss: [n][m]i64) -> ([n]i64, [n][m]i64) {{
  let (ss: [n]i64, yss: [n][m]i64) = screma(n, xss)
    map(\(r: [m]i64) -> (i64, [m]i64) {{
      {attr}
      let s: i64 = screma(m, r)
        reduce(\(a: i64, b: i64) -> (i64) {{
          let c: i64 = add(a, b)
          in (c)
        }}, 0i64)
        map(\(x: i64) -> (i64) {{
          let q: i64 = mul(x, x)
          in (q)
        }})
      {attr}
      let ys: [m]i64 = screma(m, r)
        map(\(z: i64) -> (i64) {{
          let y: i64 = mul(z, 3i64)
          in (y)
        }})
      in (s, ys)
    }})
  in (ss, yss)
}}
"
        )
    }

    #[test]
    fn inner_soacs_are_parallel_loops_nested_in_the_map() {
        // A map with two SOACs inside: its map is a parallel loop nested in
        // the outer one, its reduction a sequential loop.
        let par = lower_text(&program(""));
        let text = print_program(&par);
        assert_eq!(text.matches("par (").count(), 2, "{text}");
        assert!(text.contains("\n    par ("), "{text}");
        assert!(!text.contains("chunks("), "{text}");
        // A perfect nest (the reduction alone): the reduction is split only
        // when the runtime gives it more than one chunk, otherwise it is a
        // sequential loop.
        let nest = |attr: &str| {
            let p = program(attr);
            // From the attribute line before `let ys`.
            let ys = p.find("      let ys").unwrap();
            let start = p[..ys - 1].rfind('\n').unwrap() + 1;
            let end = p.find("      in (s, ys)").unwrap();
            p[..start].to_string() + &p[end..]
        };
        let nest = |attr: &str| {
            nest(attr)
                .replace("in (s, ys)", "in (s)")
                .replace("-> (i64, [m]i64) {", "-> (i64) {")
                .replace("(ss: [n]i64, yss: [n][m]i64)", "(ss: [n]i64)")
                .replace("in (ss, yss)", "in (ss)")
                .replace("-> ([n]i64, [n][m]i64)", "-> ([n]i64)")
        };
        let par = lower_text(&nest(""));
        let seq = lower_text(&nest("#[sequential]"));
        let (par_text, seq_text) = (print_program(&par), print_program(&seq));
        assert_eq!(par_text.matches("par chunks (").count(), 1, "{par_text}");
        assert!(par_text.contains("if (le(chunks(m, cost "), "{par_text}");
        assert_eq!(seq_text.matches("par (").count(), 1, "{seq_text}");
        for (n, m) in [(1i64, 300i64), (3, 70), (40, 5), (2, 0), (0, 4)] {
            let xs: Vec<i64> = (0..n * m).map(|k| k % 17 - 8).collect();
            let arg = || {
                vec![
                    Value::scalar(n),
                    Value::scalar(m),
                    Value::array(vec![n as usize, m as usize], xs.clone()).unwrap(),
                ]
            };
            let a = run_function(&par, "main", arg()).unwrap_or_else(|e| panic!("{e}"));
            let b = run_function(&seq, "main", arg()).unwrap_or_else(|e| panic!("{e}"));
            assert_eq!(a.values, b.values, "n = {n}, m = {m}");
            let one = run_function_chunked(&par, "main", arg(), Chunking::One)
                .unwrap_or_else(|e| panic!("{e}"));
            assert_eq!(one.values, b.values, "one chunk: n = {n}, m = {m}");
            // Split, each row's reduction allocates its partial results.
            if n > 0 && m > 1 {
                assert!(a.counters.allocs > one.counters.allocs, "n = {n}, m = {m}");
            }
            let sums: Vec<i64> = xs
                .chunks(m.max(1) as usize)
                .take(n as usize)
                .map(|r| r.iter().map(|x| x * x).sum())
                .collect();
            let sums = if m == 0 { vec![0; n as usize] } else { sums };
            assert_eq!(a.values[0], Value::vector(sums), "n = {n}, m = {m}");
        }
    }

    #[test]
    fn inner_soacs_of_small_constant_size_stay_sequential() {
        // Rows of 3: too little work for the runtime ever to split, so the
        // nested map and reduction are plain sequential loops.
        let small = program("")
            .replace("m: i64, ", "")
            .replace("[m]", "[3]")
            .replace("screma(m, r)", "screma(3i64, r)");
        let p = lower_text(&small);
        let text = print_program(&p);
        assert_eq!(text.matches("par (").count(), 1, "{text}");
        assert!(!text.contains("chunks("), "{text}");
        let xs: Vec<i64> = (0..12).map(|k| k % 5 - 2).collect();
        let args = vec![
            Value::scalar(4i64),
            Value::array(vec![4, 3], xs.clone()).unwrap(),
        ];
        let out = run_function(&p, "main", args).unwrap_or_else(|e| panic!("{e}"));
        let sums: Vec<i64> = xs
            .chunks(3)
            .map(|r| r.iter().map(|x| x * x).sum())
            .collect();
        assert_eq!(out.values[0], Value::vector(sums));
    }
}
