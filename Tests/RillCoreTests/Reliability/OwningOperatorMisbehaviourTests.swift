import RillCore
import RillTestSupport
import Testing

/// Operators that own their downstream's demand, facing a publisher that ignores demand, sends after its
/// completion, completes twice and sends a second subscription: no value beyond demand, nothing after a cancel,
/// nothing after the completion but what Combine passes on, at most one completion (except where Combine passes on
/// every completion), and no crash.
@Suite struct OwningOperatorMisbehaviourTests {
  typealias Source = ReliabilityMisbehavingPublisher<Int, ReliabilityError>

  typealias Pipeline = @Sendable (Source) -> AnyPublisher<String, ReliabilityError>

  private static func once<Element>(_ element: Element) -> Publishers.Sequence<[Element], ReliabilityError> {
    Publishers.Sequence(sequence: [element])
  }

  /// The operators on trial; `misbehaving` is the upstream they meet (for flatMap, an inner publisher).
  static let operators: [(String, Pipeline)] = [
    (
      "flatMap (outer)",
      {
        $0.flatMap { Publishers.Sequence<[Int], ReliabilityError>(sequence: [$0, $0]) }.map { "\($0)" }
          .eraseToAnyPublisher()
      }
    ),
    ("flatMap (inner)", { source in once(0).flatMap { _ in source }.map { "\($0)" }.eraseToAnyPublisher() }),
    (
      "flatMap (maxPublishers: 1)",
      {
        $0.flatMap(maxPublishers: .max(1)) { once($0) }.map { "\($0)" }.eraseToAnyPublisher()
      }
    ),
    ("switchToLatest (inner)", { once($0).switchToLatest().map { "\($0)" }.eraseToAnyPublisher() }),
    ("catch", { $0.catch { _ in once(-1) }.map { "\($0)" }.eraseToAnyPublisher() }),
    ("retry", { $0.retry(1).map { "\($0)" }.eraseToAnyPublisher() }),
    ("collect", { $0.collect().map { "\($0)" }.eraseToAnyPublisher() }),
    ("collect(2)", { $0.collect(2).map { "\($0)" }.eraseToAnyPublisher() }),
    ("reduce", { $0.reduce(0, +).map { "\($0)" }.eraseToAnyPublisher() }),
    ("count", { $0.count().map { "\($0)" }.eraseToAnyPublisher() }),
    ("allSatisfy", { $0.allSatisfy { $0 > 0 }.map { "\($0)" }.eraseToAnyPublisher() }),
    ("contains", { $0.contains(3).map { "\($0)" }.eraseToAnyPublisher() }),
    ("min", { $0.min().map { "\($0)" }.eraseToAnyPublisher() }),
    ("max", { $0.max().map { "\($0)" }.eraseToAnyPublisher() }),
    ("share", { $0.share().map { "\($0)" }.eraseToAnyPublisher() }),
    (
      "multicast.autoconnect",
      { $0.multicast { PassthroughSubject() }.autoconnect().map { "\($0)" }.eraseToAnyPublisher() }
    ),
  ]

  /// Operators that count demand but, like Combine's, pass a misbehaving upstream's surplus values on instead of
  /// dropping them (Combine's `switchToLatest` traps on them; Rill's does not): `catch` and `retry` before a
  /// failure, and `collect(_:)` by count.
  static let forwardsSurplusAsCombine: Set<String> = ["switchToLatest (inner)", "catch", "retry", "collect(2)"]

  /// Operators that, like Combine's, pass on every completion upstream sends, also after a cancel or an earlier
  /// completion, though no value after them: `collect(_:)` by count.
  static let forwardsEveryCompletionAsCombine: Set<String> = ["collect(2)"]

  @Test(arguments: 0..<operators.count)
  func surplusLateEventsAndASecondSubscriptionAreContained(index: Int) {
    let (name, make) = Self.operators[index]
    let source = Source()
    let recorder = ReliabilityStrictRecorder<String, ReliabilityError>(initialDemand: .max(1))
    make(source).subscribe(recorder)
    expectEqual(source.subscriptions.count, 1, "\(name)")
    for value in 1...5 { source.send(value) }
    let extra = source.sendSubscription()
    source.send(completion: .finished)
    source.send(6)
    source.send(completion: .failure(.boom))
    recorder.request(.max(5))
    let secondCompletionIsCombines = Self.forwardsEveryCompletionAsCombine.contains(name)
    if Self.forwardsSurplusAsCombine.contains(name) {
      #expect(
        recorder.violations.allSatisfy {
          $0.hasSuffix("beyond demand") || (secondCompletionIsCombines && $0 == "second completion")
        },
        "\(name)"
      )
    } else {
      expectEqual(recorder.violations, [], "\(name)")
    }
    expectEqual(recorder.extraSubscriptions, 0, "\(name): the second subscription leaked downstream")
    expectEqual(extra.cancels, 1, "\(name): the second subscription was not cancelled")
    #expect(recorder.completions <= (secondCompletionIsCombines ? 2 : 1), "\(name)")
  }

  @Test(arguments: 0..<operators.count)
  func silenceAfterCancelWhileUpstreamKeepsSending(index: Int) {
    let (name, make) = Self.operators[index]
    let source = Source()
    let recorder = ReliabilityStrictRecorder<String, ReliabilityError>(initialDemand: .unlimited)
    make(source).subscribe(recorder)
    source.send(1)
    recorder.cancel()
    let seen = recorder.events
    source.send(2)
    source.sendSubscription()
    source.send(completion: .failure(.boom))
    if Self.forwardsEveryCompletionAsCombine.contains(name) {
      expectEqual(recorder.events, seen + [.failure], "\(name)")
    } else {
      expectEqual(recorder.events, seen, "\(name)")
    }
    expectEqual(recorder.violations, [], "\(name)")
  }

  @Test(arguments: 0..<operators.count)
  func valuesAfterAFailureAreIgnored(index: Int) {
    let (name, make) = Self.operators[index]
    let source = Source()
    let recorder = ReliabilityStrictRecorder<String, ReliabilityError>(initialDemand: .unlimited)
    make(source).subscribe(recorder)
    source.send(1)
    source.send(completion: .failure(.boom))
    let seen = recorder.events
    source.send(2)
    source.send(completion: .finished)
    if Self.forwardsEveryCompletionAsCombine.contains(name) {
      expectEqual(recorder.violations, ["second completion"], "\(name)")
      expectEqual(recorder.events, seen + [.finished], "\(name)")
      return
    }
    if name == "flatMap (inner)" {
      // As in Combine, flatMap passes on a child's value after the child's failure while demand remains.
      expectEqual(recorder.violations, ["value 2 after completion"], "\(name)")
      expectEqual(recorder.events, seen + [.value("2")], "\(name)")
      return
    }
    expectEqual(recorder.violations, [], "\(name)")
    // catch and retry subscribe anew on failure; the rest must be silent after the failure.
    if !name.hasPrefix("catch"), !name.hasPrefix("retry") {
      expectEqual(recorder.events, seen, "\(name)")
    }
  }
}
