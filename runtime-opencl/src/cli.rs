//! The executable's `main`: the multicore executable's, plus the OpenCL
//! options.
//!
//! `-d NAME`, `-dNAME`, `--device NAME` and `--device=NAME` choose the
//! device ([`set_device_choice`]); `--list-devices` prints the devices
//! and exits (status 1, with the reason on standard error, when there
//! are none); `-h`/`--help` prints the multicore help followed by these
//! options. Every other argument goes to the multicore command line
//! ([`fut_runtime_multicore::cli::run`]), so the options, the server and
//! the exit statuses are the multicore executable's. The context is made
//! when the first kernel runs; when it cannot be, that launch fails with
//! the reason (status 1).

use fut_runtime_multicore::Program;

use crate::device::{list_devices, set_device_choice};

/// The OpenCL options of the command line.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ClOptions {
    /// The device chosen (`--device`).
    pub device: Option<String>,
    /// List the devices and exit (`--list-devices`).
    pub list_devices: bool,
    /// Print the help and exit (`-h`, `--help`).
    pub help: bool,
}

/// The multicore options whose value may be the next argument: that
/// argument is passed on as it is, whatever it looks like.
const SHORT_WITH_VALUE: &[char] = &['e', 'r', 't'];
const LONG_WITH_VALUE: &[&str] = &[
    "entry-point",
    "runs",
    "write-runtime-to",
    "num-threads",
    "cache-file",
    "tuning",
];

/// The OpenCL help section.
pub const HELP: &str = "\nOpenCL options:\n  \
    -d, --device NAME              Use the first device whose name (or \"PLATFORM: NAME\")\n                                 \
    contains NAME, ignoring case (default: $FUT_OPENCL_DEVICE, else\n                                 \
    the first GPU, else the first device).\n      \
    --list-devices             List the OpenCL devices and exit.\n";

/// Splits the arguments into the OpenCL options and the arguments for
/// the multicore command line.
pub fn split_args(args: Vec<String>) -> Result<(ClOptions, Vec<String>), String> {
    let mut opts = ClOptions::default();
    let mut rest = Vec::with_capacity(args.len());
    let mut it = args.into_iter();
    while let Some(a) = it.next() {
        if a == "--device" || a == "-d" {
            let v = it
                .next()
                .ok_or_else(|| format!("option {a} needs a value (NAME)"))?;
            opts.device = Some(v);
        } else if let Some(v) = a.strip_prefix("--device=") {
            opts.device = Some(v.to_string());
        } else if let Some(v) = a.strip_prefix("-d").filter(|_| !a.starts_with("--")) {
            opts.device = Some(v.to_string());
        } else if a == "--list-devices" {
            opts.list_devices = true;
        } else if a == "--help" || a == "-h" {
            opts.help = true;
        } else if let Some(long) = a.strip_prefix("--") {
            let takes = LONG_WITH_VALUE.contains(&long);
            rest.push(a.clone());
            if takes && let Some(v) = it.next() {
                rest.push(v);
            }
        } else if let Some(flags) = a.strip_prefix('-').filter(|f| !f.is_empty()) {
            // A cluster of short flags: its value is the next argument
            // when a flag taking one ends it.
            let mut takes = false;
            for (i, c) in flags.char_indices() {
                if SHORT_WITH_VALUE.contains(&c) {
                    takes = i + c.len_utf8() == flags.len();
                    break;
                }
                if c == 'h' {
                    opts.help = true;
                }
            }
            rest.push(a.clone());
            if takes && let Some(v) = it.next() {
                rest.push(v);
            }
        } else {
            rest.push(a);
        }
    }
    Ok((opts, rest))
}

/// Everything [`main`] does but exiting: returns the exit status.
pub fn run(program: &Program, args: Vec<String>) -> i32 {
    let (opts, rest) = match split_args(args) {
        Ok(x) => x,
        Err(m) => {
            eprintln!("Error: {m}\n(use --help for the options)");
            return 1;
        }
    };
    if opts.help {
        print!(
            "{}{HELP}",
            fut_runtime_multicore::options::help(program.name)
        );
        return 0;
    }
    if opts.device.is_some() {
        set_device_choice(opts.device);
    }
    if opts.list_devices {
        return match list_devices() {
            Ok(s) => {
                print!("{s}");
                0
            }
            Err(e) => {
                eprintln!("Error: {e}");
                1
            }
        };
    }
    fut_runtime_multicore::cli::run(program, rest)
}

/// The executable's `main`: the OpenCL options, then the multicore
/// executable's (see the module doc); exits with its status.
pub fn main(program: &'static Program) -> ! {
    fut_runtime_multicore::call::install_panic_hook();
    let args: Vec<String> = std::env::args().skip(1).collect();
    std::process::exit(run(program, args))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn s(args: &[&str]) -> Result<(ClOptions, Vec<String>), String> {
        split_args(args.iter().map(|a| a.to_string()).collect())
    }

    #[test]
    fn device_options_in_every_form() {
        for args in [
            &["-d", "pthread"][..],
            &["-dpthread"],
            &["--device", "pthread"],
            &["--device=pthread"],
        ] {
            let (o, rest) = s(args).unwrap();
            assert_eq!(o.device.as_deref(), Some("pthread"), "{args:?}");
            assert!(rest.is_empty());
        }
        let (o, rest) = s(&["-e", "f", "--device=x", "-b", "--list-devices"]).unwrap();
        assert_eq!(
            o,
            ClOptions {
                device: Some("x".into()),
                list_devices: true,
                help: false
            }
        );
        assert_eq!(rest, ["-e", "f", "-b"]);
        assert!(s(&["--device"]).unwrap_err().contains("needs a value"));
    }

    #[test]
    fn values_of_multicore_options_pass_through() {
        let (o, rest) = s(&["-e", "-d", "--entry-point", "--help", "-be", "-h", "-r5"]).unwrap();
        assert_eq!(o, ClOptions::default());
        assert_eq!(
            rest,
            ["-e", "-d", "--entry-point", "--help", "-be", "-h", "-r5"]
        );
        let (o, rest) = s(&["-P", "--server", "-h"]).unwrap();
        assert!(o.help);
        assert_eq!(rest, ["-P", "--server"]);
        assert!(s(&["-bh"]).unwrap().0.help);
        assert!(!s(&["-eh"]).unwrap().0.help);
        assert!(s(&["--help"]).unwrap().0.help);
    }

    #[test]
    fn help_adds_the_opencl_section() {
        static P: Program = Program {
            name: "prog",
            entries: &[],
        };
        assert_eq!(run(&P, vec!["--help".into()]), 0);
        assert!(HELP.contains("--device NAME") && HELP.contains("--list-devices"));
        assert_eq!(run(&P, vec!["--device".into()]), 1);
    }
}
