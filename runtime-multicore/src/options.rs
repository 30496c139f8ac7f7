//! The executable's command-line options.
//!
//! A small hand-written parser rather than clap: every generated program
//! links this crate, and clap with its derive macros would add seconds to
//! each program's first build for a dozen options. Long options take their
//! value as `--name=VALUE` or `--name VALUE`, short ones as `-xVALUE` or
//! `-x VALUE`; short flags without values may be combined (`-bn`).

use std::path::PathBuf;

/// What the command line asks for.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Options {
    /// Print the help text and exit.
    pub help: bool,
    /// The entry point to run (`-e`); `main` by default.
    pub entry: String,
    /// Write results in the binary value format (`-b`).
    pub binary: bool,
    /// Do not write results (`-n`).
    pub no_print: bool,
    /// Timed runs (`-r`); `None` runs once with no warm-up run.
    pub runs: Option<usize>,
    /// Where to write the time of each run in microseconds (`-t`).
    pub timing_file: Option<PathBuf>,
    /// Record time per segmented operation and report it on exit (`-P`).
    pub profile: bool,
    /// Worker threads (`--num-threads`); all cores when `None`.
    pub threads: Option<usize>,
    /// Serve the server protocol on standard input and output (`--server`).
    pub server: bool,
}

impl Default for Options {
    fn default() -> Self {
        Options {
            help: false,
            entry: "main".into(),
            binary: false,
            no_print: false,
            runs: None,
            timing_file: None,
            profile: false,
            threads: None,
            server: false,
        }
    }
}

/// The options, short and long names, whether each takes a value, and its help.
const OPTIONS: &[(Option<char>, &str, Option<&str>, &str)] = &[
    (Some('h'), "help", None, "Print this help and exit."),
    (
        Some('e'),
        "entry-point",
        Some("NAME"),
        "The entry point to run (default: main).",
    ),
    (
        Some('b'),
        "binary-output",
        None,
        "Write results in the binary value format.",
    ),
    (
        Some('n'),
        "no-print-result",
        None,
        "Do not write the results.",
    ),
    (
        Some('r'),
        "runs",
        Some("N"),
        "Run N times after one warm-up run; results of the last run are written.",
    ),
    (
        Some('t'),
        "write-runtime-to",
        Some("FILE"),
        "Write the time of each run, in microseconds, to FILE (one per line).",
    ),
    (
        Some('P'),
        "profile",
        None,
        "Time each segmented operation; print a report on standard error at exit.",
    ),
    (
        None,
        "num-threads",
        Some("N"),
        "Use N worker threads (default: one per core).",
    ),
    (
        None,
        "server",
        None,
        "Serve the server protocol on standard input and output.",
    ),
    (
        Some('D'),
        "debugging",
        None,
        "Accepted for compatibility; implies -P.",
    ),
    (
        Some('L'),
        "log",
        None,
        "Accepted for compatibility; no effect.",
    ),
    (
        None,
        "cache-file",
        Some("FILE"),
        "Accepted for compatibility; no effect.",
    ),
    (
        None,
        "tuning",
        Some("FILE"),
        "Accepted for compatibility; no effect.",
    ),
];

/// The help text: usage and every option.
pub fn help(program: &str) -> String {
    let mut s = format!(
        "Usage: {program} [OPTIONS] < ARGUMENTS\n\n\
         Runs an entry point of the program compiled from {program}.fut on arguments read\n\
         from standard input (text or binary values, mixed) and writes its results to\n\
         standard output. With --server, serves requests instead.\n\nOptions:\n"
    );
    for (short, long, value, text) in OPTIONS {
        let mut names = match short {
            Some(c) => format!("-{c}, --{long}"),
            None => format!("    --{long}"),
        };
        if let Some(v) = value {
            names.push_str(&format!(" {v}"));
        }
        s.push_str(&format!("  {names:<30} {text}\n"));
    }
    s
}

fn parse_count(option: &str, value: &str) -> Result<usize, String> {
    match value.parse::<usize>() {
        Ok(n) if n > 0 => Ok(n),
        _ => Err(format!(
            "option {option}: expected a positive integer, got `{value}`"
        )),
    }
}

fn apply(opts: &mut Options, long: &str, value: Option<String>) -> Result<(), String> {
    let v = || value.clone().unwrap_or_default();
    match long {
        "help" => opts.help = true,
        "entry-point" => opts.entry = v(),
        "binary-output" => opts.binary = true,
        "no-print-result" => opts.no_print = true,
        "runs" => opts.runs = Some(parse_count("-r", &v())?),
        "write-runtime-to" => opts.timing_file = Some(PathBuf::from(v())),
        "profile" | "debugging" => opts.profile = true,
        "num-threads" => opts.threads = Some(parse_count("--num-threads", &v())?),
        "server" => opts.server = true,
        _ => {}
    }
    Ok(())
}

