//! Which local functions capture IR variables, and lifting those that do
//! out of their environment.
//!
//! A lambda or local function whose text names no local binding that holds
//! IR variables refers only to module-level definitions and its own
//! parameters: it is static (like a module-level function), so a function
//! given it as an argument can still be specialised into an IR function of
//! its own. Recursive higher-order functions need this: inlining them
//! would not terminate. A closure that does capture IR variables is lifted
//! ([`Cx::lift`]) when passed to a recursive function: the specialisation
//! takes the captured values as parameters and rebuilds the closure (a
//! captured local function is lifted in turn). The test is on the source
//! text, so it errs on the side of capturing (a name that is shadowed, or
//! appears in a comment, counts as captured).

use std::rc::Rc;

use syntax::ast::Name;

use crate::cx::{Cx, KeptAlive};
use crate::env::Env;
use crate::value::{Closure, FunDef, V};

/// Can `c` be part of an identifier?
fn word(c: char) -> bool {
    c.is_alphanumeric() || c == '_' || c == '\''
}

/// Does `text` contain `name` as a whole word (or, for an operator name,
/// at all)?
fn mentions(text: &str, name: &str) -> bool {
    if !name.chars().all(word) {
        return text.contains(name);
    }
    text.match_indices(name).any(|(i, _)| {
        let before = text[..i].chars().next_back();
        let after = text[i + name.len()..].chars().next();
        !before.is_some_and(word) && !after.is_some_and(word)
    })
}

impl Cx {
    /// May the function whose source text is at `span`, defined in `env`,
    /// refer to an IR variable?
    pub(crate) fn captures(&self, env: &Env, span: syntax::Span) -> bool {
        match self.captured(env, span) {
            Some(c) => !c.is_empty(),
            None => true,
        }
    }

    /// The local bindings holding IR variables that the function whose
    /// source text is at `span`, defined in `env`, names (innermost binding
    /// of each name, sorted by name); `None` when its text is not known.
    pub(crate) fn captured(&self, env: &Env, span: syntax::Span) -> Option<Vec<(Name, V)>> {
        let text = self
            .sources
            .get(&span.file)
            .and_then(|s| s.get(span.start as usize..span.end as usize))?;
        let mut out: Vec<(Name, V)> = Vec::new();
        for (name, v) in env.vals() {
            if out.iter().any(|(n, _)| n == name) {
                continue;
            }
            if v.has_ir_var() && mentions(text, name) {
                out.push((name.clone(), v.clone()));
            }
        }
        // By name, so that a closure rebuilt in a specialisation (its
        // captured names bound anew, in another order) has the same key.
        out.sort_by(|a, b| a.0.cmp(&b.0));
        Some(out)
    }

    /// The names the size arguments the checker inferred inside a function
    /// definition refer to (`split zs` in a lambda may stand for `split`
    /// at sizes `n` and `m` of the enclosing function, names its text does
    /// not show).
    fn size_arg_names(&self, def: &FunDef) -> Vec<Name> {
        struct Ids(Vec<syntax::ast::NodeId>);
        impl syntax::visit::VisitorMut for Ids {
            fn visit_expr(&mut self, e: &mut syntax::ast::Expr) {
                self.0.push(e.id);
                syntax::visit::walk_expr(self, e);
            }
        }
        fn names(e: &syntax::ast::Expr, out: &mut Vec<Name>) {
            use syntax::ast::ExprKind as K;
            match &e.kind {
                K::Var(q) if q.quals.is_empty() => out.push(q.name.name.clone()),
                K::BinOp(_, a, b) => {
                    names(a, out);
                    names(b, out);
                }
                K::Parens(x) => names(x, out),
                _ => {}
            }
        }
        let mut ids = Ids(Vec::new());
        let mut body = def.body.clone();
        syntax::visit::walk_expr(&mut ids, &mut body);
        ids.0.push(def.body.id);
        let file = def.body.span.file;
        let mut out = Vec::new();
        for id in ids.0 {
            if let Some(args) = self.size_args.get(&(file, id)) {
                for (_, e) in args.iter() {
                    names(e, &mut out);
                }
            }
        }
        out
    }

    /// A closure that captures IR variables, taken apart so that a
    /// specialised recursive function can receive it: a local function or
    /// lambda (its captured bindings), an operator section `(op y)` or a
    /// partial application of a static function (their operands). `None`
    /// for any other value, or when a captured value holds a function that
    /// cannot be lifted.
    pub(crate) fn lift(&self, v: &V) -> Option<Lifted> {
        let V::Fun(c) = v else { return None };
        let lifted = match &**c {
            Closure::Def {
                def,
                env,
                top: false,
                ..
            } => {
                let start = def
                    .params
                    .first()
                    .map_or(def.body.span.start, |p| p.span.start);
                let span = syntax::Span {
                    start,
                    ..def.body.span
                };
                let mut found = self.captured(env, span)?;
                for n in self.size_arg_names(def) {
                    if found.iter().any(|(m, _)| *m == n) {
                        continue;
                    }
                    if let Some(v) = env.val(&n).filter(V::has_ir_var) {
                        found.push((n, v));
                    }
                }
                if found.is_empty() {
                    return None;
                }
                found.sort_by(|a, b| a.0.cmp(&b.0));
                let mut captured = Vec::new();
                for (n, v) in found {
                    let part = match &v {
                        V::Fun(_) => Part::Closure(Box::new(self.lift(&v)?)),
                        v if v.has_fun() => return None,
                        v => Part::Value(v.clone()),
                    };
                    captured.push((n, part));
                }
                return Some(Lifted::Def {
                    def: def.clone(),
                    env: env.clone(),
                    captured,
                });
            }
            Closure::Flip { f: V::Fun(f), y } if !f.has_ir_var() => Lifted::Flip {
                f: f.clone(),
                y: y.clone(),
            },
            Closure::Partial { f, args, sizes } if !f.has_ir_var() => Lifted::Partial {
                f: f.clone(),
                args: args.clone(),
                sizes: sizes.clone(),
            },
            _ => return None,
        };
        let V::Tuple(vs) = lifted.values() else {
            return None;
        };
        if vs.iter().any(V::has_fun) {
            return None;
        }
        Some(lifted)
    }
}

