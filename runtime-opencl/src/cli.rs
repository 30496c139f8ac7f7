//! The executable's `main`: the shared GPU command line
//! ([`fut_runtime_gpu::cli`]) with the OpenCL devices.

use fut_runtime_gpu::KernelProgram;
use fut_runtime_gpu::cli::Api;
use fut_runtime_multicore::Program;

use crate::device::{list_devices, set_device_choice};

/// The OpenCL help section.
pub const HELP: &str = "\nOpenCL options:\n  \
    -d, --device NAME              Use the first device whose name (or \"PLATFORM: NAME\")\n                                 \
    contains NAME, ignoring case, or the device numbered NAME by\n                                 \
    --list-devices (default: $FUT_OPENCL_DEVICE, else the first\n                                 \
    GPU, else the first device).\n      \
    --list-devices             List the OpenCL devices and exit.\n";

/// The OpenCL runtime as the command line sees it.
pub static API: Api = Api {
    help: HELP,
    set_device_choice,
    list_devices,
};

/// The executable's `main`: the OpenCL options, then the multicore
/// executable's; exits with its status.
pub fn main(program: &'static Program, kernels: &'static KernelProgram) -> ! {
    fut_runtime_gpu::cli::main(&API, program, kernels)
}

#[cfg(test)]
mod tests {
    use super::*;
    use fut_runtime_gpu::cli::run;

    #[test]
    fn help_adds_the_opencl_section() {
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
        assert!(HELP.contains("--device NAME") && HELP.contains("--list-devices"));
        assert_eq!(run(&API, &P, &K, vec!["--device".into()]), 1);
    }
}
