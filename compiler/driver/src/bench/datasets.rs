//! The datasets of a benchmark program: which cases of its `-- ==` blocks
//! run, what each is called, and its arguments and expected results.

use std::collections::BTreeSet;
use std::io::Read;
use std::path::Path;

use semantic::{EntryPoint, EntryType};
use values::{RankedType, Value};

use crate::system::System;
use crate::testspec::{Expected, Input, TestAction, TestCase, TestSpec};

/// One dataset to benchmark: an entry point and a case of a test block.
#[derive(Clone, Debug)]
pub struct Dataset {
    /// The entry point the case runs.
    pub entry: String,
    /// The case.
    pub case: TestCase,
    /// Its name in reports: the case's name, its data file, or `#N (…)`
    /// with the start of its inline or random input.
    pub name: String,
}

/// What decides which cases run.
#[derive(Clone, Debug)]
pub struct Selection {
    /// Cases with any of these tags are skipped (`nobench`, `disable` and
    /// `no_BACKEND` are always in).
    pub excluded: BTreeSet<String>,
    /// Only these entry points (all when empty).
    pub entries: Vec<String>,
    /// Skip cases tagged `compiled`.
    pub skip_compiled: bool,
}

impl Selection {
    /// The selection for a backend called `backend`.
    pub fn new(
        backend: &str,
        exclude: &[String],
        entries: &[String],
        skip_compiled: bool,
    ) -> Selection {
        let mut excluded: BTreeSet<String> = exclude.iter().cloned().collect();
        excluded.insert("nobench".into());
        excluded.insert("disable".into());
        excluded.insert(format!("no_{backend}"));
        Selection {
            excluded,
            entries: entries.to_vec(),
            skip_compiled,
        }
    }
}

/// How many characters of inline input a dataset's name shows.
const NAME_INPUT_CHARS: usize = 40;

fn dataset_name(case: &TestCase) -> String {
    if let Some(n) = &case.name {
        return n.clone();
    }
    let shown = |text: &str| {
        let flat = text.split_whitespace().collect::<Vec<_>>().join(" ");
        if flat.chars().count() > NAME_INPUT_CHARS {
            let cut: String = flat.chars().take(NAME_INPUT_CHARS).collect();
            format!("{}…", cut.trim_end())
        } else {
            flat
        }
    };
    match &case.input {
        Input::File(f) => f.clone(),
        Input::Values(v) => format!("#{} (\"{}\")", case.index, shown(&v.text)),
        Input::Random(gens) => format!("#{} (\"{}\")", case.index, shown(&gens.join(" "))),
        Input::Script(s) => format!("#{} (\"{}\")", case.index, shown(s)),
    }
}

/// The datasets of a program's spec that `sel` lets run, in block order.
/// A program tagged with an excluded tag, or expecting a compile error,
/// has none. Cases expecting a run-time error are not benchmarks and are
/// left out.
pub fn select(spec: &TestSpec, sel: &Selection) -> Vec<Dataset> {
    if spec.tags.iter().any(|t| sel.excluded.contains(t)) {
        return Vec::new();
    }
    let TestAction::Run { groups, .. } = &spec.action else {
        return Vec::new();
    };
    let mut out = Vec::new();
    for group in groups {
        for entry in &group.entries {
            if !sel.entries.is_empty() && !sel.entries.contains(entry) {
                continue;
            }
            for case in &group.cases {
                let skipped = case.tags.iter().any(|t| sel.excluded.contains(t))
                    || (sel.skip_compiled && case.tags.iter().any(|t| t == "compiled"))
                    || matches!(case.expected, Expected::Error(_));
                if !skipped {
                    out.push(Dataset {
                        entry: entry.clone(),
                        case: case.clone(),
                        name: dataset_name(case),
                    });
                }
            }
        }
    }
    out
}

/// The bytes of the data file `file` of a program in `dir` (decompressed
/// when it ends in `.gz`).
pub fn read_data(system: &dyn System, dir: &Path, file: &str) -> Result<Vec<u8>, String> {
    let path = dir.join(file);
    let bytes = system
        .read(&path)
        .map_err(|e| format!("cannot read {}: {e}", path.display()))?;
    if path.extension().is_some_and(|x| x == "gz") {
        let mut out = Vec::new();
        flate2::read::GzDecoder::new(bytes.as_slice())
            .read_to_end(&mut out)
            .map_err(|e| format!("cannot decompress {}: {e}", path.display()))?;
        Ok(out)
    } else {
        Ok(bytes)
    }
}

