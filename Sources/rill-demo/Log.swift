import Dispatch
import Foundation
import Rill

/// Prints a pipeline's events in a readable form, one line each, prefixed with the subscriber's name.
func log<P: Publisher>(_ name: String, _ publisher: P, afterCompletion: @escaping () -> Void = {}) -> AnyCancellable {
  publisher.sink(
    receiveCompletion: { completion in
      switch completion {
      case .finished: print("  \(name): finished")
      case .failure(let error): print("  \(name): failed with \(error)")
      }
      afterCompletion()
    },
    receiveValue: { print("  \(name): value \($0)") }
  )
}

/// Logs a pipeline like `log`, then waits for its completion, up to ten seconds, and cancels it.
///
/// A pipeline that does not complete in time stops the demo with exit status 1: every scenario must finish.
func logUntilCompletion<P: Publisher>(_ name: String, _ publisher: P) {
  let completed = DispatchSemaphore(value: 0)
  let cancellable = log(name, publisher) { completed.signal() }
  waitOrExit(completed, for: name)
  cancellable.cancel()
}

/// Waits for `semaphore`, up to ten seconds; on timeout, stops the demo with exit status 1.
func waitOrExit(_ semaphore: DispatchSemaphore, for name: String) {
  guard semaphore.wait(timeout: .now() + 10) == .success else {
    print("rill-demo: \(name) did not complete within ten seconds")
    exit(1)
  }
}
