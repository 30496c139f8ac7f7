//! The CPU that generated code is compiled for (`--target-cpu`,
//! `FUT_TARGET_CPU`).
//!
//! Executables are built for the machine that builds them by default
//! (`native`: rustc's `-C target-cpu=native`), as a hand-written program
//! compiled with `-march=native` is, so that the generated loops use the
//! machine's vector width and fused instructions (AVX2 and FMA on current
//! x86-64 machines). An executable meant for another machine takes a named
//! CPU or level instead (`x86-64` is every 64-bit x86 machine, `x86-64-v3`
//! one with AVX2); `rustc --print target-cpus` lists the names.
//!
//! Each CPU gets its own target directory in the cache (`target/` for
//! `native`, `target-<cpu>/` otherwise), so that builds for different CPUs
//! never rebuild each other's dependencies.

use std::path::{Path, PathBuf};
use std::process::Command;

/// The environment variable naming the default CPU.
pub const VAR: &str = "FUT_TARGET_CPU";

/// The CPU builds target when none is named: `FUT_TARGET_CPU`, else
/// `native`.
pub fn default_cpu() -> String {
    match std::env::var(VAR) {
        Ok(s) if !s.trim().is_empty() => s.trim().to_string(),
        _ => "native".to_string(),
    }
}

/// Checks a CPU name: `native`, or a name rustc lists for this target
/// (`rustc --print target-cpus`). The error says what to do.
pub fn check(cpu: &str) -> Result<(), String> {
    if cpu == "native" {
        return Ok(());
    }
    if cpu.is_empty()
        || !cpu
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, '-' | '_' | '.'))
    {
        return Err(format!(
            "error: `{cpu}` is not a CPU name; use `native` or a name that `rustc --print target-cpus` lists"
        ));
    }
    let rustc = std::env::var("RUSTC").unwrap_or_else(|_| "rustc".into());
    let listed = Command::new(&rustc)
        .args(["--print", "target-cpus"])
        .output()
        .map_err(|e| format!("error: cannot run {rustc} to check the CPU `{cpu}`: {e}"))?;
    let text = String::from_utf8_lossy(&listed.stdout);
    if known(&text, cpu) {
        Ok(())
    } else {
        Err(format!(
            "error: rustc knows no CPU `{cpu}` for this machine's target; `rustc --print target-cpus` lists them (`native`: this machine)"
        ))
    }
}

/// Whether `cpu` is one of the names in rustc's `--print target-cpus`
/// output (one CPU per indented line, its name first).
fn known(listing: &str, cpu: &str) -> bool {
    listing
        .lines()
        .filter(|l| l.starts_with(char::is_whitespace))
        .filter_map(|l| l.split_whitespace().next())
        .any(|name| name == cpu)
}

/// The rustc flags that select `cpu`, as `CARGO_ENCODED_RUSTFLAGS` takes
/// them.
pub fn rustflags(cpu: &str) -> String {
    format!("-Ctarget-cpu={cpu}")
}

/// The target directory in the cache `cache` of builds for `cpu`.
pub fn target_dir(cache: &Path, cpu: &str) -> PathBuf {
    if cpu == "native" {
        cache.join("target")
    } else {
        cache.join(format!("target-{cpu}"))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_are_read_from_rustcs_listing() {
        let listing = "Available CPUs for this target:\n    native         - Select the CPU of the current host.\n    x86-64\n    x86-64-v3\n    znver3\n";
        assert!(known(listing, "x86-64-v3"));
        assert!(known(listing, "znver3"));
        assert!(!known(listing, "x86"));
        assert!(!known(listing, "Available"));
    }

    #[test]
    fn bad_names_are_refused_with_a_hint() {
        assert!(check("native").is_ok());
        let e = check("no such cpu").unwrap_err();
        assert!(e.contains("rustc --print target-cpus"), "{e}");
        let e = check("pentium-9000").unwrap_err();
        assert!(e.contains("knows no CPU `pentium-9000`"), "{e}");
        assert!(check("x86-64").is_ok());
    }

    #[test]
    fn each_cpu_has_its_own_target_directory() {
        let c = Path::new("/c");
        assert_eq!(target_dir(c, "native"), Path::new("/c/target"));
        assert_eq!(target_dir(c, "x86-64"), Path::new("/c/target-x86-64"));
        assert_eq!(rustflags("x86-64-v3"), "-Ctarget-cpu=x86-64-v3");
    }
}
