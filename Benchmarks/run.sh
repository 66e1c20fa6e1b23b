#!/usr/bin/env bash
# Runs every workload against Rill, OpenCombine and a hand-written loop in one run, prints the markdown table
# and writes docs/benchmarks.svg. Usage (from the repository root): Benchmarks/run.sh [--filter REGEX]
# Extra arguments go to `swift package benchmark` (e.g. --filter 'PassthroughSubject.*').
set -euo pipefail
cd "$(dirname "$0")"
mkdir -p .build
results=.build/benchmark-results.txt
swift package --allow-writing-to-package-directory benchmark --no-progress "$@" >"$results" 2>&1 || {
  cat "$results" >&2
  exit 1
}
mkdir -p ../docs
python3 report.py "$results" --elements 10000 --svg ../docs/benchmarks.svg
