import Foundation
import RillCore

/// The error the combining-operator tests fail with.
enum CombiningError: Error, Equatable {
  case boom
  case other
}

/// Runs `body` on `count` threads at once and waits for them all.
func combiningConcurrently(_ count: Int, _ body: @escaping @Sendable (Int) -> Void) {
  DispatchQueue.concurrentPerform(iterations: count, execute: body)
}
