import RillCore
import Synchronization

/// What a ``ValuesTestSubscription`` was asked to do, in order.
enum ValuesSubscriptionEvent: Equatable {
  case requested(Subscribers.Demand)
  case cancelled
}

/// A subscription that records requests and cancels in the order they arrive.
final class ValuesTestSubscription: Subscription, Sendable {
  private let recorded = Mutex<[ValuesSubscriptionEvent]>([])
  let combineIdentifier = CombineIdentifier()

  var history: [ValuesSubscriptionEvent] { recorded.withLock { $0 } }

  func request(_ demand: Subscribers.Demand) { recorded.withLock { $0.append(.requested(demand)) } }

  func cancel() { recorded.withLock { $0.append(.cancelled) } }
}

/// One `values` iterator shared by several tasks, each calling `next()` on it.
// SAFETY: the iterators hold only a reference to their subscriber, which is `Sendable`; `next()` runs on a
// copy, so the stored iterator is never mutated.
final class SharedValuesIterator<Iterator: AsyncIteratorProtocol>: @unchecked Sendable {
  private let iterator: Iterator

  init(_ iterator: Iterator) {
    self.iterator = iterator
  }

  func next() async throws -> Iterator.Element? {
    var copy = iterator
    return try await copy.next()
  }
}

/// The error the throwing `values` tests fail with; a class, so a test can see when it is freed.
final class ValuesTestFailure: Error, Sendable {}

/// Waits, yielding, until `condition` holds; gives up after `seconds` so that a missing wake-up fails a test
/// instead of hanging it.
func valuesEventually(seconds: Double = 30, _ condition: () -> Bool) async -> Bool {
  let deadline = ContinuousClock.now + .seconds(seconds)
  while !condition() {
    if ContinuousClock.now > deadline { return false }
    try? await Task.sleep(for: .milliseconds(1))
  }
  return true
}
