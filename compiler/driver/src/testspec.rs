//! The `-- ==` test-block format: parsing a program's test blocks.
//!
//! A test block is a run of comment lines, each starting with `--` in the first
//! column, that contains a line consisting of `==` alone. The lines before `==` are a
//! free-text description; the lines after it hold the directives:
//!
//! ```text
//! tags { t1 t2 }                       -- first block only
//! entry: e1 e2                         -- the entry points the following cases run
//! ["name"] [tag...] input { values }   -- also `input @ file`, `random input { [10]f32 }`,
//!     output { values }                --   `compiled input`, `script input { ... }`
//!   | output @ file | auto output | error: REGEX | (nothing: must only succeed)
//! error: REGEX                         -- instead of cases: the program must be rejected
//! structure [pipeline] { metric n ... }   warning: REGEX   property: names
//! ```
//!
//! Parsing never panics; malformed blocks give a [`SpecError`] with the line number.

use std::fmt;

use regex::Regex;

/// The test specification of one program: all its test blocks merged.
#[derive(Clone, Debug, Default)]
pub struct TestSpec {
    /// The first block's description.
    pub description: String,
    /// Tags of the program (from `tags { ... }` in the first block).
    pub tags: Vec<String>,
    /// What to do.
    pub action: TestAction,
}

/// How to test a program.
#[derive(Clone, Debug)]
pub enum TestAction {
    /// The program must be rejected at compile time with a matching error.
    CompileError(ExpectedError),
    /// Run the cases.
    Run {
        /// Groups of cases, each for the entry points named before it.
        groups: Vec<CaseGroup>,
        /// Warnings the compiler must produce (`warning: REGEX`).
        warnings: Vec<ExpectedError>,
        /// The `structure` blocks (checked on `--backend=ir`).
        structures: Vec<StructureBlock>,
        /// Names from `property:` directives (accepted, not yet run).
        properties: Vec<String>,
    },
}

impl Default for TestAction {
    fn default() -> Self {
        TestAction::Run {
            groups: Vec::new(),
            warnings: Vec::new(),
            structures: Vec::new(),
            properties: Vec::new(),
        }
    }
}

/// A `structure [pipeline] { Name n ... }` block: how many times each IR
/// construct occurs after a pipeline.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct StructureBlock {
    /// The pipeline named before the braces, if any.
    pub pipeline: Option<String>,
    /// Each construct name and its expected count, in the block's order.
    pub counts: Vec<(String, usize)>,
    /// The line (1-based) of the opening brace.
    pub line: usize,
}

/// Cases that run on the same entry points.
#[derive(Clone, Debug)]
pub struct CaseGroup {
    /// The entry points (`main` when the block names none).
    pub entries: Vec<String>,
    /// The cases.
    pub cases: Vec<TestCase>,
}

/// One input and what is expected of running the entry on it.
#[derive(Clone, Debug)]
pub struct TestCase {
    /// Position of the case among all cases of the program, from 0.
    pub index: usize,
    /// The name given in quotes before the case, if any.
    pub name: Option<String>,
    /// Words before `input`: `compiled`, `nobench`, `random`, `script`, or any other.
    pub tags: Vec<String>,
    /// The arguments.
    pub input: Input,
    /// The expected outcome.
    pub expected: Expected,
    /// The line (1-based) where the case starts.
    pub line: usize,
    /// The line (1-based) of the input's opening brace, or of its `@` (a
    /// script's positions count from it).
    pub input_line: usize,
    /// The column (1-based) of the program line where the text inside the
    /// input's braces starts.
    pub input_col: usize,
}

/// Values written in a block, with the source line where the block starts.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ValuesText {
    /// The text between the braces, comment markers removed, line breaks kept.
    pub text: String,
    /// The line (1-based) of the opening brace.
    pub line: usize,
}

