"""Tests of the CUDA compile-only check (check.py): the test-block reading, the kernel
source taken from fut's output, the parsing of `ptxas -v` and of prelude.rs's build
options, the collection of programs, and (when NVRTC and ptxas are already unpacked
under target/cuda-tools) a run on a fake `fut` whose kernels fail in each way.

Run with `python3 -m unittest discover -s tools/cuda` from the project root.
"""

import contextlib
import io
import os
import sys
import tempfile
import textwrap
import unittest
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import check  # noqa: E402

FUT_OUTPUT = """\
entry main(n: i64, xs_mem: mem f64) {
  // a comment in the imperative IR
  par kernel k0 i < n {
    xs[i] = 1.0
  }
}

// 2 kernels
/* prelude */
typedef unsigned long ulong;
#define __kernel extern "C" __global__

__kernel void k0(__global long *fut_fail, long fut_n) {
  long fut_gid = get_global_id(0);
}

__kernel void k1(__global long *fut_fail, long fut_n, __global double *m0) {
  m0[0] = 1.0;
}
// host loop in main at prog.fut:3:5-9: a call of a function
// host loop in f: an allocation in a kernel
"""

PTXAS_OUTPUT = """\
ptxas info    : 272 bytes gmem, 16 bytes cmem[4]
ptxas info    : Compiling entry function 'k1' for 'sm_80'
ptxas info    : Function properties for k1
    0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads
ptxas info    : Used 35 registers, used 0 barriers, 472 bytes cmem[0]
ptxas info    : Compile time = 19.808 ms
ptxas info    : Function properties for futk_helper
    8 bytes stack frame, 4 bytes spill stores, 4 bytes spill loads
ptxas info    : Compiling entry function 'k0' for 'sm_80'
ptxas info    : Function properties for k0
    40 bytes stack frame, 24 bytes spill stores, 16 bytes spill loads
ptxas info    : Used 255 registers, used 1 barriers, 380 bytes cmem[0]
ptxas info    : Compile time = 5.000 ms
"""


class TestBlockTests(unittest.TestCase):
    def test_no_block(self):
        self.assertIsNone(check.test_block("-- just a comment\ndef main = 1\n"))
        self.assertIsNone(check.test_block("def main = 1 -- ==\n"))

    def test_block_directives(self):
        src = "-- Description.\n-- ==\n-- input { 1 }\n-- output { 2 }\ndef main x = x + 1\n"
        self.assertEqual(check.test_block(src), " input { 1 }\n output { 2 }")

    def test_compile_error_tests(self):
        self.assertTrue(check.expects_compile_error("-- ==\n-- error: T001\ndef x = y\n"))
        self.assertTrue(
            check.expects_compile_error("-- ==\n-- tags { a b }\n--\n-- error: T002|mismatch\n")
        )
        # A run-time error follows an input.
        self.assertFalse(
            check.expects_compile_error("-- ==\n-- input { 0 } error: Division by zero\n")
        )
        self.assertFalse(check.expects_compile_error("-- ==\n-- input { 1 }\n-- error: x\n"))
        self.assertFalse(check.expects_compile_error("def main = 1\n"))


class KernelSourceTests(unittest.TestCase):
    def test_source_between_count_and_host_loops(self):
        src, n = check.kernel_source(FUT_OUTPUT)
        self.assertEqual(n, 2)
        self.assertTrue(src.startswith("/* prelude */\n"))
        self.assertTrue(src.endswith("  m0[0] = 1.0;\n}\n"))
        self.assertNotIn("host loop", src)
        self.assertNotIn("par kernel", src)
        self.assertEqual(check.kernel_names(src), ["k0", "k1"])
        bounded = "__kernel void __launch_bounds__(256, 2) k7(long n) {\n}\n"
        self.assertEqual(check.kernel_names(bounded), ["k7"])

    def test_no_host_loops(self):
        src, n = check.kernel_source("entry main() {\n}\n\n// 0 kernels\n/* prelude */\n")
        self.assertEqual((src, n), ("/* prelude */\n", 0))

    def test_missing_count(self):
        with self.assertRaises(ValueError):
            check.kernel_source("entry main() {\n}\n")


