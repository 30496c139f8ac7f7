//! The executable's `main`: the shared GPU command line
//! ([`fut_runtime_gpu::cli`]) with the CUDA devices.

use fut_runtime_gpu::KernelProgram;
use fut_runtime_gpu::cli::Api;
use fut_runtime_multicore::Program;

use crate::device::{list_devices, set_device_choice};

/// The CUDA help section.
pub const HELP: &str = "\nCUDA options:\n  \
    -d, --device NAME|INDEX        Use the first device whose name (or \"CUDA: NAME\") contains\n                                 \
    NAME, ignoring case, or the device numbered INDEX by\n                                 \
    --list-devices (default: $FUT_CUDA_DEVICE, else device 0).\n      \
    --list-devices             List the CUDA devices and exit.\n";

/// The CUDA runtime as the command line sees it.
pub static API: Api = Api {
    help: HELP,
    set_device_choice,
    list_devices,
};

/// The executable's `main`: the CUDA options, then the multicore
/// executable's; exits with its status.
pub fn main(program: &'static Program, kernels: &'static KernelProgram) -> ! {
    fut_runtime_gpu::cli::main(&API, program, kernels)
}

#[cfg(test)]
mod tests {
    use super::*;
    use fut_runtime_gpu::cli::run;

    #[test]
    fn help_adds_the_cuda_section() {
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
        assert_eq!(run(&API, &P, &K, vec!["--help".into()]), 0);
        assert!(HELP.starts_with("\nCUDA options:\n"));
        assert!(HELP.contains("--device NAME|INDEX") && HELP.contains("--list-devices"));
        assert!(HELP.contains("$FUT_CUDA_DEVICE"));
        // The descriptions start in column 33, as in the multicore help.
        for l in HELP.lines().skip(2) {
            assert!(
                l.len() > 33 && l.as_bytes()[32] == b' ' && l.as_bytes()[33] != b' ',
                "{l:?}"
            );
        }
        assert_eq!(run(&API, &P, &K, vec!["--device".into()]), 1);
    }
}
