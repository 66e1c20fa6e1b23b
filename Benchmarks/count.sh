#!/usr/bin/env bash
# Instructions and allocations per element of one workload, from valgrind (repeatable on a noisy machine):
#   Benchmarks/count.sh <Rill|OpenCombine|loop> "<workload>" [elements]
# Runs the workload with N and 2N elements and divides the difference by N, so set-up costs drop out.
set -euo pipefail
cd "$(dirname "$0")"
framework=$1 workload=$2 n=${3:-2000}
probe=.build/release/rill-probe
[ -x "$probe" ] || swift build -c release --product rill-probe >&2
instructions() {
  valgrind --tool=callgrind --callgrind-out-file=/dev/null "$probe" "$framework" "$workload" "$1" 2>&1 |
    sed -n 's/.*Collected : \([0-9]*\).*/\1/p'
}
allocations() {
  valgrind "$probe" "$framework" "$workload" "$1" 2>&1 | sed -n 's/.*total heap usage: \([0-9,]*\) allocs.*/\1/p' | tr -d ,
}
i1=$(instructions "$n") i2=$(instructions $((2 * n)))
a1=$(allocations "$n") a2=$(allocations $((2 * n)))
python3 -c "import sys; print(f'{sys.argv[1]} | {sys.argv[2]} | {($i2 - $i1) / $n:.0f} instructions/element | {($a2 - $a1) / $n:.3f} allocations/element')" "$framework" "$workload"
