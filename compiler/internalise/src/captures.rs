//! Which local functions capture IR variables.
//!
//! A lambda or local function whose text names no local binding that holds
//! IR variables refers only to module-level definitions and its own
//! parameters: it is static (like a module-level function), so a function
//! given it as an argument can still be specialised into an IR function of
//! its own. Recursive higher-order functions need this: inlining them
//! would not terminate. The test is on the source text, so it errs on the
//! side of capturing (a name that is shadowed, or appears in a comment,
//! counts as captured).

use crate::cx::Cx;
use crate::env::Env;

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
        let Some(text) = self
            .sources
            .get(&span.file)
            .and_then(|s| s.get(span.start as usize..span.end as usize))
        else {
            return true;
        };
        env.vals()
            .any(|(name, v)| v.has_ir_var() && mentions(text, name))
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
