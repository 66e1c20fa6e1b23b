import Dispatch
import Foundation
import Rill
import RillTestSupport
import Testing

extension Tag {
  /// Tests that hammer an operator from several threads; also run them under `--sanitize=thread`.
  @Tag static var stress: Self
}

/// An error for the time-operator stress tests.
enum TimeStressError: Error, Equatable {
  case timedOut
}

/// The time-operator stress tests' names for the shared contract-checking subscriber and its events.
typealias TimeStressEvent<Value: Equatable> = StressEvent<Value>
typealias TimeStressRecorder<Value: Equatable, Failure: Error> = StressRecorder<Value, Failure>

/// The queues the time operators are stressed on: a serial queue keeps the order of scheduled actions, a
/// concurrent one runs them at once.
enum TimeStressQueue: String, CaseIterable, Sendable {
  case serial
  case concurrent

  func make() -> DispatchQueue {
    switch self {
    case .serial: DispatchQueue(label: "rill.stress.serial")
    case .concurrent: DispatchQueue(label: "rill.stress.concurrent", attributes: .concurrent)
    }
  }
}
