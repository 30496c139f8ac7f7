//! The executable's `main` of a GPU backend: the multicore executable's,
//! plus the device options.
//!
//! `-d NAME`, `-dNAME`, `--device NAME` and `--device=NAME` choose the
//! device ([`Api::set_device_choice`]); `--list-devices` prints the devices
//! and exits (status 1, with the reason on standard error, when there
//! are none); `--param NAME=VALUE` and `--tuning FILE` set tuning
//! parameters and `--print-params` lists them ([`crate::params`]);
//! `-h`/`--help` prints the multicore help followed by these options
//! ([`Api::help`], [`TUNING_HELP`]). Every other argument goes to the multicore command line
//! ([`fut_runtime_multicore::cli::run`]), so the options, the server and
//! the exit statuses are the multicore executable's. The context is made
//! when the first kernel runs; when it cannot be, that launch fails with
//! the reason (status 1).

use fut_runtime_multicore::Program;

use crate::params;
use crate::program::KernelProgram;

/// The help section of the tuning options, printed after the device
/// options.
pub const TUNING_HELP: &str = "\nTuning options (they change how fast a program runs, never its results):\n      \
    --param NAME=VALUE         Set tuning parameter NAME (repeatable).\n      \
    --tuning FILE              Set the parameters FILE gives, one NAME=VALUE per line;\n                                 \
    --param overrides them.\n      \
    --print-params             List the tuning parameters, NAME (CLASS) per line, and exit.\n";

/// What the command line needs of a GPU runtime.
#[derive(Clone, Copy, Debug)]
pub struct Api {
    /// The help section of its options, printed after the multicore one.
    pub help: &'static str,
    /// Chooses the device (`None`: the default); has no effect once the
    /// context exists.
    pub set_device_choice: fn(Option<String>),
    /// The devices, one line each, or why there is none.
    pub list_devices: fn() -> Result<String, String>,
}

/// The device options of the command line.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct DeviceOptions {
    /// The device chosen (`--device`).
    pub device: Option<String>,
    /// List the devices and exit (`--list-devices`).
    pub list_devices: bool,
    /// Print the help and exit (`-h`, `--help`).
    pub help: bool,
    /// Tuning parameters set, `NAME=VALUE` each (`--param`).
    pub params: Vec<String>,
    /// Tuning files (`--tuning`).
    pub tuning: Vec<String>,
    /// List the tuning parameters and exit (`--print-params`).
    pub print_params: bool,
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
];

/// Splits the arguments into the device options and the arguments for
/// the multicore command line.
pub fn split_args(args: Vec<String>) -> Result<(DeviceOptions, Vec<String>), String> {
    let mut opts = DeviceOptions::default();
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
        } else if a == "--print-params" {
            opts.print_params = true;
        } else if a == "--param" || a == "--tuning" {
            let v = it.next().ok_or_else(|| {
                let what = if a == "--param" { "NAME=VALUE" } else { "FILE" };
                format!("option {a} needs a value ({what})")
            })?;
            if a == "--param" {
                opts.params.push(v);
            } else {
                opts.tuning.push(v);
            }
        } else if let Some(v) = a.strip_prefix("--param=") {
            opts.params.push(v.to_string());
        } else if let Some(v) = a.strip_prefix("--tuning=") {
            opts.tuning.push(v.to_string());
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
pub fn run(api: &Api, program: &Program, kernels: &KernelProgram, args: Vec<String>) -> i32 {
    let (opts, rest) = match split_args(args) {
        Ok(x) => x,
        Err(m) => {
            eprintln!("Error: {m}\n(use --help for the options)");
            return 1;
        }
    };
    if opts.help {
        print!(
            "{}{}{TUNING_HELP}",
            fut_runtime_multicore::options::help(program.name),
            api.help
        );
        return 0;
    }
    if opts.print_params {
        print!("{}", params::listing(kernels));
        return 0;
    }
    let tuned = opts
        .tuning
        .iter()
        .try_for_each(|f| params::VALUES.set_from_file(kernels, f))
        .and_then(|()| {
            opts.params
                .iter()
                .try_for_each(|p| params::VALUES.set_assignment(kernels, p))
        });
    if let Err(m) = tuned {
        eprintln!("Error: {m}");
        return 1;
    }
    if opts.device.is_some() {
        (api.set_device_choice)(opts.device);
    }
    if opts.list_devices {
        return match (api.list_devices)() {
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

/// The executable's `main`: the device options, then the multicore
/// executable's (see the module doc); exits with its status.
pub fn main(api: &Api, program: &'static Program, kernels: &'static KernelProgram) -> ! {
    fut_runtime_multicore::call::install_panic_hook();
    fut_runtime_multicore::tuning::install(Box::leak(Box::new(params::Tuned(kernels))));
    let args: Vec<String> = std::env::args().skip(1).collect();
    std::process::exit(run(api, program, kernels, args))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn s(args: &[&str]) -> Result<(DeviceOptions, Vec<String>), String> {
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
            DeviceOptions {
                device: Some("x".into()),
                list_devices: true,
                ..DeviceOptions::default()
            }
        );
        assert_eq!(rest, ["-e", "f", "-b"]);
        assert!(s(&["--device"]).unwrap_err().contains("needs a value"));
    }

    #[test]
    fn tuning_options_in_every_form() {
        let (o, rest) = s(&[
            "--param",
            "a=1",
            "--param=b=2",
            "--tuning",
            "f.tuning",
            "--tuning=g",
            "--print-params",
            "-b",
        ])
        .unwrap();
        assert_eq!(o.params, ["a=1", "b=2"]);
        assert_eq!(o.tuning, ["f.tuning", "g"]);
        assert!(o.print_params);
        assert_eq!(rest, ["-b"]);
        assert!(s(&["--param"]).unwrap_err().contains("NAME=VALUE"));
        assert!(s(&["--tuning"]).unwrap_err().contains("FILE"));
    }

    #[test]
    fn values_of_multicore_options_pass_through() {
        let (o, rest) = s(&["-e", "-d", "--entry-point", "--help", "-be", "-h", "-r5"]).unwrap();
        assert_eq!(o, DeviceOptions::default());
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
    fn help_and_listing_go_through_the_api() {
        static P: Program = Program {
            name: "prog",
            entries: &[],
        };
        static K: KernelProgram = KernelProgram {
            source: "",
            kernels: &[],
            binaries: &[],
            thresholds: &[],
        };
        static API: Api = Api {
            help: "\nTest options:\n",
            set_device_choice: |_| {},
            list_devices: || Err("no device here".into()),
        };
        assert_eq!(run(&API, &P, &K, vec!["--help".into()]), 0);
        assert_eq!(run(&API, &P, &K, vec!["--device".into()]), 1);
        assert_eq!(run(&API, &P, &K, vec!["--list-devices".into()]), 1);
        assert_eq!(run(&API, &P, &K, vec!["--print-params".into()]), 0);
        assert_eq!(run(&API, &P, &K, vec!["--param=nope=1".into()]), 1);
        assert_eq!(
            run(&API, &P, &K, vec!["--tuning".into(), "/nonexistent".into()]),
            1
        );
        static ONE: Api = Api {
            list_devices: || Ok("0: CUDA: NVIDIA H100 (GPU, sm_90)\n".into()),
            ..API
        };
        assert_eq!(run(&ONE, &P, &K, vec!["--list-devices".into()]), 0);
    }
}
