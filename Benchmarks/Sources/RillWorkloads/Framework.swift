import Dispatch
import Foundation
import Rill
// The framework under test for Workloads.swift and the OperatorRows files (shared with OpenCombineWorkloads through
// symlinks).
@_exported import RillCore

/// The framework's name, as shown in the benchmark table.
public let frameworkName = "Rill"

/// The scheduler that runs work on `queue`: Rill's DispatchQueue conformance.
func scheduler(for queue: DispatchQueue) -> DispatchQueue { queue }

/// The scheduler that runs work on `queue`: Rill's OperationQueue conformance.
func operationQueueScheduler(_ queue: OperationQueue) -> OperationQueue { queue }

/// The scheduler that runs work on the current run loop: Rill's RunLoop conformance.
func runLoopScheduler() -> RunLoop { RunLoop.current }

/// The publisher of the notifications named `name` that `center` posts.
func notifications(named name: Notification.Name, from center: NotificationCenter) -> NotificationCenter.Publisher {
  center.publisher(for: name)
}

/// A timer on the current run loop, connected when subscribed.
func timer(every interval: TimeInterval) -> Publishers.Autoconnect<Timer.TimerPublisher> {
  Timer.publish(every: interval, on: .current, in: .default).autoconnect()
}
