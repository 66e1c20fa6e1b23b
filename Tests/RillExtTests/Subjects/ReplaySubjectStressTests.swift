import Foundation
import RillExt
import RillTestSupport
import RillTesting
import Testing

/// Many threads sending to a ``ReplaySubject``, requesting and cancelling at once; also run under ThreadSanitizer:
/// `swift test --sanitize=thread --filter ReplaySubjectStressTests`.
@Suite(.tags(.stress), .timeLimit(.minutes(1)))
struct ReplaySubjectStressTests {
  static let producers = 4

  static let perProducer = max(10, Int(Double(2_000) * scale))

  static var scale: Double {
    ProcessInfo.processInfo.environment["RILL_STRESS_SCALE"].flatMap(Double.init) ?? 1
  }

  /// Runs `body(0..<count)` on `count` threads and waits for all of them.
  static func concurrently(_ count: Int, _ body: @escaping @Sendable (Int) -> Void) {
    let group = DispatchGroup()
    for index in 0..<count {
      DispatchQueue.global().async(group: group) { body(index) }
    }
    expectEqual(group.wait(timeout: .now() + 30), .success)
  }

  /// Checks that each producer's values arrive without duplicates and in the order sent; returns counts.
  static func counts(_ values: [Int]) -> [Int] {
    var next = Array(repeating: 0, count: producers)
    for value in values {
      let producer = value / 1_000_000
      let sequence = value % 1_000_000
      #expect(sequence >= next[producer], "producer \(producer): \(sequence) after \(next[producer] - 1)")
      next[producer] = sequence + 1
    }
    return next
  }

  @Test func concurrentSendRequestAndCancelNeverLoseDuplicateOrReorder() {
    let subject = ReplaySubject<Int, Never>(bufferSize: 8)
    let full = TestSubscriber<Int, Never>(initialDemand: .none)
    let cancelled = (0..<4).map { _ in TestSubscriber<Int, Never>(initialDemand: .max(1)) }
    subject.subscribe(full)
    for subscriber in cancelled { subject.subscribe(subscriber) }
    let perProducer = Self.perProducer
    Self.concurrently(Self.producers + 2) { index in
      if index < Self.producers {
        for sequence in 0..<perProducer { subject.send(index * 1_000_000 + sequence) }
      } else if index == Self.producers {
        for _ in 0..<(Self.producers * perProducer) { full.request(.max(1)) }
      } else {
        for (offset, subscriber) in cancelled.enumerated() {
          for _ in 0..<(offset * 10) { subscriber.request(.max(1)) }
          subscriber.cancel()
        }
      }
    }
    subject.send(completion: .finished)
    expectEqual(full.values.count, Self.producers * perProducer)
    expectEqual(Self.counts(full.values), Array(repeating: perProducer, count: Self.producers))
    expectEqual(full.completionCount, 1)
    for subscriber in cancelled {
      _ = Self.counts(subscriber.values)
      expectEqual(subscriber.completionCount, 0)
    }
  }

  @Test func lateSubscribersDuringSendsSeeAGaplessTail() {
    let subject = ReplaySubject<Int, Never>(bufferSize: 1_000_000)
    let perProducer = Self.perProducer
    let late = Locked([TestSubscriber<Int, Never>]())
    Self.concurrently(Self.producers + 1) { index in
      if index < Self.producers {
        for sequence in 0..<perProducer { subject.send(index * 1_000_000 + sequence) }
      } else {
        for _ in 0..<20 {
          let subscriber = TestSubscriber<Int, Never>()
          subject.subscribe(subscriber)
          late.append(subscriber)
        }
      }
    }
    subject.send(completion: .finished)
    for subscriber in late.all {
      expectEqual(Self.counts(subscriber.values), Array(repeating: perProducer, count: Self.producers))
      expectEqual(subscriber.completionCount, 1)
    }
  }
}

/// A list that threads append to.
private final class Locked<Element>: @unchecked Sendable {
  private let lock = NSLock()
  private var elements: Element

  init(_ elements: Element) { self.elements = elements }

  var all: Element { lock.withLock { elements } }

  func append<Item>(_ item: Item) where Element == [Item] {
    lock.withLock { elements.append(item) }
  }
}

/// A subscriber with limited demand that joins while two threads send gets every value, in order, as it asks.
@Suite(.tags(.stress), .timeLimit(.minutes(1)))
struct ReplaySubjectLateLimitedSubscriberTests {
  @Test(arguments: [Subscribers.Demand.none, .max(1)])
  func aLimitedSubscriberJoiningDuringSendsGetsEveryValue(demandPerValue: Subscribers.Demand) {
    let perProducer = max(100, Int(Double(5_000) * ReplaySubjectStressTests.scale))
    for _ in 0..<5 {
      let subject = ReplaySubject<Int, Never>(bufferSize: 1_000_000)
      let joined = DispatchSemaphore(value: 0)
      let late = Locked([TestSubscriber<Int, Never>]())
      ReplaySubjectStressTests.concurrently(3) { index in
        if index < 2 {
          for sequence in 0..<perProducer {
            subject.send(index * 1_000_000 + sequence)
            if index == 0, sequence == perProducer / 4 { joined.signal() }
          }
        } else {
          joined.wait()
          let subscriber = TestSubscriber<Int, Never>(initialDemand: .max(1), demandPerValue: demandPerValue)
          subject.subscribe(subscriber)
          late.append(subscriber)
        }
      }
      let subscriber = late.all[0]
      subscriber.request(.unlimited)
      expectEqual(subscriber.values.count, 2 * perProducer)
      expectEqual(ReplaySubjectStressTests.counts(subscriber.values), [perProducer, perProducer, 0, 0])
    }
  }
}
