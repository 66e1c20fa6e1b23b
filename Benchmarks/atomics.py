#!/usr/bin/env python3
"""Atomic read-modify-write instructions executed per element of one workload, by function.

usage: Benchmarks/atomics.py <Rill|OpenCombine|loop> "<workload>" [elements]

Build the probe first: (cd Benchmarks && swift build -c release --product rill-probe). The workload runs under
callgrind with N and 2N elements; every executed instruction that is lock-prefixed, or an xchg with memory (which
locks implicitly), is counted from the disassembly of its object, and the difference is divided by N. A plain
store, even with release ordering, is not a read-modify-write and is not counted. glibc's pthread mutex skips the
lock prefix while a process has a single thread, so OpenCombine's locks count nothing here.
"""
import collections
import os
import re
import subprocess
import sys

BUILT = os.path.join(os.path.dirname(os.path.abspath(__file__)), ".build", "release", "rill-probe")
PROBE = BUILT + "-nodebug"


def strip_probe():
    """Copies the probe without debug information, which valgrind 3.19 cannot read (the DWARF 5 that clang writes
    for the C targets of the dependencies); the code, and so every count, is the same."""
    if not os.path.exists(PROBE) or os.path.getmtime(PROBE) < os.path.getmtime(BUILT):
        objcopy = "llvm-objcopy" if subprocess.run(["which", "llvm-objcopy"], capture_output=True).returncode == 0 \
            else "objcopy"
        subprocess.run([objcopy, "--strip-debug", BUILT, PROBE], check=True)


def executed(framework, workload, elements):
    """Execution counts per (object, address), and the function each address belongs to."""
    out = f"/tmp/rill-atomics.{os.getpid()}.{elements}"
    subprocess.run(
        ["valgrind", "--tool=callgrind", "--dump-instr=yes", "--compress-pos=no", "--compress-strings=no",
         f"--callgrind-out-file={out}", PROBE, framework, workload, str(elements)],
        capture_output=True, check=True)
    counts, functions = collections.defaultdict(collections.Counter), {}
    obj = function = None
    after_call = False
    with open(out, errors="replace") as lines:
        for line in lines:
            if line.startswith("ob="):
                obj = line[3:].strip()
            elif line.startswith("fn="):
                function = line[3:].strip()
            elif line.startswith("calls="):
                after_call = True  # the next cost line is the call's inclusive cost
            elif match := re.match(r"(0x[0-9a-f]+) \S+ (\d+)", line):
                if after_call:
                    after_call = False
                    continue
                address = int(match.group(1), 16)
                counts[obj][address] += int(match.group(2))
                functions[(obj, address)] = function
    os.remove(out)
    return counts, functions


_atomic_addresses = {}


def atomic_addresses(obj):
    if obj not in _atomic_addresses:
        listing = subprocess.run(["objdump", "-d", "--no-show-raw-insn", obj], capture_output=True, text=True).stdout
        found = set()
        for line in listing.splitlines():
            if match := re.match(r"\s*([0-9a-f]+):\s+(.*)", line):
                instruction = match.group(2)
                if instruction.startswith("lock ") or (instruction.startswith("xchg") and "(" in instruction):
                    found.add(int(match.group(1), 16))
        _atomic_addresses[obj] = found
    return _atomic_addresses[obj]


def per_function(framework, workload, elements):
    counts, functions = executed(framework, workload, elements)
    tally = collections.Counter()
    for obj, by_address in counts.items():
        if obj and os.path.exists(obj):
            atomic = atomic_addresses(obj)
            for address, count in by_address.items():
                if address in atomic:
                    tally[functions[(obj, address)]] += count
    return tally


def main():
    framework, workload = sys.argv[1], sys.argv[2]
    strip_probe()
    elements = int(sys.argv[3]) if len(sys.argv) > 3 else 2000
    small = per_function(framework, workload, elements)
    large = per_function(framework, workload, 2 * elements)
    total = 0.0
    for function in sorted(set(small) | set(large)):
        difference = (large[function] - small[function]) / elements
        if abs(difference) >= 0.01:
            print(f"{difference:6.2f}  {function[:150]}")
            total += difference
    print(f"{total:6.2f}  atomic read-modify-writes per element: {framework} | {workload}")


if __name__ == "__main__":
    main()
