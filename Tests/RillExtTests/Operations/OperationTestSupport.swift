import Dispatch
import Foundation
import RillExt

/// Waits for every operation of `queue` to finish, giving up after `timeout` seconds instead of hanging the run.
///
/// Calls `waitUntilAllOperationsAreFinished()` on a thread of its own; returns whether it came back in time.
func waitUntilAllOperationsAreFinished(_ queue: OperationQueue, timeout: TimeInterval = 30) -> Bool {
  let done = DispatchSemaphore(value: 0)
  let thread = Thread {
    queue.waitUntilAllOperationsAreFinished()
    done.signal()
  }
  thread.start()
  return done.wait(timeout: .now() + timeout) == .success
}

/// Polls `condition` until it holds, for at most `timeout` seconds; returns whether it held.
func eventually(timeout: TimeInterval = 30, _ condition: () -> Bool) -> Bool {
  let deadline = Date().addingTimeInterval(timeout)
  while !condition() {
    if Date() > deadline { return false }
    Thread.sleep(forTimeInterval: 0.001)
  }
  return true
}

/// A value shared between threads, behind RillCore's lock.
// SAFETY: the value lives in `value`, and is only reached through `withLock`.
final class Shared<Value>: @unchecked Sendable {
  private let value: Locked<Value>

  init(_ value: Value) {
    self.value = Locked(value)
  }

  func withLock<Result>(_ body: (inout Value) -> Result) -> Result {
    value.withLock(body)
  }
}
