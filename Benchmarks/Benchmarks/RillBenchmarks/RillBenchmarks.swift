// Registers every workload three times: against Rill, against OpenCombine and as a hand-written loop.
// Benchmark names are "<workload> | <framework>"; Benchmarks/report.py turns the results into the table.
import Benchmark
import Dispatch
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
  let openCombineThreaded = Dictionary(
    uniqueKeysWithValues: OpenCombineWorkloads.Workloads.all.map { ($0.name, $0.threaded) }
  )
  for (index, workload) in RillWorkloads.Workloads.all.enumerated() {
    let number = index < 9 ? "0\(index + 1)" : "\(index + 1)"
    if let threaded = workload.threaded {
      var runs = [("Rill", threaded)]
      if let run = openCombineThreaded[workload.name] ?? nil { runs.append(("OpenCombine", run)) }
      for (framework, run) in runs { registerThreaded("\(number) \(workload.name)", framework, run) }
      continue
    }
    var runs: [(String, (Int) -> Int)] = []
    if let run = workload.run { runs.append(("Rill", run)) }
    if let run = openCombine[workload.name] ?? nil { runs.append(("OpenCombine", run)) }
    if let run = HandLoops.byWorkload[workload.name] { runs.append(("loop", run)) }
    for (framework, run) in runs {
      Benchmark("\(number) \(workload.name) | \(framework)") { benchmark in
        for _ in benchmark.scaledIterations {
          blackHole(run(elementsPerIteration))
        }
      }
    }
  }
  registerSubjectScaling()
}

/// Values sent per iteration by a workload with threads of its own: enough for each thread to outlast the
/// scheduler's time slice, so that threads are preempted while they send, some while holding a lock.
let sendsPerThreadedIteration = 1_000_000

/// The time per send of one iteration, in picoseconds (report.py shows it in nanoseconds).
let timePerSend = BenchmarkMetric.custom("Time per send (ps)", polarity: .prefersSmaller, useScalingFactor: false)

/// The time of one send, each send a sample: report.py reads its 99th percentile.
let sendLatency = BenchmarkMetric.custom("Send latency (ns)", polarity: .prefersSmaller, useScalingFactor: false)

/// Registers a workload with threads of its own twice: its throughput, timing only the sends and not the making
/// of the threads, and, with each send timed (which slows it down), the latency of a send.
func registerThreaded(
  _ name: String,
  _ framework: String,
  _ threaded: @escaping (Int, Bool) -> (start: () -> Int, finish: () -> [Int])
) {
  func configuration(_ metric: BenchmarkMetric) -> Benchmark.Configuration {
    .init(metrics: [metric], units: [metric: .count], warmupIterations: 1, maxDuration: .seconds(3), maxIterations: 40)
  }
  Benchmark("\(name) | \(framework)", configuration: configuration(timePerSend)) { benchmark in
    let run = threaded(sendsPerThreadedIteration, false)
    let start = DispatchTime.now().uptimeNanoseconds
    blackHole(run.start())
    let elapsed = DispatchTime.now().uptimeNanoseconds - start
    benchmark.measurement(timePerSend, Int(elapsed * 1_000 / UInt64(sendsPerThreadedIteration)))
    _ = run.finish()
  }
  Benchmark("\(name) (send latency) | \(framework)", configuration: configuration(sendLatency)) { benchmark in
    let run = threaded(sendsPerThreadedIteration, true)
    blackHole(run.start())
    for latency in run.finish() { benchmark.measurement(sendLatency, latency) }
  }
}