/// A closure taken apart by [`Cx::lift`]: what it captures travels as one
/// parameter (a tuple), and the closure is rebuilt around the parameter.
pub(crate) enum Lifted {
    /// A local function or lambda and the bindings it captures.
    Def {
        def: Rc<FunDef>,
        env: Env,
        captured: Vec<(Name, Part)>,
    },
    /// `(op y)`.
    Flip { f: Rc<Closure>, y: V },
    /// A static function applied to some arguments.
    Partial {
        f: Rc<Closure>,
        args: Vec<V>,
        sizes: Vec<(Name, V)>,
    },
}

/// One binding a lifted local function captures.
pub(crate) enum Part {
    /// A value without functions.
    Value(V),
    /// A local function or lambda, itself lifted.
    Closure(Box<Lifted>),
}

impl Lifted {
    /// The key of the closure's code and the names it captures (the shapes
    /// of the captured values are keyed as parameters).
    pub fn key(&self) -> String {
        match self {
            Lifted::Def { def, captured, .. } => {
                let names: Vec<String> = captured
                    .iter()
                    .map(|(n, p)| match p {
                        Part::Value(_) => n.to_string(),
                        Part::Closure(l) => format!("{n}={}", l.key()),
                    })
                    .collect();
                format!("lam{:p}[{}]", Rc::as_ptr(def), names.join(","))
            }
            Lifted::Flip { f, .. } => format!("flip{:p}", Rc::as_ptr(f)),
            Lifted::Partial { f, args, sizes } => {
                let names: Vec<&str> = sizes.iter().map(|(n, _)| &**n).collect();
                format!(
                    "part{:p}/{}[{}]",
                    Rc::as_ptr(f),
                    args.len(),
                    names.join(",")
                )
            }
        }
    }

    /// The definitions whose addresses the key holds.
    pub fn kept_alive(&self, out: &mut Vec<KeptAlive>) {
        match self {
            Lifted::Def { def, captured, .. } => {
                out.push(KeptAlive::Def(def.clone()));
                for (_, p) in captured {
                    if let Part::Closure(l) = p {
                        l.kept_alive(out);
                    }
                }
            }
            Lifted::Flip { f, .. } | Lifted::Partial { f, .. } => {
                out.push(KeptAlive::Specialisation(f.clone(), Vec::new()))
            }
        }
    }

    /// The captured values, as one parameter.
    pub fn values(&self) -> V {
        V::Tuple(match self {
            Lifted::Def { captured, .. } => captured
                .iter()
                .map(|(_, p)| match p {
                    Part::Value(v) => v.clone(),
                    Part::Closure(l) => l.values(),
                })
                .collect(),
            Lifted::Flip { y, .. } => vec![y.clone()],
            Lifted::Partial { args, sizes, .. } => args
                .iter()
                .cloned()
                .chain(sizes.iter().map(|(_, v)| v.clone()))
                .collect(),
        })
    }

    /// The closure again, what it captures replaced by `vals` (a tuple
    /// like [`Lifted::values`]).
    pub fn rebuild(&self, vals: V) -> V {
        let V::Tuple(mut vs) = vals else {
            return vals;
        };
        let c = match self {
            Lifted::Def { def, env, captured } => {
                let mut env = env.clone();
                for ((n, p), v) in captured.iter().zip(vs) {
                    let v = match p {
                        Part::Value(_) => v,
                        Part::Closure(l) => l.rebuild(v),
                    };
                    env = env.bind(n.clone(), v);
                }
                Closure::Def {
                    def: def.clone(),
                    env,
                    top: false,
                    captures: true,
                }
            }
            Lifted::Flip { f, .. } => Closure::Flip {
                f: V::Fun(f.clone()),
                y: vs.pop().unwrap_or_else(V::unit),
            },
            Lifted::Partial { f, args, sizes } => {
                let rest = vs.split_off(args.len().min(vs.len()));
                Closure::Partial {
                    f: f.clone(),
                    args: vs,
                    sizes: sizes.iter().map(|(n, _)| n.clone()).zip(rest).collect(),
                }
            }
        };
        V::Fun(Rc::new(c))
    }
}

#[cfg(test)]
mod tests {
    use super::mentions;

    #[test]
    fn whole_words_only() {
        assert!(mentions("\\x -> x + k", "k"));
        assert!(!mentions("\\x -> x + kk", "k"));
        assert!(!mentions("\\x' -> x' + 1", "x"));
        assert!(mentions("a +++ b", "+++"));
        assert!(!mentions("a + b", "+++"));
    }
}