/// Where a case's arguments come from.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Input {
    /// Values written inline.
    Values(ValuesText),
    /// Values in a file, relative to the program (`.gz` files are decompressed).
    File(String),
    /// Randomly generated values: one type (`[100]f32`) or constant (`3i64`) each.
    Random(Vec<String>),
    /// A FutharkScript expression (`script input { … }`, whose value gives the
    /// arguments), or `@FILE` for a file holding one.
    Script(String),
}

/// What a case expects.
#[derive(Clone, Debug)]
pub enum Expected {
    /// These values.
    Values(ValuesText),
    /// The values in this file, relative to the program.
    File(String),
    /// Whatever the reference implementation computes.
    Auto,
    /// A run-time error matching this.
    Error(ExpectedError),
    /// Only that the run succeeds.
    Success,
}

/// An expected error message: a regular expression, or any error when empty.
#[derive(Clone, Debug)]
pub struct ExpectedError {
    /// The pattern as written.
    pub text: String,
    /// The compiled pattern; `None` matches any error.
    pub regex: Option<Regex>,
}

impl ExpectedError {
    /// Does the message match?
    pub fn matches(&self, message: &str) -> bool {
        match &self.regex {
            Some(r) => r.is_match(message),
            None => true,
        }
    }
}

/// A malformed test block.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SpecError {
    /// The line (1-based) of the problem.
    pub line: usize,
    /// What is wrong.
    pub message: String,
}

impl fmt::Display for SpecError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "line {}: {}", self.line, self.message)
    }
}

impl std::error::Error for SpecError {}

/// True when the source has a test block (a comment line `-- ==` at the start of a
/// line), i.e. the program is a test.
pub fn has_test_block(src: &str) -> bool {
    src.lines().any(is_separator_line)
}

fn comment_body(line: &str) -> Option<&str> {
    line.strip_prefix("--")
}

fn is_separator_line(line: &str) -> bool {
    comment_body(line).is_some_and(|b| b.trim() == "==")
}

/// Parses all test blocks of a program. A program without blocks gives the default
/// (empty) spec.
pub fn parse_spec(src: &str) -> Result<TestSpec, SpecError> {
    let lines: Vec<&str> = src.lines().collect();
    let mut spec = TestSpec::default();
    let mut blocks = 0usize;
    let mut case_index = 0usize;
    let mut i = 0;
    while i < lines.len() {
        if comment_body(lines[i]).is_none() {
            i += 1;
            continue;
        }
        let start = i;
        while i < lines.len() && comment_body(lines[i]).is_some() {
            i += 1;
        }
        let block = &lines[start..i];
        let Some(sep) = block.iter().position(|l| is_separator_line(l)) else {
            continue;
        };
        let body: Vec<(usize, String)> = block[sep + 1..]
            .iter()
            .enumerate()
            .map(|(k, l)| {
                (
                    start + sep + 2 + k,
                    comment_body(l).unwrap_or("").to_string(),
                )
            })
            .collect();
        let first = blocks == 0;
        if first {
            spec.description = block[..sep]
                .iter()
                .map(|l| {
                    let b = comment_body(l).unwrap_or("");
                    b.strip_prefix(' ').unwrap_or(b).trim_end().to_string()
                })
                .collect::<Vec<_>>()
                .join("\n")
                .trim()
                .to_string();
        } else if matches!(spec.action, TestAction::CompileError(_)) {
            return Err(SpecError {
                line: start + sep + 1,
                message: "no further test blocks may follow one that expects a compile-time error"
                    .into(),
            });
        }
        let mut p = BlockParser::new(&body, start + sep + 1);
        p.parse_block(first, &mut spec, &mut case_index)?;
        blocks += 1;
    }
    Ok(spec)
}

/// A cursor over the lines of a block, comment markers removed.
struct BlockParser<'a> {
    lines: &'a [(usize, String)],
    li: usize,
    ci: usize,
    /// The separator's line, for errors at the very start.
    sep_line: usize,
}

impl<'a> BlockParser<'a> {
    fn new(lines: &'a [(usize, String)], sep_line: usize) -> Self {
        BlockParser {
            lines,
            li: 0,
            ci: 0,
            sep_line,
        }
    }

