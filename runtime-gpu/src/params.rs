//! Tuning parameters: knobs that change how a program runs on the device
//! but never what it computes, set with `--param NAME=VALUE` and
//! `--tuning FILE` and listed by `--print-params`.
//!
//! | name | class | what it sets |
//! |---|---|---|
//! | `default_group_size` | `group_size` | the work-group (block) size of every kernel whose size is the runtime's choice |
//! | `kN.group_size` | `group_size` | the same for kernel `kN` alone (one per such kernel) |
//! | `default_threads` | `threads` | the device threads a reduction, scan or histogram is split for (its number of chunks) |
//! | `row_group_threshold_N` | `threshold` | the shortest rows a segmented reduction gives a work-group each (default 128) |
//! | `hist_copies_threshold_N` | `threshold` | the fewest updates per bucket for which a histogram's chunks fill copies of their own rather than update atomically (default 1024) |
//! | `transpose_threshold_N` | `threshold` | the fewest rows and columns a transposition moves through tiles (default 32) |
//!
//! Group sizes are capped by the kernel's and the device's limits, as the
//! defaults are; a group loop's kernel (`KernelInfo::group`) has a fixed
//! size and no parameter. A parameter given on the command line takes
//! precedence over the environment variables that set the same thing
//! (`FUT_OPENCL_GROUP_SIZE`, `FUT_CUDA_BLOCK_SIZE`, `FUT_GPU_CHUNKS`).

use std::collections::BTreeMap;
use std::sync::Mutex;

use crate::program::KernelProgram;

/// The tuning parameters of `prog`: name and class, in the order
/// `--print-params` lists them.
pub fn params(prog: &KernelProgram) -> Vec<(String, &'static str)> {
    let mut out = vec![
        ("default_group_size".to_string(), "group_size"),
        ("default_threads".to_string(), "threads"),
    ];
    for k in prog.kernels.iter().filter(|k| k.group == 0) {
        out.push((format!("{}.group_size", k.name), "group_size"));
    }
    for (name, _) in prog.thresholds {
        out.push((name.to_string(), "threshold"));
    }
    out
}

/// The value of threshold `name`: the one set, else `default`.
pub fn threshold(name: &str, default: i64) -> i64 {
    VALUES
        .get(name)
        .map_or(default, |v| i64::try_from(v).unwrap_or(i64::MAX))
}

/// Parameter values by name.
#[derive(Debug, Default)]
pub struct Values(Mutex<BTreeMap<String, u64>>);

/// The values the command line set, which the runtime reads.
pub static VALUES: Values = Values::new();

impl Values {
    /// No value set.
    pub const fn new() -> Values {
        Values(Mutex::new(BTreeMap::new()))
    }

    /// Sets parameter `name` of `prog` to `value` (a positive integer, as
    /// text).
    pub fn set(&self, prog: &KernelProgram, name: &str, value: &str) -> Result<(), String> {
        if !params(prog).iter().any(|(n, _)| n == name) {
            return Err(format!(
                "unknown tuning parameter {name} (--print-params lists them)"
            ));
        }
        let v = value
            .trim()
            .parse::<u64>()
            .ok()
            .filter(|&v| v > 0)
            .ok_or_else(|| {
                format!(
                    "the value of tuning parameter {name} must be a positive integer, not {value:?}"
                )
            })?;
        self.0
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .insert(name.to_string(), v);
        Ok(())
    }

    /// Sets a parameter from `NAME=VALUE`.
    pub fn set_assignment(&self, prog: &KernelProgram, text: &str) -> Result<(), String> {
        let (name, value) = text
            .split_once('=')
            .ok_or_else(|| format!("a tuning parameter is set as NAME=VALUE, not {text:?}"))?;
        self.set(prog, name.trim(), value)
    }

