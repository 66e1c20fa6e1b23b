#!/usr/bin/env python3
"""What a value costs in each operator row (Sources/RillWorkloads/OperatorRows*.swift), Rill and OpenCombine.

usage:
  Benchmarks/rows.py table [--elements N] [--filter TEXT] [--time] [--only Rill]   # a Markdown table
  Benchmarks/rows.py check [--elements N]     # fails on a Rill row with run-time metadata look-ups per element
  Benchmarks/rows.py callers --filter TEXT    # who makes each look-up, cast and malloc, per element

Each framework's rows run in one process under callgrind (`rill-rows <framework> count N`): every row runs with a
tenth of N elements to warm up, then with N and with 2N, each counted run in a callgrind dump of its own. The
difference between a row's two dumps, divided by N, is what one element costs, with the row's set-up left out:

- instructions: callgrind's instruction count;
- look-ups: calls into the Swift runtime's type-metadata and witness-table functions (METADATA below) from outside
  the runtime. Each is a search of one of the runtime's concurrent caches; code specialised for its types makes
  none, because it refers to its metadata through a cache of its own that the runtime fills once. A call from the
  runtime itself (a cast that looks up a conformance, a cache that instantiates a type) is part of the call that
  got there, not a look-up of its own;
- casts: calls into the runtime's dynamic casts and conformance look-ups (CASTS below), the same kind of cache
  search, asked for by `as?`, `as!` or by code that checks a protocol at run time (the standard library's
  `String(describing:)` does);
- mallocs: calls into malloc and its siblings (from anywhere but themselves: the Swift runtime allocates through
  them).

Call counts are exact, so the look-ups of a row repeat to the call however loaded the machine is. `check` runs the
Rill rows only and fails when a row makes look-ups per element (at least one per hundred elements: an amortised
growth, such as an array that doubles, makes a few calls in all and stays far below) unless metadata-allowlist.txt
names the row with its reason. `--time` adds each row's best wall-clock time per element outside valgrind.
"""
import argparse
import collections
import os
import re
import shutil
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
BUILT = os.path.join(HERE, ".build", "release", "rill-rows")
# valgrind (3.19 here) gives up on the DWARF 5 that clang writes for the C targets of the dependencies (swift-atomics'
# and OpenCombine's), so callgrind runs a copy without debug information: the same instructions, the same symbols.
PROBE = os.path.join(HERE, ".build", "release", "rill-rows-nodebug")
ALLOWLIST = os.path.join(HERE, "metadata-allowlist.txt")

# The runtime's entry points that find or make type metadata or a witness table at run time, and the helpers that
# the compiler emits into the binary to call them: a generic type's metadata accessor calls
# `__swift_instantiateGenericMetadata`, which searches the runtime's cache on every call (unlike
# `__swift_instantiateConcreteTypeFromMangledName`, which caches its answer in the binary and is not counted).
METADATA = re.compile(
    r"^(swift_(getGenericMetadata|getTupleTypeMetadata\d?|getFunctionTypeMetadata\w*|getExistentialTypeMetadata"
    r"|getExistentialMetatypeMetadata|getExtendedExistentialTypeMetadata\w*|getMetatypeMetadata"
    r"|getOpaqueType(Metadata|Conformance)\d?|getWitnessTable|getAssociatedTypeWitness"
    r"|getAssociatedConformanceWitness|getTypeByMangledName\w*|checkMetadataState|getCanonical\w*Metadata"
    r"|getForeignTypeMetadata|getSingletonMetadata)"
    r"|__swift_instantiate(Generic|CanonicalPrespecializedGeneric)Metadata)$"
)
# The runtime's dynamic casts and conformance look-ups.
CASTS = re.compile(r"^swift_(dynamicCast\w*|conformsToProtocol\w*)$")
ALLOCATIONS = re.compile(r"^(malloc|calloc|realloc|posix_memalign|aligned_alloc|memalign)$")
# The runtime's allocation entry points, to show who allocates (`callers`).
SWIFT_ALLOCATIONS = re.compile(r"^swift_(allocObject|allocBox|slowAlloc|allocEmptyBox|task_alloc)$")
# Callers inside the runtime (its C++ and its C entry points): their calls belong to the call that got there.
RUNTIME = re.compile(r"^(swift::|swift_|_swift_|__swift_|\(anonymous namespace\)|std::|void swift::)")
# A type's metadata accessor, as the compiler names it.
ACCESSOR = re.compile(r"^\$s\w*Ma$")
# A threshold below one per element, for amortised growth (see the module's documentation).
PER_ELEMENT = 0.01


