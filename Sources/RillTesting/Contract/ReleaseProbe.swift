import Foundation

/// Checks that a publisher never lets go of a value or a subscription while it holds one of its locks.
///
/// A value's `deinit` is someone else's code, and it may call back into the pipeline that released it: cancel,
/// request, or send into the source. If the operator released it inside its lock, that call waits for the same lock
/// on the same thread, and the thread hangs for good. The probe sends ``Value``s, whose `deinit` makes one such call,
/// through a ``Source`` whose subscriptions do the same when they are freed, ends the run, and reports whether it
/// returned.
///
/// ```swift
/// for reentry in ReleaseProbe.Reentry.allCases {
///   for ending in ReleaseProbe.Ending.allCases {
///     let report = await ReleaseProbe.check(reentry: reentry, demand: .max(1), ending: ending) { source in
///       source.flatMap { Just($0) }
///     }
///     #expect(report.hasReturned, "\(report)")
///   }
/// }
/// ```
///
/// Each run happens on a thread of its own, so that a run that hangs does not hang the test: the probe waits for
/// it up to a time limit, and reports it as hung. That thread is lost for the rest of the process.
public enum ReleaseProbe {
  /// What a released value or subscription calls from its `deinit`.
  public enum Reentry: String, CaseIterable, Sendable, CustomStringConvertible {
    /// Cancels the subscription the pipeline gave the probe's subscriber.
    case cancel
    /// Sends one more value into the source.
    case send
    /// Requests one more value through the subscription the pipeline gave the probe's subscriber.
    case request

    public var description: String { rawValue }
  }

  /// How a run ends, once its values have been sent.
  public enum Ending: String, CaseIterable, Sendable, CustomStringConvertible {
    /// The source finishes.
    case finish
    /// The source fails with ``Failure``.
    case fail
    /// The probe's subscriber cancels.
    case cancel

    public var description: String { rawValue }
  }

  /// The error a ``Source`` fails with.
  public struct Failure: Error, Equatable, Sendable {
    /// Creates the error.
    public init() {}
  }

  /// How many values a run sends into the source before it ends.
  public static let valueCount = 8

  /// Runs `pipeline` on a ``Source`` and reports whether the run returned.
  ///
  /// The run subscribes a subscriber that requests and cancels as `demand` plans, sends ``valueCount`` values into
  /// the source, ends as `ending` says, and then advances the source's ``Source/scheduler`` by 1,000 ticks. Every
  /// value and every subscription the source hands out calls `reentry` when it is freed, until the run ends; values
  /// sent from a `deinit` call nothing.
  ///
  /// The run has a thread of its own; the caller waits for it by polling and sleeping, so that it never blocks a
  /// thread of the cooperative pool, which other tests may need.
  ///
  /// - Parameters:
  ///   - reentry: What a freed value or subscription calls.
  ///   - demand: How the subscriber requests values.
  ///   - ending: How the run ends.
  ///   - timeout: How long to wait for the run before reporting it as hung.
  ///   - pipeline: Builds the publisher under test on the source; called once, on the run's thread.
  /// - Returns: What happened; a run still going when the calling task is cancelled is reported as hung.
  @available(macOS 13.0, iOS 16.0, tvOS 16.0, watchOS 9.0, *)
  public static func check<P: Publisher>(
    reentry: Reentry,
    demand: ContractDemand,
    ending: Ending,
    timeout: Duration = .seconds(10),
    _ pipeline: @escaping (Source) -> P
  ) async -> Report {
    let target = ReleaseProbeTarget(reentry: reentry)
    let run = ReleaseProbeRun { runOnce(target: target, demand: demand, ending: ending, pipeline: pipeline) }
    Thread.detachNewThread { run.start() }
    let clock = ContinuousClock()
    let deadline = clock.now.advanced(by: timeout)
    var hasReturned = run.hasReturned
    while !hasReturned, clock.now < deadline {
      do {
        try await Task.sleep(for: .microseconds(100))
      } catch {
        break
      }
      hasReturned = run.hasReturned
    }
    return Report(
      reentry: reentry,
      demand: demand,
      ending: ending,
      hasReturned: hasReturned,
      reentries: target.reentries
    )
  }

  private static func runOnce<P: Publisher>(
    target: ReleaseProbeTarget,
    demand: ContractDemand,
    ending: Ending,
    pipeline: (Source) -> P
  ) {
    let subject = PassthroughSubject<Value, Failure>()
    let scheduler = TestScheduler()
    target.arm(subject: subject)
    let subscriber = ReleaseProbeSubscriber<P.Output, P.Failure>(demand: demand, target: target)
    pipeline(Source(subject: subject, scheduler: scheduler, target: target)).subscribe(subscriber)
    for number in 1...valueCount {
      subject.send(Value(number, target: target))
    }
    switch ending {
    case .finish: subject.send(completion: .finished)
    case .fail: subject.send(completion: .failure(Failure()))
    case .cancel: subscriber.cancel()
    }
    scheduler.advance(by: settleTicks)
    // Nothing calls back once the run is over: the pipeline is freed with nobody left to call.
    target.disarm()
    subscriber.cancel()
    scheduler.advance(by: settleTicks)
  }

  /// How far a run advances its scheduler after the ending: past any interval a probed pipeline uses.
  private static let settleTicks: TestScheduler.SchedulerTimeType.Stride = 1_000

  /// What a ``ReleaseProbe/check(reentry:demand:ending:timeout:_:)`` run did.
  public struct Report: Sendable, CustomStringConvertible {
    /// What freed values and subscriptions called.
    public let reentry: Reentry
    /// How the subscriber requested values.
    public let demand: ContractDemand
    /// How the run ended.
    public let ending: Ending
    /// Whether the run returned within the time limit; `false` means a thread hung.
    public let hasReturned: Bool
    /// How many calls freed values and subscriptions made while the run lasted.
    public let reentries: Int

    public var description: String {
      let outcome = hasReturned ? "returned" : "hung"
      return "\(outcome): \(reentry) from deinit, demand \(demand), ending \(ending), \(reentries) reentries"
    }
  }
}

/// One run, carried to its thread, and whether it has returned.
// SAFETY: the body runs once, on the run's thread; `returned` is the only state shared, in `Locked`.
private final class ReleaseProbeRun: @unchecked Sendable {
  private let body: () -> Void
  private let returned = Locked(false)

  init(_ body: @escaping () -> Void) {
    self.body = body
  }

  var hasReturned: Bool { returned.withLock { $0 } }

  /// Runs the body, on the run's thread.
  func start() {
    body()
    returned.withLock { $0 = true }
  }
}
