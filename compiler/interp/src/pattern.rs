//! Pattern matching and binding.

use std::rc::Rc;

use syntax::ast::{Pat, PatKind};

use crate::env::Env;
use crate::error::{R, rt_err};
use crate::eval::{Interp, literal_value};
use crate::sizes::SizeCtx;
use crate::value::{Value, values_equal};

impl Interp {
    /// Binds an irrefutable pattern (a parameter or `let`), checking the sizes in
    /// its annotations.
    pub fn bind_pat(&mut self, p: &Pat, v: Value, env: Env, ctx: &mut SizeCtx) -> R<Env> {
        if let PatKind::Id(i) = &p.kind {
            return Ok(env.bind(i.name.clone(), v));
        }
        match self.match_pat(p, &v, env, ctx)? {
            Some(env) => Ok(env),
            None => Err(rt_err("The value does not match the pattern.", p.span)),
        }
    }

    /// Matches a pattern; `None` when it does not match.
    pub fn match_pat(&mut self, p: &Pat, v: &Value, env: Env, ctx: &mut SizeCtx) -> R<Option<Env>> {
        match &p.kind {
            PatKind::Id(i) => Ok(Some(env.bind(i.name.clone(), v.clone()))),
            PatKind::Wildcard => Ok(Some(env)),
            PatKind::Tuple(ps) => {
                let vs: Rc<[Value]> = match v {
                    Value::Tuple(vs) => vs.clone(),
                    Value::Record(fs) if ps.len() == fs.len() => {
                        fs.iter().map(|(_, x)| x.clone()).collect()
                    }
                    _ if ps.len() == 1 => crate::value::tup(vec![v.clone()]),
                    _ => return Ok(None),
                };
                if vs.len() != ps.len() {
                    return Ok(None);
                }
                let mut env = env;
                for (q, x) in ps.iter().zip(vs.iter()) {
                    match self.match_pat(q, x, env, ctx)? {
                        Some(e) => env = e,
                        None => return Ok(None),
                    }
                }
                Ok(Some(env))
            }
            PatKind::Record(fs) => {
                let mut env = env;
                for (n, q) in fs {
                    let Some(x) = v.field(&n.name) else {
                        return Ok(None);
                    };
                    match self.match_pat(q, &x, env, ctx)? {
                        Some(e) => env = e,
                        None => return Ok(None),
                    }
                }
                Ok(Some(env))
            }
            PatKind::Ascribed(q, t) => {
                self.check_type(t, v, &env, ctx)?;
                self.match_pat(q, v, env, ctx)
            }
            PatKind::Literal(l) => Ok(values_equal(&literal_value(l), v).then_some(env)),
            PatKind::Constructor(n, ps) => {
                let Value::Sum(s) = v else {
                    return Ok(None);
                };
                if s.0 != n.name || s.1.len() != ps.len() {
                    return Ok(None);
                }
                let mut env = env;
                for (q, x) in ps.iter().zip(s.1.iter()) {
                    match self.match_pat(q, x, env, ctx)? {
                        Some(e) => env = e,
                        None => return Ok(None),
                    }
                }
                Ok(Some(env))
            }
            PatKind::Attr(_, q) => self.match_pat(q, v, env, ctx),
        }
    }
}