/// Parses the arguments after the program name.
pub fn parse<I: IntoIterator<Item = String>>(args: I) -> Result<Options, String> {
    let mut opts = Options::default();
    let mut args = args.into_iter();
    while let Some(arg) = args.next() {
        if let Some(rest) = arg.strip_prefix("--") {
            let (name, inline) = match rest.split_once('=') {
                Some((n, v)) => (n, Some(v.to_string())),
                None => (rest, None),
            };
            let Some((_, long, takes, _)) = OPTIONS.iter().find(|o| o.1 == name) else {
                return Err(format!("unknown option --{name}"));
            };
            let value = match (takes, inline) {
                (None, Some(_)) => return Err(format!("option --{long} takes no value")),
                (None, None) => None,
                (Some(_), Some(v)) => Some(v),
                (Some(what), None) => Some(
                    args.next()
                        .ok_or_else(|| format!("option --{long} needs a value ({what})"))?,
                ),
            };
            apply(&mut opts, long, value)?;
        } else if let Some(flags) = arg.strip_prefix('-').filter(|f| !f.is_empty()) {
            for (i, c) in flags.char_indices() {
                let Some((_, long, takes, _)) = OPTIONS.iter().find(|o| o.0 == Some(c)) else {
                    return Err(format!("unknown option -{c}"));
                };
                if let Some(what) = takes {
                    let rest = &flags[i + c.len_utf8()..];
                    let value = if rest.is_empty() {
                        args.next()
                            .ok_or_else(|| format!("option -{c} needs a value ({what})"))?
                    } else {
                        rest.to_string()
                    };
                    apply(&mut opts, long, Some(value))?;
                    break;
                }
                apply(&mut opts, long, None)?;
            }
        } else {
            return Err(format!(
                "unexpected argument `{arg}` (arguments are read from standard input)"
            ));
        }
    }
    Ok(opts)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn p(args: &[&str]) -> Result<Options, String> {
        parse(args.iter().map(|s| s.to_string()))
    }

    #[test]
    fn defaults() {
        assert_eq!(p(&[]).unwrap(), Options::default());
        assert_eq!(Options::default().entry, "main");
    }

    #[test]
    fn short_long_and_combined_forms() {
        let o = p(&["-e", "f", "-bn", "-r5", "--write-runtime-to=t.txt", "-P"]).unwrap();
        assert_eq!(o.entry, "f");
        assert!(o.binary && o.no_print && o.profile);
        assert_eq!(o.runs, Some(5));
        assert_eq!(o.timing_file, Some(PathBuf::from("t.txt")));
        let o = p(&[
            "--entry-point",
            "g",
            "--num-threads=3",
            "--server",
            "-t",
            "x",
        ])
        .unwrap();
        assert_eq!(o.entry, "g");
        assert_eq!(o.threads, Some(3));
        assert!(o.server);
        assert_eq!(o.timing_file, Some(PathBuf::from("x")));
        let o = p(&["-bef"]).unwrap();
        assert!(o.binary);
        assert_eq!(o.entry, "f");
        assert!(
            p(&["-L", "--cache-file", "c", "--tuning=t", "-D"])
                .unwrap()
                .profile
        );
    }

    #[test]
    fn errors_say_what_is_wrong() {
        let e = p(&["-r", "0"]).unwrap_err();
        assert!(e.contains("-r") && e.contains("positive integer"), "{e}");
        let e = p(&["--num-threads=x"]).unwrap_err();
        assert!(e.contains("--num-threads"), "{e}");
        assert!(
            p(&["--frob"])
                .unwrap_err()
                .contains("unknown option --frob")
        );
        assert!(p(&["-q"]).unwrap_err().contains("unknown option -q"));
        assert!(p(&["-e"]).unwrap_err().contains("needs a value"));
        assert!(p(&["--server=1"]).unwrap_err().contains("takes no value"));
        assert!(p(&["data.in"]).unwrap_err().contains("unexpected argument"));
    }

    #[test]
    fn help_lists_every_option() {
        let h = help("prog");
        for (_, long, _, _) in OPTIONS {
            assert!(h.contains(&format!("--{long}")), "{long}");
        }
    }
}
