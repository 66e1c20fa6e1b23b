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
    /// Set only through ``whenAbandoned(_:)``; `nil` for every future built with Combine's initializer.
    var abandonment: FutureAbandonment?
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
      state.abandonment = nil
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
      if state.result == nil {
        state.subscriptions.append(subscription)
        if state.abandonment != nil {
          state.abandonment?.liveSubscribers += 1
          subscription.owner = self
        }
      }
      return state.result
    }
    subscriber.receive(subscription: subscription)
    if let result {
      subscription.fulfill(result)
    }
  }
}

extension Future {
  /// Calls `handler` once if every subscriber that attached cancels before the result arrives.
  ///
  /// The hook behind RillExt's `Future(priority:awaiting:)`, which cancels its task with it: the work stops
  /// when nobody can receive its result any more. It fires when the count of subscribers still waiting drops
  /// to zero after at least one attached; a future nobody subscribes to runs its work to the end, like any
  /// `Future`. It never fires once the result is in. Install it right after creating the future, before it is
  /// shared: a subscriber that attached earlier is not counted.
  package func whenAbandoned(_ handler: @escaping @Sendable () -> Void) {
    state.withLock { state in
      guard state.result == nil, state.subscriptions.isEmpty else { return }
      state.abandonment = FutureAbandonment(handler: handler)
    }
  }

  /// Counts one subscriber gone before the result; calls the handler when it was the last one.
  fileprivate func subscriberCancelled() {
    let handler = state.withLock { state -> (@Sendable () -> Void)? in
      guard state.result == nil, var abandonment = state.abandonment else { return nil }
      abandonment.liveSubscribers -= 1
      guard abandonment.liveSubscribers == 0 else {
        state.abandonment = abandonment
        return nil
      }
      state.abandonment = nil
      return abandonment.handler
    }
    handler?()
  }
}

/// The abandonment hook of a future and the number of its subscribers still waiting for the result.
private struct FutureAbandonment {
  let handler: @Sendable () -> Void
  var liveSubscribers = 0
}

// SAFETY: `owner` is set under the future's lock before the subscription reaches its subscriber, then read and
// cleared only by the one `cancel()` that still finds the subscriber, which comes after that hand-over.
class FutureSubscriptionBase<Output, Failure: Error>: @unchecked Sendable {
  /// The future to tell about a cancel; set only for futures with an abandonment hook.
  final var owner: Future<Output, Failure>?

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
    let (downstream, waiting) = state.withLock { state -> (Downstream?, Bool) in
      defer { state.downstream = nil }
      return (state.downstream, state.result == nil)
    }
    guard downstream != nil, waiting, let owner else { return }
    self.owner = nil
    owner.subscriberCancelled()
  }
}
