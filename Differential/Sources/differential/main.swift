// Differential testing of Rill against OpenCombine 0.14: random pipelines over random scripts, traces compared.
//
//   swift run -c release differential [--cases N] [--seed S] [--case SEED] [--show K] [--rill-only] [--verbose]
//
// Each case is reproduced from its seed alone: `--case SEED` prints that case and both traces.
import DifferentialModel
import DifferentialOpenCombine
import DifferentialRill

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

struct Options {
  var cases = 5000
  var seed: UInt64 = 0x5EED
  var single: UInt64?
  var show = 5
  var rillOnly = false
  /// Prints each case's seed before running it, so that a crash names its case.
  var verbose = false

  init(_ arguments: [String]) {
    var iterator = arguments.dropFirst().makeIterator()
    while let argument = iterator.next() {
      if argument == "--rill-only" {
        rillOnly = true
        continue
      }
      if argument == "--verbose" {
        verbose = true
        continue
      }
      let value = iterator.next() ?? ""
      switch argument {
      case "--cases": cases = Int(value) ?? cases
      case "--seed": seed = UInt64(value) ?? seed
      case "--case": single = UInt64(value)
      case "--show": show = Int(value) ?? show
      default:
        print("unknown argument \(argument)")
        exit(2)
      }
    }
  }
}

/// The operators both libraries have, found by probing each on a one-operator case.
func sharedKinds(rillOnly: Bool) -> (shared: Set<String>, missing: [String: String]) {
  var shared = Set<String>()
  var missing: [String: String] = [:]
  for probe in 0..<20_000 {
    let candidate = Case.generate(seed: UInt64(probe))
    for op in candidate.ops where !shared.contains(op.kind) && missing[op.kind] == nil {
      let single = Case(seed: 0, ops: [op], initialDemand: 1, returnedDemand: [0], steps: [])
      let rill = DifferentialRill.run(single) != nil
      let openCombine = rillOnly || DifferentialOpenCombine.run(single) != nil
      if rill && openCombine {
        shared.insert(op.kind)
      } else {
        missing[op.kind] = rill ? "OpenCombine" : openCombine ? "Rill" : "both"
      }
    }
  }
  return (shared, missing)
}

func firstDifference(_ left: [String], _ right: [String]) -> Int {
  var index = 0
  while index < left.count, index < right.count, left[index] == right[index] { index += 1 }
  return index
}

func report(_ testCase: Case, rill: [String], openCombine: [String]) {
  if rill == openCombine {
    print("AGREEMENT \(testCase)")
  } else {
    print("DISAGREEMENT \(testCase)")
    print("  first difference at line \(firstDifference(rill, openCombine))")
  }
  for index in 0..<max(rill.count, openCombine.count) {
    let left = index < rill.count ? rill[index] : ""
    let right = index < openCombine.count ? openCombine[index] : ""
    let mark = left == right ? " " : "*"
    let padded = left + String(repeating: " ", count: max(0, 34 - left.count))
    print("  \(mark) \(padded) | \(right)")
  }
}

let options = Options(CommandLine.arguments)
let (shared, missing) = sharedKinds(rillOnly: options.rillOnly)
let exclude = Set(missing.keys)

if let seed = options.single {
  let testCase = Case.generate(seed: seed, exclude: exclude)
  print(testCase)
  fflush(nil)
  var rill = DifferentialRill.run(testCase) ?? ["(unsupported)"]
  print("(Rill's run is over; a crash now is OpenCombine's)")
  fflush(nil)
  var openCombine = DifferentialOpenCombine.run(testCase) ?? ["(unsupported)"]
  print("contract: \(Known.contractViolation(testCase, rill: rill) ?? "kept")")
  print("normalised: \(Known.normalise(testCase, rill: &rill, openCombine: &openCombine))")
  if let reason = Known.skipReason(testCase) { print("a run skips this case: \(reason)") }
  report(testCase, rill: rill, openCombine: openCombine)
  exit(rill == openCombine ? 0 : 1)
}

print("differential: operators compared: \(shared.sorted().joined(separator: " "))")
for (kind, library) in missing.sorted(by: { $0.key < $1.key }) {
  print("differential: skipping \(kind): missing in \(library)")
}

var compared = 0
var disagreements = 0
var normalised = 0
var violations = 0
var skipped: [String: Int] = [:]
var ruleCounts: [String: Int] = [:]
// `--rill-only` runs Rill's side alone, for a leak check under valgrind that OpenCombine cannot disturb.
if options.rillOnly {
  var seeds = SplitMix64(seed: options.seed)
  var ran = 0
  for _ in 0..<options.cases where DifferentialRill.run(Case.generate(seed: seeds.next(), exclude: exclude)) != nil {
    ran += 1
  }
  print("differential: ran \(ran) cases on Rill alone")
  exit(0)
}

var seeds = SplitMix64(seed: options.seed)
for _ in 0..<options.cases {
  let seed = seeds.next()
  if options.verbose {
    print("case \(seed)")
    fflush(nil)
  }
  let testCase = Case.generate(seed: seed, exclude: exclude)
  if let reason = Known.skipReason(testCase) {
    skipped[reason, default: 0] += 1
    continue
  }
  guard var rill = DifferentialRill.run(testCase), var openCombine = DifferentialOpenCombine.run(testCase) else {
    continue
  }
  compared += 1
  if let violation = Known.contractViolation(testCase, rill: rill) {
    violations += 1
    print("RILL CONTRACT VIOLATION (\(violation)) \(testCase)")
  }
  let rules = Known.normalise(testCase, rill: &rill, openCombine: &openCombine)
  if !rules.isEmpty { normalised += 1 }
  for rule in rules { ruleCounts[rule, default: 0] += 1 }
  if rill != openCombine {
    disagreements += 1
    if disagreements <= options.show { report(testCase, rill: rill, openCombine: openCombine) }
  }
}
for (reason, count) in skipped.sorted(by: { $0.key < $1.key }) {
  print("differential: skipped \(count) cases: \(reason)")
}
for (rule, count) in ruleCounts.sorted(by: { $0.key < $1.key }) {
  print("differential: normalised \(rule): \(count) cases")
}
print(
  "differential: \(compared) cases compared (base seed \(options.seed)), \(normalised) normalised for known "
    + "departures, \(disagreements) disagreements, \(violations) Rill contract violations, "
    + "\(skipped.values.reduce(0, +)) skipped"
)
exit(disagreements == 0 && violations == 0 ? 0 : 1)
