/// A subject that replays its latest values, and its completion, to each new subscriber, then forwards live events.
///
/// ```
/// subject:                    -1-2-3-----4-|
/// ReplaySubject(bufferSize: 2), subscribed at the fifth tick:
///                             -----[23]--4-|
/// ```
///
/// The subject keeps the latest `bufferSize` values, oldest first. A new subscriber gets them, then every value sent
/// after it subscribed; a subscriber that comes after the completion gets the kept values, then the completion. Each
/// subscriber receives values only as far as its demand: the rest wait, in order, in a queue of its own (so a slow
/// subscriber never holds up a fast one, and never loses a value), and a completion reaches it once its queue is
/// empty. As a subscriber to an upstream publisher, the subject requests unlimited values.
///
/// `send(_:)`, `send(completion:)`, subscribing, `request(_:)` and `cancel()` may be called from any thread; one
/// lock guards the subject's state, and no subscriber is called while it is held. A subscriber is called by one
/// thread at a time, and may send to the subject from inside a delivery.
///
/// The subject is `Sendable` when its `Output` is: the values it keeps go to subscribers on any thread.
public final class ReplaySubject<Output, Failure: Error>: Subject {
  @usableFromInline
  typealias State = ReplaySubjectState<Output, Failure>

  /// The subject's hot paths, made in `init`, which runs in client code, so they run specialised code.
  ///
  /// `send(_:)` and `request(_:)` usually arrive through a protocol (`Subject`, `Subscription`), which lands in the
  /// unspecialised generic implementation; these closures take them to code specialised for the subject's types. They travel in a struct and are called where they are
  /// stored: a closure read out of a generic type as a concrete function value is wrapped in a thunk, an allocation
  /// per read.
  @usableFromInline
  struct EntryPoints {
    @usableFromInline
    let send: (ReplaySubject, Output) -> Void

    @usableFromInline
    let request: (ReplaySubject, Subscribers.Demand, Int) -> Void

    @inlinable
    init(
      send: @escaping (ReplaySubject, Output) -> Void,
      request: @escaping (ReplaySubject, Subscribers.Demand, Int) -> Void
    ) {
      self.send = send
      self.request = request
    }
  }

  @usableFromInline
  let state: Locked<State>

  @usableFromInline
  let entryPoints: EntryPoints

  /// Creates a subject that replays up to `bufferSize` of its latest values to each new subscriber.
  ///
  /// - Parameter bufferSize: The number of values to keep and replay; `0` keeps none.
  @inlinable
  public init(bufferSize: Int) {
    state = Locked(State(bufferSize: bufferSize))
    entryPoints = EntryPoints(
      send: { subject, value in subject.sendNow(value) },
      request: { subject, demand, id in subject.requestNow(demand, for: id) }
    )
  }

  /// Sends a value to the subscribers, and keeps it for the ones to come; ignored after a completion.
  ///
  /// - Parameter value: The value to send.
  @inlinable
  public func send(_ value: Output) {
    entryPoints.send(self, value)
  }

  /// Sends a completion to the subscribers, after the values each of them still has to take, and keeps it for the
  /// ones to come; only the first completion counts.
  ///
  /// - Parameter completion: The completion to send.
  @inlinable
  public func send(completion: Subscribers.Completion<Failure>) {
    var drain = State.Drain()
    let first = state.withLock { $0.send(completion: completion, &drain) }
    run(first, &drain)
  }

  /// Requests unlimited values from an upstream subscription.
  ///
  /// - Parameter subscription: The upstream subscription.
  public func send(subscription: any Subscription) {
    subscription.request(.unlimited)
  }

  @inlinable
  public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
    var drain = State.Drain()
    let conduit = state.withLock { state in
      let conduit = ReplaySubjectConduit(subject: self, id: state.makeID(), downstream: subscriber)
      state.subscribe(conduit, &drain)
      return conduit
    }
    subscriber.receive(subscription: conduit)
    let first = state.withLock { $0.resume(&drain) }
    run(first, &drain)
  }

  @inlinable
  func sendNow(_ value: Output) {
    var drain = State.Drain()
    var evicted: Output?
    let first = state.withLock { $0.send(value, &drain, evicted: &evicted) }
    // The value that left the replay buffer is released here, outside the lock.
    evicted = nil
    run(first, &drain)
  }

  @inlinable
  func requestNow(_ demand: Subscribers.Demand, for id: Int) {
    var drain = State.Drain()
    let first = state.withLock { $0.request(demand, for: id, &drain) }
    run(first, &drain)
  }

  @usableFromInline
  func cancel(_ conduit: ReplaySubjectConduitBase<Output, Failure>) {
    let removed = state.withLock { $0.cancel(conduit.id) }
    // A busy subscriber is let go of by the drain inside it; the slot's queued values go here, outside the lock.
    if let removed, !removed.isBusy { conduit.releaseDownstream() }
  }

  /// Runs a drain: delivers each step outside the lock, and reports back for the next one.
  @inlinable
  func run(_ first: State.Step, _ drain: inout State.Drain) {
    var step = first
    while true {
      switch step {
      case .done:
        return
      case .value(let conduit, let value):
        let demand = conduit.receive(value)
        var cancelled = false
        step = state.withLock { $0.delivered(demand, &drain, cancelled: &cancelled) }
        if cancelled { conduit.releaseDownstream() }
      case .completion(let conduit, let completion):
        conduit.complete(completion)
        step = state.withLock { $0.next(&drain) }
      }
    }
  }
}

// SAFETY: all mutable state is in `state`; subscribers and subscriptions are called outside the lock; the values it
// keeps and hands to subscribers on other threads are `Sendable`.
extension ReplaySubject: @unchecked Sendable where Output: Sendable {}
