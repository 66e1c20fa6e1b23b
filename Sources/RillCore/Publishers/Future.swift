/// A publisher that eventually produces a single value and then finishes or fails.
///
/// ```
/// Future { promise in promise(.success(1)) }: 1|
/// ```
///
/// The closure runs once, when the future is created, not when it is subscribed to. The first call to the
/// promise decides the result; later calls, from any thread, are ignored. Every subscriber, earlier or later,
/// receives that result: a value when it has requested one, then `.finished`; or the failure right away.
/// Wrap a future in ``Deferred`` to run the closure once per subscriber instead.
// SAFETY: all mutable state is in `state`; subscribers are called outside the lock.
public final class Future<Output, Failure: Error>: Publisher, @unchecked Sendable {
  /// A type that represents a closure to invoke in the future, when an element or error is available.
  public typealias Promise = (Result<Output, Failure>) -> Void

  private struct State {
    var result: Result<Output, Failure>?
    var subscriptions: [FutureSubscriptionBase<Output, Failure>] = []
  }

  private let state = Locked(State())

  /// Creates a publisher that invokes a promise closure when the publisher emits an element.
  ///
  /// - Parameter attemptToFulfill: A closure that the future calls at once with a promise, which the closure
  ///   calls, now or later, to deliver the result.
  public init(_ attemptToFulfill: @escaping (@escaping Promise) -> Void) {
    attemptToFulfill { [self] result in
      fulfill(result)
    }
  }

  private func fulfill(_ result: Result<Output, Failure>) {
    let subscriptions = state.withLock { state -> [FutureSubscriptionBase<Output, Failure>] in
      guard state.result == nil else { return [] }
      state.result = result
      defer { state.subscriptions = [] }
      return state.subscriptions
    }
    for subscription in subscriptions {
      subscription.fulfill(result)
    }
  }

  public func receive<S: Subscriber>(subscriber: S) where Output == S.Input, Failure == S.Failure {
    let subscription = FutureSubscription(downstream: subscriber)
    let result = state.withLock { state -> Result<Output, Failure>? in
      if state.result == nil { state.subscriptions.append(subscription) }
      return state.result
    }
    subscriber.receive(subscription: subscription)
    if let result {
      subscription.fulfill(result)
    }
  }
}

// SAFETY: immutable.
class FutureSubscriptionBase<Output, Failure: Error>: @unchecked Sendable {
  func fulfill(_ result: Result<Output, Failure>) { fatalError("abstract") }
}

// SAFETY: all mutable state is in `state`; the downstream is called outside the lock.
private final class FutureSubscription<Downstream: Subscriber>: FutureSubscriptionBase<
  Downstream.Input, Downstream.Failure
>, Subscription, CustomStringConvertible, CustomReflectable, CustomPlaygroundDisplayConvertible, @unchecked Sendable
{
  private struct State {
    var downstream: Downstream?
    var hasDemand = false
    var result: Result<Downstream.Input, Downstream.Failure>?
  }

  private let state: Locked<State>

  init(downstream: Downstream) {
    state = Locked(State(downstream: downstream))
  }

  var description: String { "Future" }

  var customMirror: Mirror { Mirror(self, children: ["downstream": state.withLock { $0.downstream } as Any]) }

  var playgroundDescription: Any { description }

  /// Takes the downstream if the result can be delivered now.
  private func takeIfReady(_ state: inout State) -> (Downstream, Result<Downstream.Input, Downstream.Failure>)? {
    guard let downstream = state.downstream, let result = state.result else { return nil }
    if case .success = result, !state.hasDemand { return nil }
    state.downstream = nil
    return (downstream, result)
  }

  override func fulfill(_ result: Result<Downstream.Input, Downstream.Failure>) {
    let ready = state.withLock { state in
      state.result = result
      return takeIfReady(&state)
    }
    deliver(ready)
  }

  func request(_ demand: Subscribers.Demand) {
    precondition(demand > 0, "Future: a subscriber requested \(demand); demand must be greater than zero")
    let ready = state.withLock { state in
      state.hasDemand = true
      return takeIfReady(&state)
    }
    deliver(ready)
  }

  private func deliver(_ ready: (Downstream, Result<Downstream.Input, Downstream.Failure>)?) {
    guard let (downstream, result) = ready else { return }
    switch result {
    case .success(let value):
      _ = downstream.receive(value)
      downstream.receive(completion: .finished)
    case .failure(let error):
      downstream.receive(completion: .failure(error))
    }
  }

  func cancel() {
    let downstream = state.withLock { state -> Downstream? in
      defer { state.downstream = nil }
      return state.downstream
    }
    _ = downstream
  }
}