def build():
    subprocess.run(["swift", "build", "-c", "release", "--product", "rill-rows"], cwd=HERE, check=True,
                   stdout=sys.stderr)


def strip():
    if not os.path.exists(PROBE) or os.path.getmtime(PROBE) < os.path.getmtime(BUILT):
        objcopy = shutil.which("llvm-objcopy") or shutil.which("objcopy")
        subprocess.run([objcopy, "--strip-debug", BUILT, PROBE], check=True)


def parse_dump(path, by_caller=None):
    """Instructions, look-ups, casts and mallocs in one callgrind dump; look-ups, casts and mallocs also by caller
    and callee into `by_caller`, when given."""
    totals = collections.Counter()
    edges = collections.Counter()
    caller = callee = None
    with open(path, errors="replace") as lines:
        for line in lines:
            if line.startswith("fn="):
                caller = re.sub(r"'\d+$", "", line[3:].strip())
            elif line.startswith("cfn="):
                callee = re.sub(r"'\d+$", "", line[4:].strip())
            elif line.startswith("calls="):
                edges[(caller or "", callee)] += int(line[6:].split()[0])
            elif line.startswith("summary:") or line.startswith("totals:"):
                totals["instructions"] = int(line.split()[1])
    # A type's metadata accessor (a mangled name ending in `Ma`) that the runtime calls, in a cast for instance, looks
    # up on the runtime's behalf: that share of its look-ups belongs to the call that got there (the cast).
    incoming, from_runtime = collections.Counter(), collections.Counter()
    for (caller, callee), count in edges.items():
        incoming[callee] += count
        if RUNTIME.match(caller):
            from_runtime[callee] += count
    for (caller, callee), count in edges.items():
        kind = None
        if ALLOCATIONS.match(callee):
            if not ALLOCATIONS.match(caller):
                kind = "mallocs"
        elif RUNTIME.match(caller):
            continue
        elif METADATA.match(callee):
            kind = "lookups"
            if ACCESSOR.match(caller) and incoming[caller]:
                count = round(count * (1 - from_runtime[caller] / incoming[caller]))
        elif CASTS.match(callee):
            kind = "casts"
        elif by_caller is not None and SWIFT_ALLOCATIONS.match(callee):
            by_caller[("allocates", caller, callee)] += count
        if kind and count:
            totals[kind] += count
            if by_caller is not None:
                by_caller[(kind, caller, callee)] += count
    return totals


def count(framework, elements, name_filter, callers=False):
    """Per-element costs of each row of `framework`, by row name, in table order; with `callers`, also who makes
    each look-up, cast and malloc."""
    with tempfile.TemporaryDirectory(prefix="rill-rows.") as directory:
        out = os.path.join(directory, "callgrind.out")
        arguments = [PROBE, framework, "count", str(elements)] + ([name_filter] if name_filter else [])
        run = subprocess.run(
            ["valgrind", "--tool=callgrind", "--dump-before=rill_rows_boundary", "--dump-instr=no",
             "--compress-strings=no", "--compress-pos=no", f"--callgrind-out-file={out}"] + arguments,
            capture_output=True, text=True, env=dict(os.environ, SWIFT_DETERMINISTIC_HASHING="1"))
        if run.returncode != 0:
            sys.exit(f"rows.py: rill-rows {framework} failed:\n{run.stderr[-3000:]}")
        names = [line.split("\t")[0] for line in run.stdout.splitlines() if line]
        results = collections.OrderedDict()
        for index, name in enumerate(names):
            small_callers, large_callers = collections.Counter(), collections.Counter()
            small = parse_dump(f"{out}.{3 * index + 2}", small_callers)
            large = parse_dump(f"{out}.{3 * index + 3}", large_callers)
            results[name] = {key: (large[key] - small[key]) / elements
                             for key in ("instructions", "lookups", "casts", "mallocs")}
            if callers:
                results[name]["callers"] = {
                    edge: (large_callers[edge] - small_callers[edge]) / elements
                    for edge in set(small_callers) | set(large_callers)
                    if abs(large_callers[edge] - small_callers[edge]) / elements >= PER_ELEMENT}
        return results


def times(framework, name_filter, elements=5_000, repeats=5):
    arguments = [PROBE, framework, "time", str(elements), str(repeats)] + ([name_filter] if name_filter else [])
    run = subprocess.run(arguments, capture_output=True, text=True, check=True)
    return {name: float(ns) for name, ns, _ in (line.split("\t") for line in run.stdout.splitlines() if line)}