    fn line_no(&self) -> usize {
        match self.lines.get(self.li) {
            Some((n, _)) => *n,
            None => self.lines.last().map(|(n, _)| *n).unwrap_or(self.sep_line),
        }
    }

    fn err<T>(&self, message: impl Into<String>) -> Result<T, SpecError> {
        Err(SpecError {
            line: self.line_no(),
            message: message.into(),
        })
    }

    fn rest(&self) -> &str {
        match self.lines.get(self.li) {
            Some((_, l)) => &l[self.ci.min(l.len())..],
            None => "",
        }
    }

    /// Skips whitespace, across lines. Returns false at the end of the block.
    fn skip_ws(&mut self) -> bool {
        loop {
            let rest = self.rest();
            let trimmed = rest.trim_start();
            if !trimmed.is_empty() {
                self.ci += rest.len() - trimmed.len();
                return true;
            }
            if self.li >= self.lines.len() {
                return false;
            }
            self.li += 1;
            self.ci = 0;
            if self.li >= self.lines.len() {
                return false;
            }
        }
    }

    /// Skips spaces on the current line only.
    fn skip_line_ws(&mut self) {
        let rest = self.rest();
        self.ci += rest.len() - rest.trim_start().len();
    }

    fn peek(&mut self) -> Option<char> {
        if self.skip_ws() {
            self.rest().chars().next()
        } else {
            None
        }
    }

    /// A word of letters, digits, `_` and `-`, without consuming it.
    fn peek_word(&mut self) -> Option<String> {
        if !self.skip_ws() {
            return None;
        }
        let w: String = self
            .rest()
            .chars()
            .take_while(|c| c.is_alphanumeric() || *c == '_' || *c == '-')
            .collect();
        if w.is_empty() { None } else { Some(w) }
    }

    fn bump_word(&mut self, w: &str) {
        self.ci += w.len();
    }

    /// Consumes `kw` (followed by `:` when `colon`) if it is next.
    fn eat_keyword(&mut self, kw: &str, colon: bool) -> bool {
        match self.peek_word() {
            Some(w) if w == kw => {
                let after = &self.rest()[w.len()..];
                if colon {
                    if after.starts_with(':') {
                        self.ci += w.len() + 1;
                        return true;
                    }
                    false
                } else if after.starts_with(':') {
                    false
                } else {
                    self.bump_word(&w);
                    true
                }
            }
            _ => false,
        }
    }

    /// The rest of the current line, trimmed; moves to the next line.
    fn rest_of_line(&mut self) -> String {
        let s = self.rest().trim().to_string();
        self.li += 1;
        self.ci = 0;
        s
    }

    /// A `{ ... }` block, possibly spanning lines; braces may nest.
    fn braces(&mut self, what: &str) -> Result<ValuesText, SpecError> {
        if self.peek() != Some('{') {
            return self.err(format!("expected `{{` to open the {what}"));
        }
        let line = self.line_no();
        self.ci += 1;
        let mut depth = 0usize;
        let mut text = String::new();
        loop {
            let Some((_, l)) = self.lines.get(self.li) else {
                return Err(SpecError {
                    line,
                    message: format!("the {what} opened here is never closed with `}}`"),
                });
            };
            let rest = &l[self.ci.min(l.len())..];
            let mut closed = None;
            for (k, c) in rest.char_indices() {
                match c {
                    '{' => depth += 1,
                    '}' if depth == 0 => {
                        closed = Some(k);
                        break;
                    }
                    '}' => depth -= 1,
                    _ => {}
                }
            }
            match closed {
                Some(k) => {
                    text.push_str(&rest[..k]);
                    self.ci += k + 1;
                    return Ok(ValuesText { text, line });
                }
                None => {
                    text.push_str(rest);
                    text.push('\n');
                    self.li += 1;
                    self.ci = 0;
                }
            }
        }
    }

    /// A file name after `@`: everything up to the next whitespace.
    fn file_name(&mut self) -> Result<String, SpecError> {
        self.skip_line_ws();
        let name: String = self
            .rest()
            .chars()
            .take_while(|c| !c.is_whitespace())
            .collect();
        if name.is_empty() {
            return self.err("expected a file name after `@`");
        }
        self.ci += name.len();
        Ok(name)
    }

