import Foundation
import RillExt
import RillTestSupport
import RillTesting
import Testing

/// Many threads recording into one timeline; also run under ThreadSanitizer:
/// `swift test --sanitize=thread --filter "LaneStressTests|ObservationStressTests"`.
@Suite(.tags(.stress), .timeLimit(.minutes(1)))
struct LaneStressTests {
  static var scale: Double {
    ProcessInfo.processInfo.environment["RILL_STRESS_SCALE"].flatMap(Double.init) ?? 1
  }

  static let perThread = max(10, Int(Double(1_000) * scale))

  /// Runs `body(0..<count)` on `count` threads and waits for all of them.
  static func concurrently(_ count: Int, _ body: @escaping @Sendable (Int) -> Void) {
    let group = DispatchGroup()
    for index in 0..<count {
      DispatchQueue.global().async(group: group) { body(index) }
    }
    expectEqual(group.wait(timeout: .now() + 30), .success)
  }

  @Test func eachSubscriptionKeepsItsOrderWhileThreadsRecordAtOnce() {
    let timeline = Timeline(capacity: 1_000_000)
    let perThread = Self.perThread
    Self.concurrently(8) { _ in
      for _ in 0..<3 {
        _ = (0..<perThread).publisher.lane("worker", timeline: timeline).map { $0 * 2 }
          .lane("doubled", timeline: timeline).sink { _ in }
      }
    }
    var byLane: [String: [Int: [Timeline.Event.Kind]]] = [:]
    var threads: [String: [Int: Set<String>]] = [:]
    for event in timeline.events {
      byLane[event.lane, default: [:]][event.subscription, default: []].append(event.kind)
      threads[event.lane, default: [:]][event.subscription, default: []].insert(event.thread)
    }
    for (lane, multiplier) in [("worker", 1), ("doubled", 2)] {
      let subscriptions = byLane[lane] ?? [:]
      expectEqual(subscriptions.count, 24)
      let expected: [Timeline.Event.Kind] =
        [.subscription, .request(.unlimited)] + (0..<perThread).map { .value("\($0 * multiplier)") } + [.finished]
      for (number, kinds) in subscriptions {
        #expect(kinds == expected, "\(lane) #\(number)")
        #expect(threads[lane]?[number]?.count == 1)
      }
    }
    expectEqual(timeline.droppedEventCount, 0)
  }

  @Test func concurrentSendsRequestsAndCancelsThroughOneLane() {
    let timeline = Timeline(capacity: 1_000_000)
    let subject = PassthroughSubject<Int, Never>()
    let lane = subject.lane("shared", timeline: timeline)
    let full = TestSubscriber<Int, Never>()
    let cancelled = (0..<4).map { _ in TestSubscriber<Int, Never>(initialDemand: .max(1)) }
    lane.subscribe(full)
    for subscriber in cancelled { lane.subscribe(subscriber) }
    let perThread = Self.perThread
    Self.concurrently(6) { index in
      if index < 4 {
        for sequence in 0..<perThread { subject.send(index * 1_000_000 + sequence) }
      } else if index == 4 {
        for subscriber in cancelled {
          for _ in 0..<20 { subscriber.request(.max(1)) }
        }
      } else {
        for subscriber in cancelled { subscriber.cancel() }
      }
    }
    subject.send(completion: .finished)
    expectEqual(full.values.count, 4 * perThread)
    var perSubscription: [Int: [Timeline.Event.Kind]] = [:]
    for event in timeline.events { perSubscription[event.subscription, default: []].append(event.kind) }
    expectEqual(perSubscription.count, 5)
    for (number, kinds) in perSubscription {
      #expect(kinds.first == .subscription, "shared #\(number)")
      #expect(kinds.filter { $0 == .cancel || $0 == .finished }.count == 1, "shared #\(number)")
      var next = [0, 0, 0, 0]
      for case .value(let text) in kinds {
        let value = Int(text)!
        #expect(value % 1_000_000 >= next[value / 1_000_000], "shared #\(number): \(value) out of order")
        next[value / 1_000_000] = value % 1_000_000 + 1
      }
    }
    let fullValues = perSubscription[1]!.compactMap { kind -> Int? in
      if case .value(let text) = kind { return Int(text) }
      return nil
    }
    expectEqual(fullValues, full.values)
  }
}
