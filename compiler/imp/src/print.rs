//! The textual form of the imperative IR, for `fut dev --print=imp` and
//! snapshot tests.
//!
//! ```text
//! fun main(xs_mem: mem f64, xs_off: i64, xs_s0: i64, n: i64) -> (ys_mem) {
//!   ys_mem = alloc f64[n]
//!   par (i0 < n) {
//!     x = xs_mem[xs_off + i0 * xs_s0]
//!     ys_mem[i0] = mul(x, x)
//!   }
//! }
//! ```
//!
//! Scalar variables and blocks print as their names with a `#k` suffix
//! when the name repeats; element positions are flat (offset plus index
//! times stride); `copy dst <- src` shows both views as
//! `mem[offset; shape; strides]`.

use std::fmt::Write;

use super::syntax::*;

/// The text of a whole program.
pub fn print_program(p: &Program) -> String {
    let mut out = String::new();
    for f in &p.functions {
        out.push_str(&print_function(f));
    }
    out
}

/// The text of one function.
pub fn print_function(f: &Function) -> String {
    let pr = Printer { f };
    let mut out = String::new();
    let params: Vec<String> = f.params.iter().map(|s| pr.slot_decl(s)).collect();
    let results: Vec<String> = f.results.iter().map(|s| pr.slot(s)).collect();
    let _ = writeln!(
        out,
        "fun {}({}) -> ({}) {{",
        f.name,
        params.join(", "),
        results.join(", ")
    );
    pr.block(&f.body, 1, &mut out);
    out.push_str("}\n");
    out
}

struct Printer<'a> {
    f: &'a Function,
}

fn unique_name(name: &str, k: usize, clash: bool) -> String {
    if clash {
        format!("{name}#{k}")
    } else {
        name.to_string()
    }
}