    fn expected_error(&mut self) -> Result<ExpectedError, SpecError> {
        let line = self.line_no();
        let text = self.rest_of_line();
        if text.is_empty() {
            return Ok(ExpectedError { text, regex: None });
        }
        match Regex::new(&text) {
            Ok(r) => Ok(ExpectedError {
                text,
                regex: Some(r),
            }),
            Err(e) => Err(SpecError {
                line,
                message: format!("invalid regular expression `{text}`: {e}"),
            }),
        }
    }

    fn parse_block(
        &mut self,
        first: bool,
        spec: &mut TestSpec,
        case_index: &mut usize,
    ) -> Result<(), SpecError> {
        if self.eat_keyword("tags", false) {
            if !first {
                return self.err("`tags` may only appear in the first test block");
            }
            let t = self.braces("tag list")?;
            for tag in t.text.split_whitespace() {
                if !tag
                    .chars()
                    .all(|c| c.is_alphanumeric() || c == '_' || c == '-')
                {
                    return Err(SpecError {
                        line: t.line,
                        message: format!(
                            "invalid tag `{tag}`: tags are letters, digits, `_` and `-`"
                        ),
                    });
                }
                spec.tags.push(tag.to_string());
            }
        }
        if first && self.eat_keyword("error", true) {
            let e = self.expected_error()?;
            if self.skip_ws() {
                return self.err(format!(
                    "unexpected `{}` after a compile-time `error:`",
                    self.rest().trim()
                ));
            }
            spec.action = TestAction::CompileError(e);
            return Ok(());
        }
        let TestAction::Run {
            groups,
            warnings,
            structures,
            properties,
        } = &mut spec.action
        else {
            return self
                .err("no further test blocks may follow one that expects a compile-time error");
        };
        let mut entries = vec!["main".to_string()];
        if self.eat_keyword("entry", true) {
            let names: Vec<String> = self
                .rest_of_line()
                .split_whitespace()
                .map(str::to_string)
                .collect();
            if names.is_empty() {
                return self.err("`entry:` needs at least one entry point name");
            }
            entries = names;
        }
        let mut cases = Vec::new();
        loop {
            if !self.skip_ws() {
                break;
            }
            if self.eat_keyword("structure", false) {
                let mut pipeline = None;
                if self.peek() != Some('{') {
                    let Some(w) = self.peek_word() else {
                        return self.err("expected a pipeline name or `{` after `structure`");
                    };
                    self.bump_word(&w);
                    pipeline = Some(w);
                }
                let body = self.braces("structure block")?;
                let words: Vec<&str> = body.text.split_whitespace().collect();
                let mut counts = Vec::new();
                for pair in words.chunks(2) {
                    let [name, n] = pair else {
                        return Err(SpecError {
                            line: body.line,
                            message: format!("a structure block needs a count after `{}`", pair[0]),
                        });
                    };
                    let Ok(n) = n.parse::<usize>() else {
                        return Err(SpecError {
                            line: body.line,
                            message: format!(
                                "expected a count after `{name}` in a structure block, found `{n}`"
                            ),
                        });
                    };
                    counts.push((name.to_string(), n));
                }
                structures.push(StructureBlock {
                    pipeline,
                    counts,
                    line: body.line,
                });
                continue;
            }
            if self.eat_keyword("warning", true) {
                warnings.push(self.expected_error()?);
                continue;
            }
            if self.eat_keyword("property", true) {
                properties.extend(self.rest_of_line().split_whitespace().map(str::to_string));
                continue;
            }
            if self.eat_keyword("error", true) {
                return self.err(
                    "a compile-time `error:` must come first in the first test block; \
                     a run-time `error:` must follow an input",
                );
            }
            let case = self.parse_case(*case_index)?;
            *case_index += 1;
            cases.push(case);
        }
        if !cases.is_empty() {
            groups.push(CaseGroup { entries, cases });
        }
        Ok(())
    }

