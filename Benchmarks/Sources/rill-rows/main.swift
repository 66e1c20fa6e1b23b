// Runs the operator rows (RillWorkloads/OperatorRows*.swift) for Benchmarks/rows.py:
//   rill-rows <Rill|OpenCombine> list                                     # group and name of each row, tab-separated
//   rill-rows <Rill|OpenCombine> count <elements> [part of a row's name]  # for callgrind, see below
//   rill-rows <Rill|OpenCombine> time <elements> <repeats> [part of a name]  # best time per element of each row
// `count` runs each row three times: a warm-up with a tenth of the elements (so that lazy set-up, caches and
// first-time metadata instantiation fall outside what is counted), then `elements`, then twice `elements`, and
// calls `rill_rows_boundary` before and after each of the two counted runs. Under
// `valgrind --tool=callgrind --dump-before=rill_rows_boundary` each counted run lands in a dump of its own, and the
// difference between a row's two dumps, divided by `elements`, is what one element costs.
import Dispatch
import OpenCombineWorkloads
import RillWorkloads

#if canImport(Glibc)
import Glibc
#endif

/// Counts the boundaries, so the call cannot be optimised away.
nonisolated(unsafe) var boundaries = 0

/// Marks the end of one counted run and the start of the next, for callgrind's `--dump-before`.
@inline(never) @_optimize(none) @_silgen_name("rill_rows_boundary")
func boundary() { boundaries += 1 }

let arguments = CommandLine.arguments
guard arguments.count >= 3, ["Rill", "OpenCombine"].contains(arguments[1]) else {
  print("usage: rill-rows <Rill|OpenCombine> list | count <elements> [name] | time <elements> <repeats> [name]")
  exit(2)
}
let rows: [(group: String, name: String, run: ((Int) -> Int)?)] =
  arguments[1] == "Rill"
  ? RillWorkloads.OperatorRows.groups.flatMap { group in group.rows.map { (group.title, $0.name, $0.run) } }
  : OpenCombineWorkloads.OperatorRows.groups.flatMap { group in group.rows.map { (group.title, $0.name, $0.run) } }

func selected(_ index: Int) -> [(group: String, name: String, run: ((Int) -> Int)?)] {
  guard arguments.count > index else { return rows }
  return rows.filter { $0.name.contains(arguments[index]) }
}

switch arguments[2] {
case "list":
  for row in rows where row.run != nil { print("\(row.group)\t\(row.name)") }
case "count":
  guard arguments.count >= 4, let n = Int(arguments[3]) else { exit(2) }
  for row in selected(4) {
    guard let run = row.run else { continue }
    let warm = run(max(n / 10, 1))
    boundary()
    let small = run(n)
    boundary()
    let large = run(2 * n)
    boundary()
    print("\(row.name)\t\(warm &+ small &+ large)")
  }
case "time":
  guard arguments.count >= 5, let n = Int(arguments[3]), let repeats = Int(arguments[4]) else { exit(2) }
  for row in selected(5) {
    guard let run = row.run else { continue }
    var best = UInt64.max
    var checksum = run(max(n / 10, 1))
    for _ in 0..<repeats {
      let start = DispatchTime.now().uptimeNanoseconds
      checksum &+= run(n)
      best = min(best, DispatchTime.now().uptimeNanoseconds - start)
    }
    print("\(row.name)\t\(Double(best) / Double(n))\t\(checksum)")
  }
default:
  exit(2)
}
