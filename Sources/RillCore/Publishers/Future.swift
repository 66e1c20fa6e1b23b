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
///
/// A future is `Sendable` when its `Output` is: every subscriber, on any thread, receives the same result.
public final class Future<Output, Failure: Error>: Publisher {
  /// A type that represents a closure to invoke in the future, when an element or error is available.
  public typealias Promise = (Result<Output, Failure>) -> Void

  @usableFromInline
  struct State {
    @usableFromInline
    var result: Result<Output, Failure>?
    @usableFromInline
    var waiting: [FutureWaiter<Output, Failure>] = []
    /// Set only through ``whenAbandoned(_:)``; `nil` for every future built with Combine's initializer.
    @usableFromInline
    var abandonment: FutureAbandonment?

    @inlinable
    init(
      result: Result<Output, Failure>? = nil,
      waiting: [FutureWaiter<Output, Failure>] = [],
      abandonment: FutureAbandonment? = nil
    ) {
      self.result = result
      self.waiting = waiting
      self.abandonment = abandonment
    }
  }

  @usableFromInline
  let state = Locked(State())

  /// Creates a publisher that invokes a promise closure when the publisher emits an element.
  ///
  /// - Parameter attemptToFulfill: A closure that the future calls at once with a promise, which the closure
  ///   calls, now or later, to deliver the result.
  @inlinable
  public init(_ attemptToFulfill: @escaping (@escaping Promise) -> Void) {
    attemptToFulfill { [self] result in
      fulfill(result)
    }
  }

  @inlinable
  func fulfill(_ result: Result<Output, Failure>) {
    let waiting = state.withLock { state -> [FutureWaiter<Output, Failure>] in
      guard state.result == nil else { return [] }
      state.result = result
      state.abandonment = nil
      defer { state.waiting = [] }
      return state.waiting
    }
    for waiter in waiting {
      waiter.fulfill(result)
    }
  }

  @inlinable
  public func receive<S: Subscriber>(subscriber: S) where Output == S.Input, Failure == S.Failure {
    let subscription = FutureSubscription(parent: self, downstream: subscriber)
    let result = state.withLock { state -> Result<Output, Failure>? in
      if state.result == nil {
        state.waiting.append(FutureWaiter(identity: ObjectIdentifier(subscription), fulfill: subscription.fulfill))
      }
      return state.result
    }
    if let result {
      subscription.fulfill(result)
    }
    subscriber.receive(subscription: subscription)
    subscription.attached()
  }

  /// Forgets a subscription cancelled before the result; calls the abandonment hook when it was the last one.
  @inlinable
  func disassociate(_ subscription: AnyObject) {
    let identity = ObjectIdentifier(subscription)
    let (handler, waiter) = state.withLock { state -> ((@Sendable () -> Void)?, FutureWaiter<Output, Failure>?) in
      guard state.result == nil, let index = state.waiting.firstIndex(where: { $0.identity == identity }) else {
        return (nil, nil)
      }
      let waiter = state.waiting.remove(at: index)
      guard state.waiting.isEmpty, let abandonment = state.abandonment else { return (nil, waiter) }
      state.abandonment = nil
      return (abandonment.handler, waiter)
    }
    // The waiter, which holds the subscription, is released here, outside the lock.
    _ = waiter
    handler?()
  }
}

// SAFETY: all mutable state is in `state`, and subscribers are called outside the lock; the result it hands to
// every subscriber, whatever thread each is on, is `Sendable`.
extension Future: @unchecked Sendable where Output: Sendable {}

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
      guard state.result == nil, state.waiting.isEmpty else { return }
      state.abandonment = FutureAbandonment(handler: handler)
    }
  }
}

/// The abandonment hook of a future, which fires when its last waiting subscriber cancels.
@usableFromInline
struct FutureAbandonment {
  @usableFromInline
  let handler: @Sendable () -> Void
}

/// A subscription waiting for its future's result, whatever its subscriber's type: how to hand it the result, and
/// its identity, to find it when it cancels.
@usableFromInline
struct FutureWaiter<Output, Failure: Error> {
  @usableFromInline
  let identity: ObjectIdentifier
  @usableFromInline
  let fulfill: (Result<Output, Failure>) -> Void

  @inlinable
  init(identity: ObjectIdentifier, fulfill: @escaping (Result<Output, Failure>) -> Void) {
    self.identity = identity
    self.fulfill = fulfill
  }
}

