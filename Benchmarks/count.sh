#!/usr/bin/env bash
# Instructions and allocations per element of one workload, from valgrind (repeatable on a noisy machine):
#   Benchmarks/count.sh <Rill|OpenCombine|loop> "<workload>" [elements]
#   Benchmarks/count.sh <Rill|OpenCombine> idle [subscriptions]   # bytes and blocks an idle subscription keeps
# Runs the workload with N and 2N elements and divides the difference by N, so set-up costs drop out.
set -euo pipefail
cd "$(dirname "$0")"
framework=$1 workload=$2 n=${3:-2000}
built=.build/release/rill-probe
[ -x "$built" ] || swift build -c release --product rill-probe >&2
# valgrind (3.19 here) gives up on the DWARF 5 that clang writes for the C targets of the dependencies (swift-atomics'
# and OpenCombine's), so it runs a copy without debug information: the same instructions, and the same counts.
probe=.build/release/rill-probe-nodebug
if [ ! "$probe" -nt "$built" ]; then
  "$(command -v llvm-objcopy || command -v objcopy)" --strip-debug "$built" "$probe"
fi
if [ "$workload" = idle ]; then
  # valgrind's "in use at exit": the probe makes the subscriptions and exits without freeing them. Bytes are the
  # sizes asked of malloc; each block also costs malloc's header and rounding (8 to 16 bytes on glibc).
  kept() { valgrind "$probe" "$framework" idle "$1" 2>&1 | sed -n 's/.*in use at exit: \([0-9,]*\) bytes in \([0-9,]*\) blocks.*/\1 \2/p' | tr -d ,; }
  read -r b1 k1 <<<"$(kept "$n")"
  read -r b2 k2 <<<"$(kept $((2 * n)))"
  python3 -c "import sys; n=int(sys.argv[2]); print(f'{sys.argv[1]} | idle subscription | {($b2 - $b1) / n:.0f} bytes kept | {($k2 - $k1) / n:.2f} blocks')" "$framework" "$n"
  exit 0
fi
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