class PtxasTests(unittest.TestCase):
    def test_parse(self):
        funcs = check.parse_ptxas(PTXAS_OUTPUT)
        self.assertEqual(set(funcs), {"k0", "k1", "futk_helper"})
        self.assertEqual(
            funcs["k1"],
            {"registers": 35, "stack": 0, "spill_stores": 0, "spill_loads": 0, "entry": True},
        )
        self.assertEqual(
            funcs["k0"],
            {"registers": 255, "stack": 40, "spill_stores": 24, "spill_loads": 16, "entry": True},
        )
        self.assertFalse(funcs["futk_helper"]["entry"])
        self.assertEqual(funcs["futk_helper"]["spill_stores"], 4)

    def test_spill_bound(self):
        funcs = check.parse_ptxas(PTXAS_OUTPUT)
        self.assertEqual(
            check.spills(funcs, 0),
            [
                "futk_helper: 4 bytes spill stores, 4 bytes spill loads",
                "k0: 24 bytes spill stores, 16 bytes spill loads",
            ],
        )
        self.assertEqual(check.spills(funcs, 16), ["k0: 24 bytes spill stores, 16 bytes spill loads"])
        self.assertEqual(check.spills(funcs, 24), [])


class BuildOptionsTests(unittest.TestCase):
    def test_fixed_text(self):
        rust = textwrap.dedent(
            """
            pub fn build_options(target: Target) -> &'static [&'static str] {
                match target {
                    Target::OpenCl => &["-cl-fp32-correctly-rounded-divide-sqrt"],
                    Target::Cuda => &[
                        "--fmad=false",
                        "--ftz=false",
                    ],
                }
            }
            """
        )
        self.assertEqual(check.cuda_build_options(rust), ["--fmad=false", "--ftz=false"])
        with self.assertRaises(check.ToolError):
            check.cuda_build_options("fn other() {}")

    def test_prelude_rs(self):
        options = check.cuda_build_options(check.PRELUDE_RS.read_text())
        self.assertIn("--fmad=false", options)
        self.assertTrue(all(o.startswith("-") for o in options))


class CollectTests(unittest.TestCase):
    def test_folders_and_files(self):
        with tempfile.TemporaryDirectory() as d:
            d = Path(d)
            (d / "sub").mkdir()
            (d / "bench-suite" / "x").mkdir(parents=True)
            (d / "a.fut").write_text("-- ==\n-- input { 1 }\ndef main x = x\n")
            (d / "sub" / "lib.fut").write_text("def f x = x\n")
            (d / "sub" / "b.fut").write_text("-- ==\n-- error: T001\n")
            (d / "bench-suite" / "x" / "c.fut").write_text("def main x = x\n")
            (d / "notes.txt").write_text("-- ==\n")
            got = check.collect_programs([d, d / "sub" / "lib.fut", d / "a.fut"])
            self.assertEqual(
                got,
                [
                    d / "a.fut",
                    d / "bench-suite" / "x" / "c.fut",
                    d / "sub" / "b.fut",
                    d / "sub" / "lib.fut",
                ],
            )
            with self.assertRaises(check.ToolError):
                check.collect_programs([d / "missing"])


TOOLS = check.ROOT / "target" / "cuda-tools"
HAVE_TOOLS = (TOOLS / "VERSION").is_file() and (TOOLS / check.NVRTC).is_file()

FAKE_FUT = """\
#!/bin/sh
# fut dev --print=cuda PROG: prints PROG's .out file, or fails when there is none.
out="${3%.fut}.out"
if [ -f "${3%.fut}.crash" ]; then echo "thread 'main' panicked at src/x.rs:1:1" >&2; exit 101; fi
if [ -f "$out" ]; then cat "$out"; else echo "error: cannot compile $3" >&2; exit 1; fi
"""

PRELUDE = '#define __kernel extern "C" __global__\n'


def fut_output(kernels):
    return "entry main() {\n}\n\n// %d kernels\n%s\n%s" % (len(kernels), PRELUDE, "\n".join(kernels))