impl Printer<'_> {
    fn var(&self, v: SVar) -> String {
        let k = v.0 as usize;
        let Some(info) = self.f.vars.get(k) else {
            return format!("v#{k}");
        };
        let clash = self
            .f
            .vars
            .iter()
            .enumerate()
            .any(|(j, o)| j != k && o.name == info.name);
        unique_name(&info.name, k, clash)
    }

    fn mem(&self, m: MemId) -> String {
        let k = m.0 as usize;
        let Some(info) = self.f.mems.get(k) else {
            return format!("mem#{k}");
        };
        let clash = self
            .f
            .mems
            .iter()
            .enumerate()
            .any(|(j, o)| j != k && o.name == info.name);
        unique_name(&info.name, k, clash)
    }

    fn slot(&self, s: &Slot) -> String {
        match s {
            Slot::Scalar(v) => self.var(*v),
            Slot::Mem(m) => self.mem(*m),
        }
    }

    fn slot_decl(&self, s: &Slot) -> String {
        match s {
            Slot::Scalar(v) => {
                let t = self.f.vars.get(v.0 as usize).map(|i| i.ty);
                format!(
                    "{}: {}",
                    self.var(*v),
                    t.map(|t| t.to_string()).unwrap_or_default()
                )
            }
            Slot::Mem(m) => {
                let t = self.f.mems.get(m.0 as usize).map(|i| i.elem);
                format!(
                    "{}: mem {}",
                    self.mem(*m),
                    t.map(|t| t.to_string()).unwrap_or_default()
                )
            }
        }
    }

    fn exp(&self, e: &SExp) -> String {
        match e {
            SExp::Var(v) => self.var(*v),
            SExp::Const(c) => c.to_string(),
            SExp::UnOp(op, x) => format!("{}({})", op.name(), self.exp(x)),
            SExp::BinOp(ir::BinOp::Add, a, b) => format!("({} + {})", self.exp(a), self.exp(b)),
            SExp::BinOp(ir::BinOp::Mul, a, b) => format!("{} * {}", self.atom(a), self.atom(b)),
            SExp::BinOp(op, a, b) => format!("{}({}, {})", op.name(), self.exp(a), self.exp(b)),
            SExp::Cmp(op, a, b) => format!("{}({}, {})", op.name(), self.exp(a), self.exp(b)),
            SExp::Convert(k, t, x) => format!("{}_{t}({})", k.name(), self.exp(x)),
            SExp::Math(m, args) => {
                let a: Vec<String> = args.iter().map(|x| self.exp(x)).collect();
                format!("{}({})", m.name(), a.join(", "))
            }
            SExp::Chunks { w, cost, most } => {
                format!("chunks({}, cost {cost}, at most {most})", self.exp(w))
            }
            SExp::Tuned { name, default } => format!("tuned({name}, {default})"),
        }
    }

    /// An operand of `*`: parenthesised unless a variable or constant.
    fn atom(&self, e: &SExp) -> String {
        match e {
            SExp::Var(_) | SExp::Const(_) => self.exp(e),
            SExp::BinOp(ir::BinOp::Add, ..) => self.exp(e),
            _ => format!("({})", self.exp(e)),
        }
    }

    fn position(&self, v: &View, idx: &[SExp]) -> String {
        let p = v.position(idx);
        let s = self.exp(&p);
        s.strip_prefix('(')
            .and_then(|x| x.strip_suffix(')'))
            .filter(|x| !x.contains(['(', ')']))
            .map(str::to_string)
            .unwrap_or(s)
    }

    fn view(&self, v: &View) -> String {
        let list = |xs: &[SExp]| {
            xs.iter()
                .map(|x| self.exp(x))
                .collect::<Vec<_>>()
                .join(", ")
        };
        format!(
            "{}[{}; [{}]; [{}]]",
            self.mem(v.mem),
            self.exp(&v.offset),
            list(&v.shape),
            list(&v.strides)
        )
    }

    fn block(&self, b: &Block, depth: usize, out: &mut String) {
        for s in &b.stms {
            self.stm(s, depth, out);
        }
    }

    fn stm(&self, s: &Stm, depth: usize, out: &mut String) {
        let pad = "  ".repeat(depth);
        let nested = |out: &mut String, b: &Block| {
            self.block(b, depth + 1, out);
        };
        match s {
            Stm::Assign { var, exp, .. } => {
                let _ = writeln!(out, "{pad}{} = {}", self.var(*var), self.exp(exp));
            }
            Stm::Alloc { mem, count } => {
                let t = self.f.mems.get(mem.0 as usize).map(|i| i.elem.to_string());
                let _ = writeln!(
                    out,
                    "{pad}{} = alloc {}[{}]",
                    self.mem(*mem),
                    t.unwrap_or_default(),
                    self.exp(count)
                );
            }
            Stm::Barrier => {
                let _ = writeln!(out, "{pad}barrier");
            }
            Stm::SwapMem(a, b) => {
                let _ = writeln!(out, "{pad}swap {} {}", self.mem(*a), self.mem(*b));
            }
            Stm::AliasMem { dst, src } => {
                let _ = writeln!(out, "{pad}{} = {}", self.mem(*dst), self.mem(*src));
            }
            Stm::Read { var, view, idx } => {
                let _ = writeln!(
                    out,
                    "{pad}{} = {}[{}]",
                    self.var(*var),
                    self.mem(view.mem),
                    self.position(view, idx)
                );
            }
            Stm::Write { view, idx, value } => {
                let _ = writeln!(
                    out,
                    "{pad}{}[{}] = {}",
                    self.mem(view.mem),
                    self.position(view, idx),
                    self.exp(value)
                );
            }
            Stm::Copy { dst, src, .. } => {
                let _ = writeln!(out, "{pad}copy {} <- {}", self.view(dst), self.view(src));
            }
            Stm::For { i, bound, body } => {
                let _ = writeln!(out, "{pad}for ({} < {}) {{", self.var(*i), self.exp(bound));
                nested(out, body);
                let _ = writeln!(out, "{pad}}}");
            }
            Stm::While { cond, body } => {
                let _ = writeln!(out, "{pad}while ({}) {{", self.exp(cond));
                nested(out, body);
                let _ = writeln!(out, "{pad}}}");
            }
            Stm::If {
                cond,
                then_block,
                else_block,
            } => {
                let _ = writeln!(out, "{pad}if ({}) {{", self.exp(cond));
                nested(out, then_block);
                if !else_block.stms.is_empty() {
                    let _ = writeln!(out, "{pad}}} else {{");
                    nested(out, else_block);
                }
                let _ = writeln!(out, "{pad}}}");
            }
            Stm::ParFor {
                kind,
                ids,
                sizes,
                body,
                chunk_prologue,
                ..
            } => {
                let space: Vec<String> = ids
                    .iter()
                    .zip(sizes)
                    .map(|(i, n)| format!("{} < {}", self.var(*i), self.exp(n)))
                    .collect();
                let shown = match kind {
                    ParKind::Map => String::new(),
                    ParKind::Chunks => "chunks ".to_string(),
                    ParKind::Kernel(k) => format!("kernel k{k} "),
                    ParKind::Groups { size, kernel } => {
                        let k = kernel.map(|k| format!("kernel k{k} ")).unwrap_or_default();
                        format!("{k}groups of {size} ")
                    }
                };
                let _ = writeln!(out, "{pad}par {shown}({}) {{", space.join(", "));
                let (prologue, rest) = body.stms.split_at((*chunk_prologue).min(body.stms.len()));
                if !prologue.is_empty() {
                    let what = if matches!(kind, ParKind::Groups { .. }) {
                        "local memory"
                    } else {
                        "per chunk"
                    };
                    let _ = writeln!(out, "{pad}  {what} {{");
                    for s in prologue {
                        self.stm(s, depth + 2, out);
                    }
                    let _ = writeln!(out, "{pad}  }}");
                }
                for s in rest {
                    self.stm(s, depth + 1, out);
                }
                let _ = writeln!(out, "{pad}}}");
            }
            Stm::Planned { seg_op, body } => {
                let _ = writeln!(out, "{pad}planned {seg_op} (sequential) {{");
                nested(out, body);
                let _ = writeln!(out, "{pad}}}");
            }
            Stm::AtomicUpdate {
                view,
                idx,
                old,
                body,
                new,
            } => {
                let _ = writeln!(
                    out,
                    "{pad}atomic {}[{}] ({}) {{",
                    self.mem(view.mem),
                    self.position(view, idx),
                    self.var(*old)
                );
                nested(out, body);
                let _ = writeln!(out, "{pad}}} = {}", self.exp(new));
            }
            Stm::Call {
                fun, args, results, ..
            } => {
                let a: Vec<String> = args
                    .iter()
                    .map(|a| match a {
                        Arg::Scalar(e) => self.exp(e),
                        Arg::Mem(m) => self.mem(*m),
                    })
                    .collect();
                let r: Vec<String> = results.iter().map(|s| self.slot(s)).collect();
                let _ = writeln!(
                    out,
                    "{pad}({}) = call f{}({})",
                    r.join(", "),
                    ir::ids::EntityId::index(*fun),
                    a.join(", ")
                );
            }
            Stm::Assert {
                cond, msg, args, ..
            } => {
                let a: Vec<String> = args.iter().map(|x| self.exp(x)).collect();
                let _ = writeln!(
                    out,
                    "{pad}assert {} {:?}{}{}",
                    self.exp(cond),
                    msg,
                    if a.is_empty() { "" } else { " " },
                    a.join(", ")
                );
            }
        }
    }
}
