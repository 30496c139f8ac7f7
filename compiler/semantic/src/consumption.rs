//! Uniqueness rules about where consumption may happen and what results may
//! alias, beyond the use-after-consumption checks of [`crate::expr`]:
//!
//! - a `let`-bound expression or an argument whose value holds a function may not
//!   consume anything bound outside it (U004): the function could be applied more
//!   than once (`let f = update xs`, `map (f a) b` with `f` consuming `a`);
//! - an argument passed for a consuming parameter may not alias itself (the
//!   components of a tuple), nor a value another argument of the same application
//!   passes (U005);
//! - the result of a function may not alias a top-level value (U006);
//! - a function that consumes its argument may not be passed for a parameter
//!   whose function type does not consume it (U007): `apply consume arr` with
//!   `apply (f: a -> b)`, `map2 get ts xs` with `get` consuming.

use crate::checker::{Al, Checker, Frame, GLOBAL, UNKNOWN_FUN};
use crate::decls::{holds_array, holds_function};
use crate::types::{Ty, Uid};
use syntax::Diagnostic;
use syntax::ast::Span;

/// Whether an alias identity stands for many values (top-level values, results of
/// unknown functions), which two arguments may share without sharing storage that
/// is consumed (such values are never consumable anyway).
fn shared(u: Uid) -> bool {
    u == GLOBAL || u == UNKNOWN_FUN
}

impl Checker<'_> {
    /// The bindings in scope now that were consumed since `consume_log` had
    /// length `start` (consumption of bindings local to a lambda or loop inside
    /// does not count).
    pub fn consumed_outer_since(&self, start: usize) -> Vec<Uid> {
        let mut out = Vec::new();
        for u in &self.consume_log[start.min(self.consume_log.len())..] {
            let in_scope = self
                .scope
                .iter()
                .any(|f| matches!(f, Frame::Local(_, l) if l.uid == *u));
            if in_scope && !out.contains(u) {
                out.push(*u);
            }
        }
        out
    }

    /// The identities among `uids` of locals in scope now, without repetition.
    pub fn in_scope_uids(&self, uids: Vec<Uid>) -> Vec<Uid> {
        let mut out = Vec::new();
        for u in uids {
            let in_scope = self
                .scope
                .iter()
                .any(|f| matches!(f, Frame::Local(_, l) if l.uid == u));
            if in_scope && !out.contains(&u) {
                out.push(u);
            }
        }
        out
    }

    /// The name of the local whose alias identity is `uid`.
    fn alias_name(&self, uid: Uid) -> Option<String> {
        self.scope.iter().rev().find_map(|f| match f {
            Frame::Local(n, l) if l.uid == uid => Some(n.to_string()),
            _ => None,
        })
    }

    /// U004: an expression (`what`: "A `let`-bound expression", "An argument")
    /// whose type `t` holds a function consumed bindings of the enclosing scope
    /// while it was checked (since `consume_log` had length `start`).
    pub fn check_fun_consumption(&mut self, t: &Ty, start: usize, span: Span, what: &str) {
        if self.consume_log.len() <= start {
            return;
        }
        let z = self.u.zonk(t);
        if !holds_function(&z) {
            return;
        }
        let gone = self.consumed_outer_since(start);
        let Some(first) = gone.first() else { return };
        let name = self
            .alias_name(*first)
            .unwrap_or_else(|| "a value".to_string());
        let at = self.consumed.get(first).copied().unwrap_or(span);
        let mut d = Diagnostic::error(
            "U004",
            format!(
                "{what} of functional type `{z}` contains consumption (of \"{name}\"), which \
                 is not allowed"
            ),
            span,
            "this function value consumes when it is made",
        );
        if at != span {
            d = d.with_secondary(at, format!("`{name}` is consumed here"));
        }
        self.report(d.with_hint(format!(
            "the function could be applied more than once, consuming `{name}` each time; \
             pass a copy (`copy {name}`) or apply the function fully"
        )));
    }

    /// U005: the argument at `span` (aliases `aal`) is passed for a parameter that
    /// consumes it; `others` are the aliases of the application's other arguments.
    pub fn check_consumed_arg(&mut self, aal: &Al, others: &[Al], span: Span) {
        if let Some(parts) = &aal.parts {
            let mut seen: Vec<Uid> = Vec::new();
            for p in parts {
                let all = p.all();
                if let Some(u) = all.iter().find(|u| !shared(**u) && seen.contains(u)) {
                    let name = self.alias_name(*u).unwrap_or_else(|| "a value".into());
                    self.report(
                        Diagnostic::error(
                            "U005",
                            format!(
                                "Argument passed for consuming parameter is self-aliased: two \
                                 of its components alias \"{name}\""
                            ),
                            span,
                            "its components share storage",
                        )
                        .with_hint("pass a copy of one of them (`copy ...`)"),
                    );
                    return;
                }
                seen.extend(all);
            }
        }
        let mine = aal.all();
        for o in others {
            if let Some(u) = o.all().iter().find(|u| !shared(**u) && mine.contains(u)) {
                let name = self.alias_name(*u).unwrap_or_else(|| "a value".into());
                self.report(
                    Diagnostic::error(
                        "U005",
                        format!(
                            "Argument is consumed, but aliases \"{name}\", which another \
                             argument of the same application also aliases"
                        ),
                        span,
                        "this argument is consumed",
                    )
                    .with_hint("pass a copy of one of them (`copy ...`)"),
                );
                return;
            }
        }
    }

    /// U006: the result (type `t`, aliases `al`) of a function with parameters
    /// aliases a top-level value.
    pub fn check_global_result(&mut self, t: &Ty, al: &Al, span: Span) {
        if holds_array(&self.u.zonk(t)) && al.all().contains(&GLOBAL) {
            self.report(
                Diagnostic::error(
                    "U006",
                    "Function result aliases a free variable defined at the top level",
                    span,
                    "this result may share storage with a top-level value",
                )
                .with_hint("return a copy instead: `copy (...)`"),
            );
        }
    }

    /// U007: the argument at `span` (type `arg`) is a function that consumes an
    /// argument where the parameter's function type `param` does not.
    pub fn check_consuming_fun_arg(&mut self, arg: &Ty, param: &Ty, span: Span) {
        let (mut a, mut p) = (self.u.zonk(arg), self.u.zonk(param));
        let mut i = 1;
        loop {
            let (Ty::Arrow(x), Ty::Arrow(y)) = (&a, &p) else {
                return;
            };
            let consumes =
                |r: &crate::types::Arrow| r.consume || r.consume_parts.iter().any(|c| *c);
            if consumes(x) && !consumes(y) {
                let shown = self.show(&a);
                self.report(
                    Diagnostic::error(
                        "U007",
                        format!(
                            "A function that consumes its {} argument (of type `{shown}`) is used \
                             where the function type `{}` does not consume it",
                            ordinal_word(i),
                            self.show(&p)
                        ),
                        span,
                        "this function consumes its argument",
                    )
                    .with_hint("pass a function that consumes a copy instead: `\\x -> f (copy x)`"),
                );
                return;
            }
            let (na, np) = (x.ret.clone(), y.ret.clone());
            a = na;
            p = np;
            i += 1;
        }
    }
}

/// "first", "second", ... for small numbers.
fn ordinal_word(i: usize) -> String {
    match i {
        1 => "first".into(),
        2 => "second".into(),
        3 => "third".into(),
        _ => format!("{i}th"),
    }
}
