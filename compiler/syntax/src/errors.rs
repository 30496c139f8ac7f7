//! Turning chumsky's errors into [`Diagnostic`]s, and attaching doc comments.

use crate::ast::*;
use crate::diag::Diagnostic;
use crate::lexer::{Kw, Token, closer_of};
use crate::parser::PErr;
use chumsky::error::{RichPattern, RichReason};
use std::collections::HashMap;

fn describe_pattern(p: &RichPattern<'_, Token>) -> Option<String> {
    Some(match p {
        RichPattern::Token(t) => match &**t {
            Token::Backtick => "backtick".into(),
            t => format!("`{t}`"),
        },
        RichPattern::Label(l) => l.to_string(),
        RichPattern::Identifier(s) => format!("`{s}`"),
        RichPattern::Any => return None,
        RichPattern::SomethingElse => return None,
        RichPattern::EndOfInput => "end of input".into(),
        _ => return None,
    })
}

fn is_closer(t: &Token) -> bool {
    matches!(t, Token::RParen | Token::RBracket | Token::RBrace)
}

/// Converts parser errors to diagnostics (code P001), one per distinct location.
pub(crate) fn convert(
    errs: &[PErr<'_>],
    tokens: &[(Token, Span)],
    src: &str,
    eoi: Span,
) -> Vec<Diagnostic> {
    let mut out: Vec<Diagnostic> = Vec::new();
    let mut seen = std::collections::HashSet::new();
    for e in errs {
        let span = *e.span();
        if !seen.insert((span.start, span.end)) {
            continue;
        }
        let found_text = match e.found() {
            Some(_) => {
                let r = span.range();
                match src.get(r) {
                    Some(s) if !s.is_empty() => {
                        let mut t: String = s.chars().take(40).collect();
                        if t.len() < s.len() {
                            t.push('…');
                        }
                        format!("`{t}`")
                    }
                    _ => "token".into(),
                }
            }
            None => "end of input".into(),
        };
        let mut expected: Vec<String> = Vec::new();
        let mut expects_in = false;
        let mut expects_closer: Option<Token> = None;
        let mut expects_equals = false;
        let mut after_expression = false;
        if let RichReason::ExpectedFound { expected: exp, .. } = e.reason() {
            for p in exp {
                if let RichPattern::Token(t) = p {
                    match &**t {
                        Token::Kw(Kw::In) => expects_in = true,
                        Token::Equals => expects_equals = true,
                        t if is_closer(t) && expects_closer.is_none() => {
                            expects_closer = Some(t.clone())
                        }
                        _ => {}
                    }
                }
                if let RichPattern::Label(l) = p
                    && l.as_ref() == "`in`"
                {
                    expects_in = true;
                }
                if let RichPattern::Label(l) = p
                    && l.as_ref() == "operator"
                {
                    after_expression = true;
                }
                if let Some(s) = describe_pattern(p)
                    && !expected.contains(&s)
                {
                    expected.push(s);
                }
            }
        }
        // After a complete expression every continuation (an operator, an argument,
        // `.field`, `[i]`, `: t`, a last lambda argument `\x -> e`, ...) is possible;
        // when a structural token (a keyword, a closing bracket, a separator) is also
        // expected, that is the useful part.
        const CONTINUATIONS: [&str; 16] = [
            "expression",
            "operator",
            "field name",
            "`.`",
            "`[`",
            "`:`",
            "`:>`",
            "`..`",
            "`...`",
            "`..<`",
            "`..>`",
            "backtick",
            "`with`",
            "literal",
            "name",
            "`\\`",
        ];
        // Prefix operators and literals start expressions.
        if expected.iter().any(|s| s == "expression") {
            expected.retain(|s| !matches!(s.as_str(), "`-`" | "`!`" | "`\\`" | "literal" | "name"));
        }
        if expected
            .iter()
            .any(|s| !CONTINUATIONS.contains(&s.as_str()))
        {
            expected.retain(|s| !CONTINUATIONS.contains(&s.as_str()));
        }
        expected.sort_by_key(|s| (s.starts_with('`'), s.clone()));
        let unclosed = match e.found() {
            Some(Token::Unclosed(t)) => Some(t.to_string()),
            _ => None,
        };
        let (message, label) = match e.reason() {
            _ if unclosed.is_some() => {
                let t = unclosed.clone().unwrap_or_default();
                (
                    format!("unclosed `{t}`"),
                    format!("this `{t}` is never closed"),
                )
            }
            RichReason::Custom(msg) => (msg.clone(), msg.clone()),
            RichReason::ExpectedFound { .. } => {
                let exp = list(&expected);
                if exp.is_empty() {
                    (
                        format!("unexpected {found_text}"),
                        "unexpected here".to_string(),
                    )
                } else {
                    (
                        format!("unexpected {found_text}, expected {exp}"),
                        format!("expected {exp}"),
                    )
                }
            }
        };
        // When the parser runs into the next declaration (or the end of the file) on a
        // later line, the problem is at the end of what came before: point there.
        let mut span = span;
        let at_boundary = match e.found() {
            None => true,
            Some(t) => crate::parser::DEC_SYNC.contains(t),
        };
        if at_boundary
            && let Some((_, prev)) = tokens.iter().rev().find(|(_, s)| s.end <= span.start)
            && src
                .get(prev.end as usize..span.start as usize)
                .is_some_and(|gap| gap.contains('\n'))
        {
            span = Span::new(prev.file, prev.end, prev.end);
        }
        let mut d = Diagnostic::error("P001", message, span, label);
        // Hints.
        let found = e.found();
        if expects_in {
            match found {
                Some(Token::Kw(
                    Kw::Def | Kw::Entry | Kw::Type | Kw::Module | Kw::Open | Kw::Import | Kw::Local,
                ))
                | None => d = d.with_hint("missing `in`? A `let` needs `in` before its body"),
                _ => d = d.with_hint("a `let` binding is followed by `in` and its body"),
            }
        }
        if let Some(Token::Equals) = found
            && !expects_equals
            && after_expression
        {
            d = d.with_hint("to compare two values use `==`; `=` only appears in bindings");
        }
        if let Some(closer) = &expects_closer {
            // The innermost delimiter still open at the error.
            let mut stack: Vec<usize> = Vec::new();
            for (i, (t, s)) in tokens.iter().enumerate() {
                if s.start >= span.start {
                    break;
                }
                if closer_of(t).is_some() {
                    stack.push(i);
                } else if is_closer(t) {
                    stack.pop();
                }
            }
            if let Some(&i) = stack.last() {
                let (t, s) = &tokens[i];
                if closer_of(t).as_ref() == Some(closer) {
                    let open = src.get(s.range()).unwrap_or("(");
                    d = d.with_secondary(*s, format!("to match this `{open}`"));
                }
            }
        }
        let _ = eoi;
        out.push(d);
    }
    out
}

fn list(items: &[String]) -> String {
    const MAX: usize = 8;
    let mut v: Vec<&str> = items.iter().map(|s| s.as_str()).collect();
    let more = v.len() > MAX;
    v.truncate(MAX);
    match v.len() {
        0 => String::new(),
        1 => v[0].to_string(),
        _ => {
            let last = v.pop().unwrap_or_default();
            let mut s = v.join(", ");
            if more {
                s.push_str(", ");
                s.push_str(last);
                s.push_str(", …");
            } else {
                s.push_str(" or ");
                s.push_str(last);
            }
            s
        }
    }
}

/// Attaches `-- |` doc comments to the declarations and specs they precede, and
/// the file's leading doc comment to the file (when the first declaration is
/// preceded by two doc blocks, the first documents the file).
pub(crate) fn attach_docs(file: &mut File, docs: &[(u32, String)]) {
    if docs.is_empty() {
        return;
    }
    let mut by_offset: HashMap<u32, Vec<&String>> = HashMap::new();
    for (off, d) in docs {
        by_offset.entry(*off).or_default().push(d);
    }
    match file.decs.first() {
        Some(d) => {
            // A first declaration that cannot carry a doc (an import or open) leaves
            // its doc comment to the file.
            let holds_doc = !matches!(d.kind, DecKind::Import(..) | DecKind::Open(_));
            if let Some(v) = by_offset.get_mut(&d.span.start)
                && (v.len() >= 2 || !holds_doc)
            {
                file.doc = Some(v.remove(0).clone());
                if v.is_empty() {
                    by_offset.remove(&d.span.start);
                }
            }
        }
        None => file.doc = docs.first().map(|(_, d)| d.clone()),
    }
    let map: HashMap<u32, String> = by_offset
        .into_iter()
        .filter_map(|(k, v)| v.last().map(|d| (k, (*d).clone())))
        .collect();
    for d in &mut file.decs {
        dec_docs(d, &map, None);
    }
}

fn dec_docs(d: &mut Dec, map: &HashMap<u32, String>, inherited: Option<&String>) {
    let doc = map.get(&d.span.start).or(inherited).cloned();
    match &mut d.kind {
        DecKind::Val(b) => b.doc = doc,
        DecKind::Type(b) => b.doc = doc,
        DecKind::Mod(b) => {
            b.doc = doc;
            for p in &mut b.params {
                sig_docs(&mut p.sig, map);
            }
            if let Some(s) = &mut b.sig {
                sig_docs(s, map);
            }
            mod_docs(&mut b.body, map);
        }
        DecKind::Sig(b) => {
            b.doc = doc;
            sig_docs(&mut b.sig, map);
        }
        DecKind::Open(m) => mod_docs(m, map),
        DecKind::Local(inner) => dec_docs(inner, map, doc.as_ref()),
        DecKind::Import(..) => {}
    }
}

fn mod_docs(m: &mut ModExp, map: &HashMap<u32, String>) {
    match &mut m.kind {
        ModExpKind::Var(_) | ModExpKind::Import(_) => {}
        ModExpKind::Parens(m) => mod_docs(m, map),
        ModExpKind::Struct(ds) => {
            for d in ds {
                dec_docs(d, map, None);
            }
        }
        ModExpKind::Ascribe(m, s) => {
            mod_docs(m, map);
            sig_docs(s, map);
        }
        ModExpKind::Apply(a, b) => {
            mod_docs(a, map);
            mod_docs(b, map);
        }
        ModExpKind::Lambda(p, s, b) => {
            sig_docs(&mut p.sig, map);
            if let Some(s) = s {
                sig_docs(s, map);
            }
            mod_docs(b, map);
        }
    }
}

fn sig_docs(s: &mut SigExp, map: &HashMap<u32, String>) {
    match &mut s.kind {
        SigExpKind::Var(_) => {}
        SigExpKind::Parens(s) => sig_docs(s, map),
        SigExpKind::Specs(ss) => {
            for sp in ss {
                sp.doc = map.get(&sp.span.start).cloned();
                match &mut sp.kind {
                    SpecKind::Mod { sig, .. } | SpecKind::Include(sig) => sig_docs(sig, map),
                    _ => {}
                }
            }
        }
        SigExpKind::With(s, ..) => sig_docs(s, map),
        SigExpKind::Arrow(_, a, b) => {
            sig_docs(a, map);
            sig_docs(b, map);
        }
    }
}
