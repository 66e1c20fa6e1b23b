// Helpers shared by the test targets' stress tests: a lock around test state, a carrier for values that cross
// threads, and a way to start many threads at once. Not a product; only the test targets depend on it.
import Dispatch
import Foundation

/// A lock around a value, for test helpers whose state is touched from many threads.
public final class StressLocked<State>: @unchecked Sendable {
  // SAFETY: `value` is only touched with `lock` held.
  private let lock = NSLock()
  private var value: State

  public init(_ value: State) { self.value = value }

  public func withLock<Result>(_ body: (inout State) throws -> Result) rethrows -> Result {
    lock.lock()
    defer { lock.unlock() }
    return try body(&value)
  }
}

/// Carries a value that is not `Sendable` to another thread, for stress tests of thread-safe Rill types.
public struct StressUnchecked<Value>: @unchecked Sendable {
  // SAFETY: only used with thread-safe Rill types and closures over them.
  public let value: Value

  public init(_ value: Value) { self.value = value }
}

/// Starting many threads at once, and scaling the stress tests' loops.
public enum StressThreads {
  /// Scales every loop; CI's ThreadSanitizer run sets `RILL_STRESS_SCALE=0.1`, as the sanitizer is slow.
  public static let scale = Double(ProcessInfo.processInfo.environment["RILL_STRESS_SCALE"] ?? "") ?? 1

  /// `count` scaled by ``scale``, and at least 10.
  public static func scaled(_ count: Int) -> Int { max(10, Int(Double(count) * scale)) }

  /// Runs `body(0..<count)` on `count` threads released at once; returns whether all of them finished within
  /// `timeout` seconds.
  public static func run(_ count: Int, timeout: Double = 30, _ body: @escaping (Int) -> Void) -> Bool {
    let body = StressUnchecked(body)
    let group = DispatchGroup()
    let start = DispatchSemaphore(value: 0)
    for index in 0..<count {
      group.enter()
      Thread.detachNewThread {
        start.wait()
        body.value(index)
        group.leave()
      }
    }
    for _ in 0..<count { start.signal() }
    return group.wait(timeout: .now() + timeout) == .success
  }
}