    /// Sets the parameters of a tuning file: one `NAME=VALUE` per line
    /// (blank lines and lines starting with `#` are skipped). An error
    /// names the file and line.
    pub fn set_from_file(&self, prog: &KernelProgram, path: &str) -> Result<(), String> {
        let text = std::fs::read_to_string(path)
            .map_err(|e| format!("cannot read the tuning file {path}: {e}"))?;
        for (n, line) in text.lines().enumerate() {
            let line = line.trim();
            if line.is_empty() || line.starts_with('#') {
                continue;
            }
            self.set_assignment(prog, line)
                .map_err(|e| format!("{path}:{}: {e}", n + 1))?;
        }
        Ok(())
    }

    /// The value set for parameter `name`, if any.
    pub fn get(&self, name: &str) -> Option<u64> {
        self.0
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .get(name)
            .copied()
    }

    /// The group size set for kernel `kernel`: its own parameter, else
    /// `default_group_size`.
    pub fn group_size(&self, kernel: &str) -> Option<u64> {
        self.get(&format!("{kernel}.group_size"))
            .or_else(|| self.get("default_group_size"))
    }
}

/// The parameters of a program, as the server lists and sets them
/// ([`fut_runtime_multicore::tuning`]), in [`VALUES`].
pub struct Tuned(pub &'static KernelProgram);

impl fut_runtime_multicore::tuning::Tuning for Tuned {
    fn params(&self) -> Vec<(String, String)> {
        params(self.0)
            .into_iter()
            .map(|(n, c)| (n, c.to_string()))
            .collect()
    }

    fn set(&self, name: &str, value: &str) -> Result<(), String> {
        VALUES.set(self.0, name, value)
    }
}

/// The `--print-params` listing of `prog`: `NAME (CLASS)` per line.
pub fn listing(prog: &KernelProgram) -> String {
    params(prog)
        .into_iter()
        .map(|(n, c)| format!("{n} ({c})\n"))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::program::KernelInfo;

    static PROG: KernelProgram = KernelProgram {
        source: "",
        kernels: &[
            KernelInfo {
                name: "k0",
                label: "",
                group: 0,
                asserts: &[],
            },
            KernelInfo {
                name: "k1",
                label: "",
                group: 256,
                asserts: &[],
            },
        ],
        binaries: &[],
        thresholds: &[("row_group_threshold_0", 128)],
    };

    #[test]
    fn parameters_are_listed_checked_and_set() {
        let v = Values::new();
        assert_eq!(
            listing(&PROG),
            "default_group_size (group_size)\ndefault_threads (threads)\nk0.group_size (group_size)\nrow_group_threshold_0 (threshold)\n"
        );
        v.set_assignment(&PROG, "row_group_threshold_0=16").unwrap();
        assert_eq!(v.get("row_group_threshold_0"), Some(16));
        v.set_assignment(&PROG, "k0.group_size=32").unwrap();
        assert_eq!(v.group_size("k0"), Some(32));
        let e = v.set_assignment(&PROG, "k1.group_size=32").unwrap_err();
        assert!(e.contains("unknown tuning parameter k1.group_size"), "{e}");
        let e = v.set_assignment(&PROG, "default_threads=0").unwrap_err();
        assert!(e.contains("must be a positive integer"), "{e}");
        let e = v.set_assignment(&PROG, "default_threads").unwrap_err();
        assert!(e.contains("NAME=VALUE"), "{e}");
        let dir = std::env::temp_dir().join(format!("fut-params-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let file = dir.join("t.tuning");
        std::fs::write(&file, "# tuned\n\ndefault_threads=4096\nnope=1\n").unwrap();
        let e = v.set_from_file(&PROG, file.to_str().unwrap()).unwrap_err();
        assert!(
            e.ends_with(":4: unknown tuning parameter nope (--print-params lists them)"),
            "{e}"
        );
        assert_eq!(v.get("default_threads"), Some(4096));
        let e = v
            .set_from_file(&PROG, dir.join("none").to_str().unwrap())
            .unwrap_err();
        assert!(e.starts_with("cannot read the tuning file"), "{e}");
        std::fs::remove_dir_all(&dir).ok();
    }
}
