import Dispatch
import Foundation
import Rill

/// A thread-safe box for what a real-scheduler test collects.
final class FoundationRecorder<Value>: @unchecked Sendable {
  // SAFETY: `values` and `finished` are only touched with `lock` held.
  private let lock = NSLock()
  private var storage: [Value] = []
  private var finished = false
  private let done = DispatchSemaphore(value: 0)

  func append(_ value: Value) {
    lock.lock()
    storage.append(value)
    lock.unlock()
  }

  var values: [Value] {
    lock.lock()
    defer { lock.unlock() }
    return storage
  }

  /// Marks the end; `wait` returns once this has been called.
  func finish() {
    lock.lock()
    finished = true
    lock.unlock()
    done.signal()
  }

  var isFinished: Bool {
    lock.lock()
    defer { lock.unlock() }
    return finished
  }

  /// Waits for `finish()`, up to a generous limit so a broken test fails rather than hangs.
  @discardableResult
  func wait(seconds: Double = 10) -> Bool {
    done.wait(timeout: .now() + seconds) == .success
  }
}

/// Runs the current thread's run loop until `condition` holds or `seconds` pass.
func foundationSpinRunLoop(seconds: Double = 10, until condition: () -> Bool) {
  let deadline = Date().addingTimeInterval(seconds)
  while !condition() && Date() < deadline {
    _ = RunLoop.current.run(mode: .default, before: Date().addingTimeInterval(0.01))
  }
}
