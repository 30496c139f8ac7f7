#!/usr/bin/env bash
# Compares the `fut multicore` executables of bench-suite/adbench with the
# hand-written Rust objectives of bench-suite/adbench/reference-rust, ADBench's way:
# for each input, the objective and the Jacobian of the compiled program on one
# thread (their ratio is ADBench's headline figure), the compiled objective on one
# and two threads, and the Rust objective on one and two threads; prints a Markdown
# table with the ratios.
#
# usage: tools/adbench/compare_reference.sh [--budget SECONDS] [--no-jacobian]
#            [--jacobian-max-mb MB] [ADBENCH_FILE.txt ...]
#
# Without files: the largest input of each problem in the ADBench data folder
# ($FUT_ADBENCH_DATA, else ../shared/adbench next to the project root): GMM by N·K·D²,
# BA by its observations, Hand (simple and complicated, the big model) and LSTM by
# their sizes, from the files' headers. A file's problem is the folder under the data
# folder it sits in (gmm, ba, hand, lstm). --budget bounds the seconds spent timing
# one entry at one thread count (default 60; at least one call is always timed).
# The Jacobian is left out for a converted input over --jacobian-max-mb megabytes
# (default 200): BA's largest file gives a 1 GB input whose CSR Jacobian needs about
# 11 GB.
# Inputs are converted once, into target/adbench-compare/ (or $FUT_ADBENCH_WORK).
set -euo pipefail

root=$(cd "$(dirname "$0")/../.." && pwd)
cd "$root"
data=${FUT_ADBENCH_DATA:-$root/../shared/adbench}
work=${FUT_ADBENCH_WORK:-$root/target/adbench-compare}
budget=60
jacobian=1
jacobian_max_mb=200
files=()
while [ $# -gt 0 ]; do
    case $1 in
        --budget) budget=${2:?--budget needs a number of seconds}; shift 2 ;;
        --no-jacobian) jacobian=0; shift ;;
        --jacobian-max-mb) jacobian_max_mb=${2:?--jacobian-max-mb needs a number}; shift 2 ;;
        -h|--help) sed -n '2,21p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
        -*) echo "compare_reference.sh: unknown option $1" >&2; exit 2 ;;
        *) files+=("$1"); shift ;;
    esac
done

die() { echo "compare_reference.sh: $*" >&2; exit 1; }

# The file of $1 (a folder) whose header gives the largest value of the awk
# expression $2 over the header's fields.
largest() {
    local best="" best_size=-1 f size
    while IFS= read -r f; do
        size=$(head -n 1 "$f" | awk "{ printf \"%.0f\", $2 }")
        if [ "$size" -gt "$best_size" ]; then best=$f; best_size=$size; fi
    done < <(find "$1" -name '*.txt' | sort)
    [ -n "$best" ] || die "no input in $1"
    echo "$best"
}

