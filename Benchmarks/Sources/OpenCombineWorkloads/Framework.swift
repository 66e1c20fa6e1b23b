import Dispatch
import Foundation
// The framework under test for Workloads.swift and the OperatorRows files (symlinks to RillWorkloads' copies).
@_exported import OpenCombine
import OpenCombineDispatch
import OpenCombineFoundation

/// The framework's name, as shown in the benchmark table.
public let frameworkName = "OpenCombine"

/// The scheduler that runs work on `queue`: OpenCombine's wrapper around it.
func scheduler(for queue: DispatchQueue) -> DispatchQueue.OCombine { queue.ocombine }

/// The scheduler that runs work on `queue`: OpenCombine's wrapper around it.
func operationQueueScheduler(_ queue: OperationQueue) -> OperationQueue.OCombine { queue.ocombine }

/// The scheduler that runs work on the current run loop: OpenCombine's wrapper around it.
func runLoopScheduler() -> RunLoop.OCombine { RunLoop.current.ocombine }

/// The publisher of the notifications named `name` that `center` posts.
func notifications(
  named name: Notification.Name,
  from center: NotificationCenter
) -> NotificationCenter.OCombine.Publisher {
  center.ocombine.publisher(for: name)
}

/// A timer on the current run loop, connected when subscribed.
func timer(every interval: TimeInterval) -> Publishers.Autoconnect<Timer.OCombine.TimerPublisher> {
  Timer.publish(every: interval, on: .current, in: .default).autoconnect()
}
