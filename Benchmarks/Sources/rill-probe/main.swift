// Runs one workload for a given number of elements, for valgrind and quick timing:
//   rill-probe <Rill|OpenCombine|loop> <workload name or a unique part of it> <elements> [repeats]
//   rill-probe <Rill|OpenCombine> idle <subscriptions>
// Prints the checksum and the time per element. `valgrind` with two element counts gives allocations and
// instructions per element from the difference.
import Dispatch
import HandLoops
import OpenCombineWorkloads
import RillWorkloads

#if canImport(Glibc)
import Glibc
#endif

let arguments = CommandLine.arguments
guard arguments.count >= 4, let n = Int(arguments[3]) else {
  print("usage: rill-probe <Rill|OpenCombine|loop> <workload> <elements> [repeats]")
  for workload in RillWorkloads.Workloads.all { print("  \(workload.name)") }
  print("  scaling: send, <1|100|10000> subscribers (per send)")
  print("  scaling: subscribe + cancel, <1|100|10000> subscribers (per pair)")
  print("  scaling: subscribe n, then cancel each (per subscriber)")
  exit(2)
}
let repeats = arguments.count > 4 ? Int(arguments[4]) ?? 1 : 1

func find(_ workloads: [(name: String, run: ((Int) -> Int)?)]) -> ((Int) -> Int)? {
  if let exact = workloads.first(where: { $0.name == arguments[2] }) { return exact.run }
  let matches = workloads.filter { $0.name.contains(arguments[2]) }
  guard matches.count == 1 else { return nil }
  return matches[0].run
}

/// The subject-scaling workloads (SubjectScaling.swift), per element: a send to N subscribers, a subscribe + cancel
/// while N others stay subscribed, and subscribing `elements` sinks then cancelling each in subscription order.
func scaling(
  make: @escaping (Int) -> AnyObject,
  send: @escaping (AnyObject, Int) -> Int,
  churn: @escaping (AnyObject, Int) -> Int,
  cancelAll: @escaping (AnyObject) -> Void
) -> [(name: String, run: ((Int) -> Int)?)] {
  var workloads: [(name: String, run: ((Int) -> Int)?)] = []
  for count in [1, 100, 10_000] {
    workloads.append(("scaling: send, \(count) subscribers (per send)", { n in send(make(count), n) }))
    workloads.append(("scaling: subscribe + cancel, \(count) subscribers (per pair)", { n in churn(make(count), n) }))
  }
  workloads.append(
    (
      "scaling: subscribe n, then cancel each (per subscriber)",
      { n in
        let fanOut = make(n)
        cancelAll(fanOut)
        return n
      }
    )
  )
  return workloads
}

let rillScaling = scaling(
  make: { RillWorkloads.SubjectFanOut(subscribers: $0) },
  send: { ($0 as! RillWorkloads.SubjectFanOut).send(values: $1) },
  churn: { ($0 as! RillWorkloads.SubjectFanOut).subscribeAndCancel(times: $1) },
  cancelAll: { ($0 as! RillWorkloads.SubjectFanOut).cancelAll() }
)
let openCombineScaling = scaling(
  make: { OpenCombineWorkloads.SubjectFanOut(subscribers: $0) },
  send: { ($0 as! OpenCombineWorkloads.SubjectFanOut).send(values: $1) },
  churn: { ($0 as! OpenCombineWorkloads.SubjectFanOut).subscribeAndCancel(times: $1) },
  cancelAll: { ($0 as! OpenCombineWorkloads.SubjectFanOut).cancelAll() }
)

// `rill-probe <Rill|OpenCombine> idle <n>`: makes n idle subscriptions (a sink on a PassthroughSubject, its
// AnyCancellable and the subject's share) and exits without freeing them, for valgrind's "in use at exit": run it
// with n and 2n and divide the difference by n (Benchmarks/count.sh does).
if arguments[2] == "idle" {
  let fanOut: AnyObject =
    arguments[1] == "Rill"
    ? RillWorkloads.SubjectFanOut(subscribers: n) : OpenCombineWorkloads.SubjectFanOut(subscribers: n)
  print("\(n) idle subscriptions: \(ObjectIdentifier(fanOut))")
  exit(0)
}

let run: ((Int) -> Int)?
switch arguments[1] {
case "Rill": run = find(RillWorkloads.Workloads.all.map { ($0.name, $0.run) } + rillScaling)
case "OpenCombine": run = find(OpenCombineWorkloads.Workloads.all.map { ($0.name, $0.run) } + openCombineScaling)
default: run = find(HandLoops.byWorkload.map { ($0.key, $0.value) })
}
guard let run else {
  print("no single workload matches \(arguments[2]) for \(arguments[1])")
  exit(2)
}
var checksum = 0
let start = DispatchTime.now().uptimeNanoseconds
for _ in 0..<repeats { checksum &+= run(n) }
let elapsed = DispatchTime.now().uptimeNanoseconds - start
print("checksum \(checksum); \(Double(elapsed) / Double(n * repeats)) ns/element")
