import Foundation
import RillTestSupport

/// What a subscriber saw in a delivery test: each event and the thread it arrived on.
final class DeliveryLog: @unchecked Sendable {
  private let state = StressLocked<[(event: String, thread: ObjectIdentifier)]>([])

  func record(_ event: String) {
    state.withLock { $0.append((event, ObjectIdentifier(Thread.current))) }
  }

  var events: [String] { state.withLock { $0.map(\.event) } }

  /// The thread `event` first arrived on.
  func thread(of event: String) -> ObjectIdentifier? {
    state.withLock { entries in entries.first { $0.event == event }?.thread }
  }
}

/// Runs `body` on a new thread; returns a semaphore signalled once it has returned, and the thread.
func onNewThread(
  _ body: @escaping @Sendable () -> Void
) -> (done: DispatchSemaphore, thread: StressLocked<ObjectIdentifier?>) {
  let done = DispatchSemaphore(value: 0)
  let thread = StressLocked<ObjectIdentifier?>(nil)
  Thread.detachNewThread {
    thread.withLock { $0 = ObjectIdentifier(Thread.current) }
    body()
    done.signal()
  }
  return (done, thread)
}

/// Polls `condition`, yielding the processor in between, for at most 10 seconds; returns whether it held.
func waitUntil(_ condition: () -> Bool) -> Bool {
  let deadline = Date().addingTimeInterval(10)
  while !condition() {
    if Date() > deadline { return false }
    sched_yield()
  }
  return true
}
