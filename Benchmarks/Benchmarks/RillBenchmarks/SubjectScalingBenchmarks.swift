// How a subject's costs grow with its subscribers (1, 100, 10,000), for Rill and OpenCombine: a value's time per
// subscriber, a subscribe + cancel's time while the others stay subscribed, the time of cancelling every
// subscriber, and the bytes idle subscriptions keep. Times use the "Time per send (ps)" metric, one operation
// being a delivery, a subscribe + cancel pair or a cancel, so that report.py shows them per operation.
import Benchmark
import OpenCombineWorkloads
import RillWorkloads

/// The subscriber counts measured.
let subscriberCounts = [1, 100, 10_000]

/// What the scaling benchmarks run, for one framework.
struct FanOutRuns {
  let name: String
  let make: (Int) -> AnyObject
  let send: (AnyObject, Int) -> Int
  let churn: (AnyObject, Int) -> Int
  let cancelAll: (AnyObject) -> Void
}

func registerSubjectScaling() {
  let frameworks = [
    FanOutRuns(
      name: "Rill",
      make: { RillWorkloads.SubjectFanOut(subscribers: $0) },
      send: { ($0 as! RillWorkloads.SubjectFanOut).send(values: $1) },
      churn: { ($0 as! RillWorkloads.SubjectFanOut).subscribeAndCancel(times: $1) },
      cancelAll: { ($0 as! RillWorkloads.SubjectFanOut).cancelAll() }
    ),
    FanOutRuns(
      name: "OpenCombine",
      make: { OpenCombineWorkloads.SubjectFanOut(subscribers: $0) },
      send: { ($0 as! OpenCombineWorkloads.SubjectFanOut).send(values: $1) },
      churn: { ($0 as! OpenCombineWorkloads.SubjectFanOut).subscribeAndCancel(times: $1) },
      cancelAll: { ($0 as! OpenCombineWorkloads.SubjectFanOut).cancelAll() }
    ),
  ]
  let timing = Benchmark.Configuration(
    metrics: [timePerSend],
    units: [timePerSend: .count],
    warmupIterations: 1,
    maxDuration: .seconds(2),
    maxIterations: 30
  )
  for (index, count) in subscriberCounts.enumerated() {
    let label = count == 1 ? "1 subscriber" : "\(count) subscribers"
    for framework in frameworks {
      // About 100,000 deliveries per iteration, and at least one value.
      let values = max(1, 100_000 / count)
      Benchmark("\(30 + index) subject send, \(label) (per subscriber) | \(framework.name)", configuration: timing) {
        benchmark in
        timePerOperation(benchmark, operations: values * count, setUp: { framework.make(count) }) {
          blackHole(framework.send($0, values))
        }
      }
      Benchmark("\(33 + index) subscribe + cancel, \(label) (per pair) | \(framework.name)", configuration: timing) {
        benchmark in
        timePerOperation(benchmark, operations: 10_000, setUp: { framework.make(count) }) {
          blackHole(framework.churn($0, 10_000))
        }
      }
      Benchmark("\(36 + index) cancel each of \(label) (per cancel) | \(framework.name)", configuration: timing) {
        benchmark in
        timePerOperation(benchmark, operations: count, setUp: { framework.make(count) }) { framework.cancelAll($0) }
      }
    }
  }
  for framework in frameworks {
    // The bytes allocated and not freed while making 10,000 idle subscriptions (the subject, the sinks, their
    // cancellables and the array holding those): divide by 10,000 for one subscription.
    Benchmark(
      "39 10,000 idle subscriptions (subject + sinks), bytes kept | \(framework.name)",
      configuration: .init(metrics: [.memoryLeakedBytes, .mallocFreeDelta], warmupIterations: 1, maxIterations: 20)
    ) { benchmark in
      benchmark.startMeasurement()
      let fanOut = framework.make(10_000)
      benchmark.stopMeasurement()
      withExtendedLifetime(fanOut) {}
    }
  }
}

/// Runs `body` once on what `setUp` made, timing only `body`, and records the time of one of its `operations`
/// in picoseconds.
func timePerOperation(
  _ benchmark: Benchmark,
  operations: Int,
  setUp: () -> AnyObject,
  _ body: (AnyObject) -> Void
) {
  let state = setUp()
  benchmark.startMeasurement()
  let start = ContinuousClock.now
  body(state)
  let elapsed = ContinuousClock.now - start
  benchmark.stopMeasurement()
  let (seconds, attoseconds) = elapsed.components
  let picoseconds = seconds * 1_000_000_000_000 + attoseconds / 1_000_000
  benchmark.measurement(timePerSend, Int(picoseconds) / operations)
  withExtendedLifetime(state) {}
}
