// Registers every workload three times: against Rill, against OpenCombine and as a hand-written loop.
// Benchmark names are "<workload> | <framework>"; Benchmarks/report.py turns the results into the table.
import Benchmark
import HandLoops
import OpenCombineWorkloads
import RillWorkloads

/// Elements pushed through a pipeline per measured iteration.
let elementsPerIteration = 10_000

let benchmarks: @Sendable () -> Void = {
  Benchmark.defaultConfiguration = .init(
    metrics: [.wallClock, .mallocCountTotal],
    timeUnits: .nanoseconds,
    units: [.mallocCountTotal: .count],
    warmupIterations: 3,
    maxDuration: .milliseconds(400),
    maxIterations: 2_000
  )
  let openCombine = Dictionary(uniqueKeysWithValues: OpenCombineWorkloads.Workloads.all.map { ($0.name, $0.run) })
  for (index, workload) in RillWorkloads.Workloads.all.enumerated() {
    var runs: [(String, (Int) -> Int)] = []
    if let run = workload.run { runs.append(("Rill", run)) }
    if let run = openCombine[workload.name] ?? nil { runs.append(("OpenCombine", run)) }
    if let run = HandLoops.byWorkload[workload.name] { runs.append(("loop", run)) }
    for (framework, run) in runs {
      let number = index < 9 ? "0\(index + 1)" : "\(index + 1)"
      Benchmark("\(number) \(workload.name) | \(framework)") { benchmark in
        for _ in benchmark.scaledIterations {
          blackHole(run(elementsPerIteration))
        }
      }
    }
  }
}