    fn parse_case(&mut self, index: usize) -> Result<TestCase, SpecError> {
        let line = self.line_no();
        let mut name = None;
        if self.peek() == Some('"') {
            let rest = self.rest();
            match rest[1..].find('"') {
                Some(end) => {
                    name = Some(rest[1..1 + end].to_string());
                    self.ci += end + 2;
                }
                None => return self.err("unterminated case name"),
            }
        }
        let mut tags = Vec::new();
        loop {
            match self.peek_word() {
                Some(w) if w == "input" => {
                    self.bump_word(&w);
                    break;
                }
                Some(w)
                    if ["output", "auto", "structure", "entry", "tags"].contains(&w.as_str()) =>
                {
                    return self.err(format!("expected `input` before `{w}`"));
                }
                Some(w) if self.rest()[w.len()..].starts_with(':') => {
                    return self.err(format!("unexpected `{w}:` where a test case should start"));
                }
                Some(w) => {
                    self.bump_word(&w);
                    tags.push(w);
                }
                None => {
                    let found: String = self.rest().chars().take(20).collect();
                    return self.err(format!("expected `input`, found `{}`", found.trim()));
                }
            }
        }
        self.peek();
        let input_line = self.line_no();
        // The body of a line starts after its `--`; the text after the brace.
        let input_col = self.ci + 4;
        let input = if tags.iter().any(|t| t == "random") {
            let t = self.braces("random input")?;
            let gens: Vec<String> = t.text.split_whitespace().map(str::to_string).collect();
            for g in &gens {
                if !valid_gen(g) {
                    return Err(SpecError {
                        line: t.line,
                        message: format!(
                            "`{g}` is neither a type with sizes (like `[10][3]f32`) nor a constant"
                        ),
                    });
                }
            }
            Input::Random(gens)
        } else if tags.iter().any(|t| t == "script") {
            if self.peek() == Some('@') {
                self.ci += 1;
                Input::Script(format!("@{}", self.file_name()?))
            } else {
                Input::Script(self.braces("script input")?.text)
            }
        } else if self.peek() == Some('@') {
            self.ci += 1;
            Input::File(self.file_name()?)
        } else {
            Input::Values(self.braces("input block")?)
        };
        let expected = if self.eat_keyword("auto", false) {
            if !self.eat_keyword("output", false) {
                return self.err("expected `output` after `auto`");
            }
            Expected::Auto
        } else if self.eat_keyword("output", false) {
            if self.peek() == Some('@') {
                self.ci += 1;
                Expected::File(self.file_name()?)
            } else {
                Expected::Values(self.braces("output block")?)
            }
        } else if self.eat_keyword("error", true) {
            Expected::Error(self.expected_error()?)
        } else {
            Expected::Success
        };
        Ok(TestCase {
            index,
            name,
            tags,
            input,
            expected,
            line,
            input_line,
            input_col,
        })
    }
}

