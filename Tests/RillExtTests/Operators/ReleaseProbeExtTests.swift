import Rill
import RillExt
import RillTesting
import Testing

/// One RillExt operator under RillTesting's release probe: a pipeline built on the probe's source.
// SAFETY: immutable; `run` builds a fresh pipeline on each call.
struct ProbedExtOperator: CustomStringConvertible, @unchecked Sendable {
  typealias Source = ReleaseProbe.Source
  typealias Value = ReleaseProbe.Value
  typealias Failure = ReleaseProbe.Failure

  let description: String
  let run: (ReleaseProbe.Reentry, ContractDemand, ReleaseProbe.Ending) async -> ReleaseProbe.Report

  init<P: Publisher>(_ name: String, _ pipeline: @escaping (Source) -> P) {
    description = name
    run = { reentry, demand, ending in
      await ReleaseProbe.check(reentry: reentry, demand: demand, ending: ending, pipeline)
    }
  }

  /// RillExt's operators with an engine or a lock of their own.
  static let all: [ProbedExtOperator] = [
    ProbedExtOperator("materialize") { $0.materialize() },
    ProbedExtOperator("dematerialize") { $0.materialize().dematerialize() },
    ProbedExtOperator("values") { $0.materialize().values() },
    ProbedExtOperator("withLatestFrom") { $0.withLatestFrom($0.prefix(2)) },
    ProbedExtOperator("amb") { $0.amb($0.dropFirst()) },
    ProbedExtOperator("create") { source in
      AnyPublisher<Value, Failure>.create { subscriber in
        source.sink(receiveCompletion: subscriber.send(completion:), receiveValue: subscriber.send)
      }
    },
    ProbedExtOperator("flatMapLatest") { source in source.flatMapLatest { _ in source.prefix(2) } },
    ProbedExtOperator("flatMapFirst") { source in source.flatMapFirst { _ in source.prefix(2) } },
    ProbedExtOperator("retryWhen") { $0.retryWhen { failures in failures.prefix(1) } },
    ProbedExtOperator("share(replay:)") { $0.share(replay: 2) },
    ProbedExtOperator("zip(with:)") { $0.zip(with: $0.dropFirst()) },
    ProbedExtOperator("combineLatest(with:)") { $0.combineLatest(with: $0.prefix(2)) },
    ProbedExtOperator("Collection.merge()") {
      [$0.eraseToAnyPublisher(), $0.dropFirst().eraseToAnyPublisher()].merge()
    },
    ProbedExtOperator("partition") { $0.partition { $0.number > 4 }.matches },
    ProbedExtOperator("prefix(duration:)") { $0.prefix(duration: 5, on: $0.scheduler) },
    ProbedExtOperator("prefix(while:behavior:)") { $0.prefix(while: { $0.number < 5 }, behavior: .inclusive) },
    ProbedExtOperator("removeAllDuplicates") { $0.removeAllDuplicates() },
    ProbedExtOperator("enumerated") { $0.enumerated() },
    ProbedExtOperator("nwise") { $0.nwise(3) },
    ProbedExtOperator("pairwise") { $0.pairwise() },
    ProbedExtOperator("ignoreFailure") { $0.ignoreFailure() },
    ProbedExtOperator("mapToResult") { $0.mapToResult() },
  ]
}

/// RillExt's operators let go of values and subscriptions only after unlocking: a value or subscription whose
/// `deinit` cancels, requests or sends into the source never hangs its thread.
@Suite struct ReleaseProbeExtTests {
  @Test(arguments: ProbedExtOperator.all)
  func releasesNothingWhileLocked(_ probed: ProbedExtOperator) async {
    var reentries = 0
    for reentry in ReleaseProbe.Reentry.allCases {
      for demand in ContractDemand.standard {
        for ending in ReleaseProbe.Ending.allCases {
          let report = await probed.run(reentry, demand, ending)
          #expect(report.hasReturned, "\(probed): \(report)")
          if !report.hasReturned { return }
          reentries += report.reentries
        }
      }
    }
    #expect(reentries > 0, "\(probed): nothing was freed while the runs lasted")
  }
}