if [ ${#files[@]} -eq 0 ]; then
    [ -d "$data" ] || die "no ADBench data folder at $data (set FUT_ADBENCH_DATA)"
    files=(
        "$(largest "$data/gmm" '$3 * $2 * $1 * $1')"
        "$(largest "$data/ba" '$3')"
        "$(largest "$data/hand/simple_big" '$1')"
        "$(largest "$data/hand/complicated_big" '$1')"
        "$(largest "$data/lstm" '$1 * $2')"
    )
fi

problem_of() {
    case $1 in
        */gmm/*) echo gmm ;; */ba/*) echo ba ;; */hand/*) echo hand ;; */lstm/*) echo lstm ;;
        *) die "$1: cannot tell the problem (expected a path under gmm/, ba/, hand/ or lstm/)" ;;
    esac
}

mkdir -p "$work"
[ -x target/debug/fut ] || cargo build -p fut
cargo build --release --quiet --manifest-path bench-suite/adbench/reference-rust/Cargo.toml
ref=bench-suite/adbench/reference-rust/target/release/adbench-ref

# ADBench's measure for a compiled entry: calls in batches of at least half a second
# (one call when a call takes longer), up to ten batches within the budget; the
# minimum over the batches of the time per call, in microseconds. A first, cold call
# sizes the batches; when it alone is a batch and the budget has room for no second,
# it is the measurement.
time_entry() { # EXE ENTRY INPUT THREADS
    python3 - "$@" "$budget" <<'EOF'
import math, subprocess, sys, tempfile
exe, entry, inp, threads, budget = sys.argv[1:6]
budget = float(budget)
data = open(inp, "rb").read()
def runs(n):
    """The times of n runs after a warm-up, or of one run without one when n is 0."""
    with tempfile.NamedTemporaryFile("r", suffix=".txt") as t:
        cmd = [exe, "-e", entry, "-n", "-t", t.name, "--num-threads", threads]
        cmd += ["-r", str(n)] if n else []
        done = subprocess.run(cmd, input=data, capture_output=True)
        if done.returncode != 0:
            sys.exit(f"{' '.join(cmd)} < {inp} failed: {done.stderr.decode(errors='replace')}")
        return [float(x) for x in t.read().split()]
first = runs(0)[0]
if first >= 0.5e6 and 2 * first > budget * 1e6:
    # One call is a batch, and the budget has room for no other.
    print(f"{first:.1f}")
    sys.exit(0)
first = min(first, runs(1)[0])
per_batch = max(1, math.ceil(0.5e6 / max(first, 1.0)))
batches = int(max(1, min(10, budget * 1e6 // (per_batch * max(first, 1.0)))))
times = runs(per_batch * batches) if per_batch * batches > 1 else [first]
best = min(sum(times[i:i + per_batch]) / per_batch for i in range(0, len(times), per_batch))
print(f"{best:.1f}")
EOF
}

ref_time() { # PROBLEM INPUT THREADS
    "$ref" "$1" "$2" --threads "$3" --time-limit "$budget" | sed -n 's/.*: \([0-9.]*\) us per call.*/\1/p'
}

ms() { awk -v x="$1" 'BEGIN { if (x == "") print "–"; else if (x >= 1e5) printf "%.0f", x / 1000; else printf "%.3g", x / 1000 }'; }
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { if (a == "" || b == "" || b == 0) print "–"; else printf "%.2f", a / b }'; }

echo "load before: $(cut -d' ' -f1-3 /proc/loadavg), $(nproc) cores" >&2
rows=()
for f in "${files[@]}"; do
    problem=$(problem_of "$f")
    rel=$problem/${f##*/"$problem"/}
    name=$(echo "${rel%.txt}" | tr '/' '_')
    in=$work/$name.in
    if [ ! -s "$in" ] || [ "$f" -nt "$in" ]; then
        echo "converting $rel" >&2
        python3 tools/adbench/adbench.py convert "$problem" "$f" "$in" >&2
    fi
    exe=$work/$problem
    if [ ! -x "$exe" ] || [ "bench-suite/adbench/$problem.fut" -nt "$exe" ] || [ target/debug/fut -nt "$exe" ]; then
        echo "compiling $problem.fut" >&2
        ./target/debug/fut multicore "bench-suite/adbench/$problem.fut" -o "$exe" >&2
    fi
    echo "timing $rel" >&2
    r1=$(ref_time "$problem" "$in" 1)
    r2=$(ref_time "$problem" "$in" 2)
    o1=$(time_entry "$exe" calculate_objective "$in" 1)
    o2=$(time_entry "$exe" calculate_objective "$in" 2)
    j1=""
    if [ "$jacobian" = 1 ]; then
        if [ "$(stat -c %s "$in")" -gt $((jacobian_max_mb * 1000000)) ]; then
            echo "leaving out the Jacobian of $rel: its input is over $jacobian_max_mb MB" >&2
        else
            j1=$(time_entry "$exe" calculate_jacobian "$in" 1)
        fi
    fi
    row="| \`$rel\` | $(ms "$o1") | $(ms "$j1") | $(ratio "$j1" "$o1") | $(ms "$o2") | $(ms "$r1") | $(ms "$r2") | $(ratio "$o1" "$r1") | $(ratio "$o2" "$r2") |"
    echo "$row" >&2
    rows+=("$row")
done
echo "load after: $(cut -d' ' -f1-3 /proc/loadavg)" >&2

echo "| input | fut objective, 1 thread (ms) | fut Jacobian, 1 thread (ms) | Jacobian ÷ objective | fut objective, 2 threads (ms) | Rust objective, 1 thread (ms) | Rust objective, 2 threads (ms) | fut ÷ Rust, 1 thread | fut ÷ Rust, 2 threads |"
echo "|---|---|---|---|---|---|---|---|---|"
printf '%s\n' "${rows[@]}"