def groups(name_filter):
    run = subprocess.run([PROBE, "Rill", "list"], capture_output=True, text=True, check=True)
    ordered = collections.OrderedDict()
    for line in run.stdout.splitlines():
        group, name = line.split("\t")
        if not name_filter or name_filter in name:
            ordered.setdefault(group, []).append(name)
    return ordered


def allowlist():
    allowed = {}
    if os.path.exists(ALLOWLIST):
        with open(ALLOWLIST) as lines:
            for line in lines:
                if line.strip() and not line.startswith("#"):
                    name, _, reason = line.rstrip("\n").partition(" | ")
                    allowed[name.strip()] = reason.strip()
    return allowed


def number(value, digits=0):
    if value is None:
        return "n/a"
    if digits == 0:
        return f"{value:,.0f}"
    return f"{value:,.{digits}f}"


def table(arguments):
    frameworks = arguments.only.split(",") if arguments.only else ["Rill", "OpenCombine"]
    counted = {framework: count(framework, arguments.elements, arguments.filter) for framework in frameworks}
    timed = {framework: times(framework, arguments.filter) for framework in frameworks} if arguments.time else {}
    header = ["row"]
    for column in ("instr.", "look-ups", "casts", "mallocs") + (("ns",) if arguments.time else ()):
        header += [f"{framework} {column}" for framework in frameworks]
    print("| " + " | ".join(header) + " |")
    print("|---" + "|---:" * (len(header) - 1) + "|")
    for group, names in groups(arguments.filter).items():
        print(f"| **{group}** |" + " |" * (len(header) - 1))
        for name in names:
            cells = [name.replace("|", "\\|")]
            for key, digits in (("instructions", 0), ("lookups", 2), ("casts", 2), ("mallocs", 2)):
                for framework in frameworks:
                    row = counted[framework].get(name)
                    cells.append(number(row[key] if row else None, digits))
            if arguments.time:
                for framework in frameworks:
                    cells.append(number(timed[framework].get(name), 1))
            print("| " + " | ".join(cells) + " |")


def demangle(names):
    run = subprocess.run(["swift", "demangle", "--simplified"], input="\n".join(names), capture_output=True, text=True)
    return run.stdout.splitlines() if run.returncode == 0 else names


def callers(arguments):
    """Who makes each look-up, cast and malloc per element, for the rows that match the filter."""
    framework = arguments.only or "Rill"
    for name, row in count(framework, arguments.elements, arguments.filter, callers=True).items():
        print(f"== {name}: {row['instructions']:.0f} instructions, {row['lookups']:.2f} look-ups, "
              f"{row['casts']:.2f} casts, {row['mallocs']:.2f} mallocs per element")
        edges = sorted(row["callers"].items(), key=lambda item: (item[0][0], -item[1]))
        readable = demangle([caller for (_, caller, _), _ in edges])
        for ((kind, _, callee), per_element), caller in zip(edges, readable):
            print(f"  {kind:8} {per_element:6.2f}  {callee:40} <- {caller[:200]}")


def check(arguments):
    counted = count("Rill", arguments.elements, arguments.filter)
    allowed = allowlist()
    failures = []
    for name, row in counted.items():
        lookups = row["lookups"]
        if lookups >= PER_ELEMENT:
            listed = name in allowed
            print(f"{'allowed' if listed else 'FAIL   '} {lookups:6.2f} look-ups/element  {name}"
                  + (f"  ({allowed[name]})" if listed else ""))
            if not listed:
                failures.append(name)
    for name in allowed:
        if name in counted and counted[name]["lookups"] < PER_ELEMENT:
            print(f"note: {name!r} makes no look-ups per element any more; take it off {ALLOWLIST}")
        elif name not in counted:
            print(f"note: {name!r} in {ALLOWLIST} is not a row")
    print(f"{len(counted)} rows, {len(failures)} with run-time metadata look-ups per element not allow-listed")
    return 1 if failures else 0


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("command", choices=["table", "check", "callers"])
    parser.add_argument("--elements", type=int, default=1000)
    parser.add_argument("--filter", help="only the rows whose name contains this")
    parser.add_argument("--only", help="frameworks, comma-separated (default: Rill,OpenCombine)")
    parser.add_argument("--time", action="store_true", help="add the best time per element, outside valgrind")
    parser.add_argument("--skip-build", action="store_true")
    arguments = parser.parse_args()
    if not arguments.skip_build:
        build()
    strip()
    if arguments.command == "table":
        table(arguments)
        return 0
    if arguments.command == "callers":
        callers(arguments)
        return 0
    return check(arguments)


if __name__ == "__main__":
    sys.exit(main())