/// The arguments of a dataset, read at the entry's parameter types (random
/// inputs generated as `fut test` generates them).
pub fn inputs(
    system: &dyn System,
    dir: &Path,
    entry: &EntryPoint,
    case: &TestCase,
) -> Result<Vec<Value>, String> {
    match &case.input {
        Input::Values(v) => crate::run::read_arguments(entry, v.text.as_bytes())
            .map_err(|m| format!("in the values block at line {}: {m}", v.line)),
        Input::File(f) => {
            let bytes = read_data(system, dir, f)?;
            crate::run::read_arguments(entry, bytes.as_slice()).map_err(|m| format!("{f}: {m}"))
        }
        Input::Random(gens) => {
            let types = crate::run::param_types(entry)?;
            let mut rng = values::Rng::new(1 + case.index as u64);
            let bounds = values::Bounds::default();
            let mut vals = Vec::with_capacity(gens.len());
            for g in gens {
                let v = match values::parse_type_spec(g) {
                    Ok(t) => values::generate(&t, &bounds, &mut rng)
                        .map_err(|e| format!("random input `{g}`: {e}"))?,
                    Err(_) => values::parse_value(g)
                        .map_err(|e| format!("random input `{g}`: {}", e.message))?,
                };
                vals.push(v);
            }
            if vals.len() != types.len() || !vals.iter().zip(&types).all(|(v, t)| t.matches(v)) {
                let got: Vec<String> = vals.iter().map(|v| v.value_type().to_string()).collect();
                let want: Vec<String> = types.iter().map(|t| t.to_string()).collect();
                return Err(format!(
                    "entry point `{}` takes ({}), but the random input gives ({})",
                    entry.name,
                    want.join(", "),
                    got.join(", ")
                ));
            }
            Ok(vals)
        }
        Input::Script(_) => Err("a script input gives no values before it runs".into()),
    }
}

/// The expected results of a dataset, when its block gives them: read at the
/// entry's result types, or untyped when they do not fit (so that the
/// comparison reports the difference).
pub fn expected(
    system: &dyn System,
    dir: &Path,
    entry: &EntryPoint,
    case: &TestCase,
) -> Result<Option<Vec<Value>>, String> {
    let types: Option<Vec<RankedType>> = entry
        .results
        .iter()
        .map(|r| match r {
            EntryType::Array { elem, rank } => {
                Some(RankedType::new(*rank, crate::run::prim_type(*elem)))
            }
            EntryType::Opaque(_) => None,
        })
        .collect();
    let read = |bytes: &[u8]| match &types {
        Some(ts) => values::read_typed_values(bytes, ts).or_else(|_| values::read_values(bytes)),
        None => values::read_values(bytes),
    };
    match &case.expected {
        Expected::Values(v) => read(v.text.as_bytes()).map(Some).map_err(|e| {
            format!(
                "in the values block at line {}: invalid expected output: {e}",
                v.line
            )
        }),
        Expected::File(f) => {
            let bytes = read_data(system, dir, f)?;
            read(&bytes)
                .map(Some)
                .map_err(|e| format!("{f}: invalid expected output: {e}"))
        }
        _ => Ok(None),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::testspec::parse_spec;

    const SRC: &str = "\
-- ==
-- entry: main other
-- input { [1, 2, 3] } output { 6 }
-- nobench input { [1] } output { 1 }
-- compiled input @ data/big.in output { 0 }
-- random input { [10]i32 }
-- input { 1 } error: boom
-- \"named\" input { [4] } output { 4 }
-- script input { mk 5 } output { 5 }
entry main (xs: []i32) = i32.sum xs
entry other (xs: []i32) = i32.sum xs
";

    #[test]
    fn selects_cases_by_tag_entry_and_kind() {
        let spec = parse_spec(SRC).unwrap();
        let all = select(&spec, &Selection::new("ir", &[], &[], false));
        let names: Vec<(&str, &str)> = all
            .iter()
            .map(|d| (d.entry.as_str(), d.name.as_str()))
            .collect();
        assert_eq!(
            names,
            vec![
                ("main", "#0 (\"[1, 2, 3]\")"),
                ("main", "data/big.in"),
                ("main", "#3 (\"[10]i32\")"),
                ("main", "named"),
                ("main", "#6 (\"mk 5\")"),
                ("other", "#0 (\"[1, 2, 3]\")"),
                ("other", "data/big.in"),
                ("other", "#3 (\"[10]i32\")"),
                ("other", "named"),
                ("other", "#6 (\"mk 5\")"),
            ]
        );
        let interp = select(
            &spec,
            &Selection::new("interp", &["foo".into()], &["other".into()], true),
        );
        assert_eq!(interp.len(), 4);
        assert!(interp.iter().all(|d| d.entry == "other"));
        assert!(interp.iter().all(|d| d.name != "data/big.in"));
        let tagged = parse_spec("-- ==\n-- tags { slow }\n-- input { 1 }\n").unwrap();
        assert!(select(&tagged, &Selection::new("ir", &["slow".into()], &[], false)).is_empty());
        assert_eq!(
            select(&tagged, &Selection::new("ir", &[], &[], false)).len(),
            1
        );
    }

    #[test]
    fn long_inline_inputs_are_cut_in_names() {
        let spec = parse_spec(
            "-- ==\n-- input { [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16] }\n",
        )
        .unwrap();
        let d = select(&spec, &Selection::new("ir", &[], &[], false));
        assert_eq!(
            d[0].name,
            "#0 (\"[1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12,…\")"
        );
    }
}