/// Is `g` a random-input item: `[n]...prim` or a numeric constant with an optional
/// type suffix?
fn valid_gen(g: &str) -> bool {
    const PRIMS: [&str; 12] = [
        "i8", "i16", "i32", "i64", "u8", "u16", "u32", "u64", "f16", "f32", "f64", "bool",
    ];
    let mut rest = g;
    let mut dims = 0;
    while let Some(r) = rest.strip_prefix('[') {
        let Some(end) = r.find(']') else { return false };
        if r[..end].is_empty() || !r[..end].chars().all(|c| c.is_ascii_digit()) {
            return false;
        }
        rest = &r[end + 1..];
        dims += 1;
    }
    if PRIMS.contains(&rest) {
        return true;
    }
    if dims > 0 {
        return false;
    }
    let num = rest.trim_start_matches('-');
    let digits_end = num
        .find(|c: char| !(c.is_ascii_digit() || c == '.' || c == '_'))
        .unwrap_or(num.len());
    let (digits, suffix) = num.split_at(digits_end);
    !digits.is_empty()
        && digits.starts_with(|c: char| c.is_ascii_digit())
        && (suffix.is_empty() || PRIMS[..11].contains(&suffix))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn run_groups(spec: &TestSpec) -> &[CaseGroup] {
        match &spec.action {
            TestAction::Run { groups, .. } => groups,
            TestAction::CompileError(_) => panic!("expected run cases"),
        }
    }

    #[test]
    fn no_block_is_not_a_test() {
        let src = "-- just a comment\ndef main (x: i32) = x\n";
        assert!(!has_test_block(src));
        let spec = parse_spec(src).unwrap();
        assert!(run_groups(&spec).is_empty());
        assert!(has_test_block("-- ==\n-- input { 1 }\n"));
        assert!(!has_test_block("  -- ==\n"));
    }

    #[test]
    fn description_tags_and_simple_cases() {
        let src = "\
-- Adds one.
-- Second line.
-- ==
-- tags { fast no_interp }
-- input { 1 } output { 2 }
-- input {
--   [1, 2,
--    3]
-- }
-- output { [2, 3, 4] }
def main (x: i32) = x + 1
";
        let spec = parse_spec(src).unwrap();
        assert_eq!(spec.description, "Adds one.\nSecond line.");
        assert_eq!(spec.tags, vec!["fast", "no_interp"]);
        let groups = run_groups(&spec);
        assert_eq!(groups.len(), 1);
        assert_eq!(groups[0].entries, vec!["main"]);
        let cases = &groups[0].cases;
        assert_eq!(cases.len(), 2);
        assert_eq!(
            cases[0].input,
            Input::Values(ValuesText {
                text: " 1 ".into(),
                line: 5
            })
        );
        assert!(matches!(&cases[0].expected, Expected::Values(v) if v.text.trim() == "2"));
        assert_eq!(cases[1].index, 1);
        assert_eq!(cases[1].line, 6);
        match &cases[1].input {
            Input::Values(v) => {
                assert_eq!(v.line, 6);
                assert_eq!(v.text.split_whitespace().collect::<String>(), "[1,2,3]");
            }
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn entries_files_random_auto_errors_and_tags() {
        let src = "\
-- ==
-- entry: f g
-- \"small\" compiled nobench input @ data/small.in output @ data/small.out.gz
-- random input { [100]f32 [2][3]i64 3i32 7 } auto output
-- input { 0 } error: Division by zero
-- input { 1 } error:
-- script input { mk 10 }
-- input { 2 }
-- structure gpu { SegMap 1 }
-- warning: unused
entry f (x: i32) = x
";
        let spec = parse_spec(src).unwrap();
        let TestAction::Run {
            groups,
            warnings,
            structures,
            ..
        } = &spec.action
        else {
            panic!()
        };
        assert_eq!(structures.len(), 1);
        assert_eq!(structures[0].pipeline.as_deref(), Some("gpu"));
        assert_eq!(structures[0].counts, vec![("SegMap".to_string(), 1)]);
        assert_eq!(warnings.len(), 1);
        assert!(warnings[0].matches("variable unused here"));
        let g = &groups[0];
        assert_eq!(g.entries, vec!["f", "g"]);
        let c = &g.cases;
        assert_eq!(c.len(), 6);
        assert_eq!(c[0].name.as_deref(), Some("small"));
        assert_eq!(c[0].tags, vec!["compiled", "nobench"]);
        assert_eq!(c[0].input, Input::File("data/small.in".into()));
        assert!(matches!(&c[0].expected, Expected::File(f) if f == "data/small.out.gz"));
        assert_eq!(
            c[1].input,
            Input::Random(vec![
                "[100]f32".into(),
                "[2][3]i64".into(),
                "3i32".into(),
                "7".into()
            ])
        );
        assert!(matches!(c[1].expected, Expected::Auto));
        match &c[2].expected {
            Expected::Error(e) => {
                assert_eq!(e.text, "Division by zero");
                assert!(e.matches("Error: Division by zero at x.fut:1:1"));
                assert!(!e.matches("out of bounds"));
            }
            other => panic!("{other:?}"),
        }
        assert!(
            matches!(&c[3].expected, Expected::Error(e) if e.regex.is_none() && e.matches("anything"))
        );
        assert_eq!(c[4].input, Input::Script(" mk 10 ".into()));
        assert_eq!((c[4].line, c[4].input_line, c[4].input_col), (7, 7, 18));
        assert!(matches!(c[5].expected, Expected::Success));
    }

    #[test]
    fn compile_time_error_block() {
        let spec =
            parse_spec("-- Bad.\n-- ==\n-- error: T002|mismatch\ndef x = 1 + true\n").unwrap();
        match &spec.action {
            TestAction::CompileError(e) => {
                assert!(e.matches("error[T002]: type mismatch"));
                assert!(!e.matches("T001"));
            }
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn several_blocks_each_with_entries() {
        let src = "\
-- ==
-- entry: add1
-- input { 1 } output { 2 }
entry add1 (x: i32) = x + 1

-- Second.
-- ==
-- entry: sub1
-- input { 1 } output { 0 }
-- input { 5 } output { 4 }
entry sub1 (x: i32) = x - 1
";
        let spec = parse_spec(src).unwrap();
        let groups = run_groups(&spec);
        assert_eq!(groups.len(), 2);
        assert_eq!(groups[1].entries, vec!["sub1"]);
        let idx: Vec<usize> = groups
            .iter()
            .flat_map(|g| g.cases.iter().map(|c| c.index))
            .collect();
        assert_eq!(idx, vec![0, 1, 2]);
    }

    fn err(src: &str) -> SpecError {
        parse_spec(src).unwrap_err()
    }

    #[test]
    fn malformed_blocks_report_lines() {
        let e = err("def x = 1\n-- ==\n-- input { 1 }\n-- outptu { 2 }\n");
        assert_eq!(e.line, 4, "{e}");
        let e = err("-- ==\n-- input { 1 \n-- \n");
        assert_eq!(e.line, 2, "{e}");
        assert!(e.message.contains("never closed"), "{e}");
        let e = err("-- ==\n--\n-- output { 1 }\n");
        assert_eq!(e.line, 3, "{e}");
        assert!(e.message.contains("input"), "{e}");
        let e = err("-- ==\n-- input { 1 } error: (unclosed\n");
        assert_eq!(e.line, 2, "{e}");
        assert!(e.message.contains("regular expression"), "{e}");
        let e = err("-- ==\n-- random input { [10]f33 }\n");
        assert_eq!(e.line, 2, "{e}");
        let e = err("-- ==\n-- input @\n");
        assert_eq!(e.line, 2, "{e}");
        let e = err("-- ==\n-- input { 1 } auto\n");
        assert!(e.message.contains("output"), "{e}");
        let e = err("-- ==\n-- error: T001\n-- input { 1 }\n");
        assert_eq!(e.line, 3, "{e}");
        let e = err("-- ==\n-- error: T001\ndef x = 1\n-- ==\n-- input { 1 }\n");
        assert_eq!(e.line, 4, "{e}");
        let e = err("-- ==\n-- input { 1 }\n\n-- ==\n-- tags { a }\n");
        assert_eq!(e.line, 5, "{e}");
        let e = err("-- ==\n-- input { 1 }\n-- ==\n");
        assert_eq!(e.line, 3, "{e}");
        let e = err("-- ==\n-- entry:\n");
        assert_eq!(e.line, 2, "{e}");
        let e = err("-- ==\n-- tags { a.b }\n");
        assert!(e.message.contains("invalid tag"), "{e}");
    }

    #[test]
    fn random_items() {
        for ok in [
            "[1]i32",
            "[10][20]f32",
            "bool",
            "3",
            "-2i64",
            "1.5f32",
            "f64",
        ] {
            assert!(valid_gen(ok), "{ok}");
        }
        for bad in ["[]i32", "[x]i32", "[3]", "1.5q", "[2]7", "abc"] {
            assert!(!valid_gen(bad), "{bad}");
        }
    }
}
