//! A test case's script input: its text, written in the block (`script
//! input { … }`) or read from the file named by `script input @ FILE`, parsed,
//! and its positions given in the terms of the program or the file.

use super::parse::{Expr, Pos, parse};
use crate::testspec::TestCase;

/// A parsed script input of a test case.
pub struct CaseScript {
    /// The script.
    pub expr: Expr,
    /// Where its text is.
    pub place: Place,
}

/// Where a script's text is, for messages.
#[derive(Clone, Debug)]
pub struct Place {
    /// `script input` for an inline script, `script FILE` otherwise.
    origin: String,
    /// The line of the script's first line (in the program, or 1).
    first_line: usize,
    /// The column of the script's first character on its first line.
    first_col: usize,
    inline: bool,
}

impl Place {
    /// Where position `p` of the script is: inside a block, the script's
    /// first line starts after the brace and the others after the `--` of
    /// their comment line.
    pub fn at(&self, p: Pos) -> String {
        let col = match (self.inline, p.line) {
            (true, 1) => self.first_col + p.col - 1,
            (true, _) => p.col + 2,
            (false, _) => p.col,
        };
        format!(
            "{}, line {}, column {col}",
            self.origin,
            self.first_line + p.line - 1
        )
    }
}

impl CaseScript {
    /// The script `text` of `case` (as the test block holds it: the script,
    /// or `@ FILE`), parsed; `read` reads a file named relative to the
    /// program. A parse error names its place.
    pub fn load(
        case: &TestCase,
        text: &str,
        read: &dyn Fn(&str) -> Result<Vec<u8>, String>,
    ) -> Result<CaseScript, String> {
        let (source, first_line, origin) = match text.trim().strip_prefix('@') {
            Some(f) => {
                let f = f.trim();
                let bytes = read(f)?;
                let text = String::from_utf8(bytes)
                    .map_err(|_| format!("the script file {f} is not UTF-8 text"))?;
                (text, 1, format!("script {f}"))
            }
            None => (text.to_string(), case.input_line, "script input".into()),
        };
        let place = Place {
            inline: origin == "script input",
            origin,
            first_line,
            first_col: case.input_col,
        };
        let expr = parse(&source).map_err(|e| format!("{}: {}", place.at(e.pos), e.message))?;
        Ok(CaseScript { expr, place })
    }
}