@unittest.skipUnless(HAVE_TOOLS, "NVRTC and ptxas are not unpacked under target/cuda-tools")
class EndToEndTests(unittest.TestCase):
    def run_check(self, programs, *extra):
        with tempfile.TemporaryDirectory() as d:
            d = Path(d)
            fut = d / "fut"
            fut.write_text(FAKE_FUT)
            fut.chmod(0o755)
            for name, (src, out) in programs.items():
                (d / f"{name}.fut").write_text(src)
                if out == "crash":
                    (d / f"{name}.crash").write_text("")
                elif out is not None:
                    (d / f"{name}.out").write_text(out)
            stdout = io.StringIO()
            with contextlib.redirect_stdout(stdout):
                rc = check.main(
                    [str(d), "--fut", str(fut), "--tools", str(TOOLS), "-j", "1", "--no-cache", *extra]
                )
            return rc, stdout.getvalue().replace(str(d) + os.sep, "")

    def test_outcomes(self):
        test = "-- ==\n-- input { 1 }\n"
        good = "__kernel void k0(long *fail, long n, double *m) { m[0] = (double)n; }\n"
        rc, out = self.run_check(
            {
                "good": (test, fut_output([good])),
                "none": (test, fut_output([])),
                "syntax": (test, fut_output(["__kernel void k0(long n) { n = ; }\n"])),
                "asm": (test, fut_output(['__kernel void k0(long n) { asm volatile("bogus.op;"); }\n'])),
                "count": (test, fut_output([good]).replace("// 1 kernels", "// 2 kernels")),
                "rejected": ("-- ==\n-- error: T001\n", None),
                "unsupported": (test, None),
                "crash": (test, "crash"),
            }
        )
        self.assertEqual(rc, 1, out)
        self.assertIn("FAILED: syntax.fut\n  NVRTC (compute_90):\n  kernels.cu(", out)
        self.assertIn("error: expected an expression", out)
        self.assertIn("NVRTC (compute_80):", out)
        self.assertIn("FAILED: asm.fut\n  ptxas (sm_90):\n", out)
        self.assertIn("bogus", out)
        self.assertIn("FAILED: count.fut\n  `// 2 kernels` but 1 `__kernel void` definitions", out)
        self.assertIn("ptxas kernels.compute_80.ptx, line ", out)
        self.assertIn("FAILED: crash.fut\n  fut dev crashed:\n  thread 'main' panicked", out)
        self.assertIn("skipped: unsupported.fut: fut cannot compile it (error: cannot compile ", out)
        self.assertNotIn("rejected.fut", out)
        self.assertNotIn("FAILED: good.fut", out)
        self.assertNotIn("FAILED: none.fut", out)
        self.assertIn(
            "cuda check: 8 programs, 1 kernels compiled for sm_90 and sm_80 (1 programs, "
            "1 without kernels), 2 skipped (1 compile-error tests, 1 that fut cannot compile), "
            "4 failed, ",
            out,
        )

    def test_spills(self):
        # At most 32 registers a thread (two blocks of 1024 threads on one SM).
        spilling = textwrap.dedent(
            """\
            __kernel void __launch_bounds__(1024, 2) k0(double *m, long n) {
              double v[48];
              for (int i = 0; i < 48; i++) v[i] = m[i * n + threadIdx.x];
              double acc = 0;
              for (int i = 0; i < 48; i++)
                for (int j = 0; j < 48; j++) acc += v[i] * v[(j * 7 + i) % 48] / (v[j] + 1.0);
              for (int i = 0; i < 48; i++) m[i * n + threadIdx.x] = acc * v[i];
            }
            """
        )
        programs = {"spill": ("-- ==\n-- input { 1 }\n", fut_output([spilling]))}
        rc, out = self.run_check(programs, "--arch", "sm_90")
        self.assertEqual(rc, 1, out)
        self.assertRegex(
            out, r"FAILED: spill.fut\n  ptxas \(sm_90\): spills over 0 bytes:\n  k0: \d+ bytes spill"
        )
        rc, out = self.run_check(programs, "--arch", "sm_90", "--max-spill", "1000000")
        self.assertEqual(rc, 0, out)

    def test_one_arch(self):
        test = "-- ==\n-- input { 1 }\n"
        good = "__kernel void k0(long *fail, long n, double *m) { m[0] = (double)n; }\n"
        rc, out = self.run_check({"good": (test, fut_output([good]))}, "--arch", "sm_80")
        self.assertEqual(rc, 0, out)
        self.assertIn("cuda check: sm_80: at most ", out)
        self.assertNotIn("sm_90", out)


if __name__ == "__main__":
    unittest.main()