/// A future's subscription, which Combine calls its conduit.
///
/// It holds its future (`parent`) while it waits: a cancel tells the future to forget it. Delivering the result
/// the future pushed releases the future; delivering a result the subscriber pulled with its demand keeps it,
/// as Combine's does, which its `Mirror` shows.
// SAFETY: all mutable state is in `state`; the downstream and the future are called outside the lock.
@usableFromInline
final class FutureSubscription<Downstream: Subscriber>: Subscription, CombineDescribable, @unchecked Sendable {
  @usableFromInline
  typealias Parent = Future<Downstream.Input, Downstream.Failure>
  @usableFromInline
  typealias Outcome = Result<Downstream.Input, Downstream.Failure>

  @usableFromInline
  typealias State = FutureSubscriptionState<Downstream, Downstream.Input, Downstream.Failure>

  @usableFromInline
  let state: Locked<State>

  @inlinable
  init(parent: Parent, downstream: Downstream) {
    state = Locked(State(parent: parent, downstream: downstream))
  }

  @inlinable
  var description: String { "Future" }

  @inlinable
  var customMirror: Mirror {
    let (parent, downstream, hasDemand) = state.withLock { ($0.parent, $0.downstream, $0.hasDemand) }
    let children: [Mirror.Child] = [
      ("parent", parent as Any),
      ("downstream", downstream as Any),
      ("hasAnyDemand", hasDemand),
      ("subject", parent as Any),
    ]
    return Mirror(self, children: children)
  }

  /// Takes the downstream if the result can be delivered now; the subscription is then terminated.
  @inlinable
  func takeIfReady(_ state: inout State) -> (Downstream, Outcome)? {
    guard state.isAttached, let downstream = state.downstream, let result = state.result else { return nil }
    if case .success = result, !state.hasDemand { return nil }
    state.downstream = nil
    state.hasDemand = false
    return (downstream, result)
  }

  @inlinable
  func fulfill(_ result: Outcome) {
    let ready = state.withLock { state in
      state.result = result
      return takeIfReady(&state)
    }
    guard let ready else { return }
    deliverPushed(ready)
  }

  /// `receive(subscription:)` has returned: a result that arrived meanwhile goes out now.
  @inlinable
  func attached() {
    let ready = state.withLock { state in
      state.isAttached = true
      return takeIfReady(&state)
    }
    guard let ready else { return }
    deliverPushed(ready)
  }

  /// Delivers a result the future pushed, then lets the future go.
  @inlinable
  func deliverPushed(_ ready: (Downstream, Outcome)) {
    deliver(ready)
    // The future goes only after the delivery, and outside the lock.
    _ = state.withLock { state -> Parent? in
      defer { state.parent = nil }
      return state.parent
    }
  }

  @inlinable
  func request(_ demand: Subscribers.Demand) {
    precondition(demand > 0, "Future: a subscriber requested \(demand); demand must be greater than zero")
    let ready = state.withLock { state in
      state.hasDemand = state.downstream != nil
      return takeIfReady(&state)
    }
    if let ready {
      deliver(ready)
    }
  }

  @inlinable
  func deliver(_ ready: (Downstream, Outcome)) {
    let (downstream, result) = ready
    switch result {
    case .success(let value):
      _ = downstream.receive(value)
      downstream.receive(completion: .finished)
    case .failure(let error):
      downstream.receive(completion: .failure(error))
    }
  }

  @inlinable
  func cancel() {
    let (parent, waiting, downstream) = state.withLock { state -> (Parent?, Bool, Downstream?) in
      guard let downstream = state.downstream.take() else { return (nil, false, nil) }
      state.hasDemand = false
      defer { state.parent = nil }
      return (state.parent, state.result == nil, downstream)
    }
    if waiting, let parent {
      parent.disassociate(self)
    }
    // The subscriber is released here, outside the lock.
    _ = downstream
  }
}

/// What a future's subscription keeps under its lock.
///
/// Its types are generic parameters of its own rather than the subscriber's `Input` and `Failure`: the lock's storage
/// destroys it in its `deinit`, which runs unspecialised, through the state's value witnesses, and those then find
/// the types in the state's metadata instead of looking the subscriber's associated types up at run time (a state
/// generic over what it holds: WritingAnOperator.md, "Hot-path idioms").
@usableFromInline
struct FutureSubscriptionState<Downstream, Output, Failure: Error> {
  @usableFromInline
  var parent: Future<Output, Failure>?
  @usableFromInline
  var downstream: Downstream?
  @usableFromInline
  var hasDemand = false
  @usableFromInline
  var result: Result<Output, Failure>?
  /// Set once `receive(subscription:)` has returned: a result that arrives before, from another thread while the
  /// future registers the subscriber or re-entrantly from inside `receive(subscription:)`, waits until then, so
  /// the subscriber is never called before or during `receive(subscription:)`.
  @usableFromInline
  var isAttached = false

  @inlinable
  init(parent: Future<Output, Failure>? = nil, downstream: Downstream? = nil) {
    self.parent = parent
    self.downstream = downstream
  }
}
