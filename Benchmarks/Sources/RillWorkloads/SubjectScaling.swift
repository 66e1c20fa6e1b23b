// How a subject's costs grow with its subscribers: the time to deliver a value to each, the time to subscribe
// and cancel while others stay subscribed, and the memory idle subscriptions keep. Compiled against Rill and,
// through a symlink, against OpenCombine, like Workloads.swift.
/// A passthrough subject with `count` sinks, each adding what it receives to one accumulator.
public final class SubjectFanOut {
  private let sum = Accumulator()
  private let subject = PassthroughSubject<Int, Never>()
  private var cancellables: [AnyCancellable] = []

  public init(subscribers count: Int) {
    let sum = self.sum
    cancellables.reserveCapacity(count)
    for _ in 0..<count { cancellables.append(subject.sink { sum.add($0) }) }
  }

  /// Sends `values` values; each reaches every subscriber.
  public func send(values: Int) -> Int {
    for value in 0..<values { subject.send(value) }
    return sum.value
  }

  /// Subscribes one more sink and cancels it, `times` times, while the others stay subscribed.
  public func subscribeAndCancel(times: Int) -> Int {
    let sum = self.sum
    for _ in 0..<times {
      let cancellable = subject.sink { sum.add($0) }
      cancellable.cancel()
    }
    return sum.value
  }

  /// Cancels every subscriber, in the order they subscribed.
  public func cancelAll() {
    for cancellable in cancellables { cancellable.cancel() }
    cancellables = []
  }
}
