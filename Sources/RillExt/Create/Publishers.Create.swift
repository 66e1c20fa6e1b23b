extension AnyPublisher {
  /// Creates a publisher that runs `factory` for each subscriber, which sends values and a completion by hand.
  ///
  /// ```
  /// AnyPublisher<Int, MarbleError> { subscriber in
  ///   subscriber.send(1)
  ///   subscriber.send(2)
  ///   subscriber.send(completion: .finished)
  ///   return AnyCancellable {}
  /// }:                                               [12|]
  /// ```
  ///
  /// See ``Publishers/Create`` for when `factory` runs, how demand is honoured, and when the returned cancellable is
  /// cancelled.
  ///
  /// - Parameter factory: A closure that receives a ``Publishers/Create/Subscriber`` to send events to, and returns a
  ///   cancellable that cleans up once the subscription ends.
  public init(_ factory: @escaping Publishers.Create<Output, Failure>.SubscriberHandler) {
    self = Publishers.Create(factory: factory).eraseToAnyPublisher()
  }

  /// Makes a publisher that runs `factory` for each subscriber, which sends values and a completion by hand.
  ///
  /// ```
  /// AnyPublisher<Int, MarbleError>.create { subscriber in
  ///   subscriber.send(1)
  ///   subscriber.send(completion: .failure(MarbleError()))
  ///   return AnyCancellable {}
  /// }:                                               [1^]
  /// ```
  ///
  /// See ``Publishers/Create`` for when `factory` runs, how demand is honoured, and when the returned cancellable is
  /// cancelled.
  ///
  /// - Parameter factory: A closure that receives a ``Publishers/Create/Subscriber`` to send events to, and returns a
  ///   cancellable that cleans up once the subscription ends.
  /// - Returns: The publisher, type-erased.
  public static func create(
    _ factory: @escaping Publishers.Create<Output, Failure>.SubscriberHandler
  ) -> AnyPublisher<Output, Failure> {
    AnyPublisher(factory)
  }
}

extension Publishers {
  /// A publisher that hands each subscriber to a closure, which sends values and a completion to it by hand.
  ///
  /// ```
  /// Publishers.Create<Int, MarbleError> { subscriber in
  ///   subscriber.send(1)
  ///   subscriber.send(completion: .finished)
  ///   return AnyCancellable {}
  /// }:                                               [1|]
  /// ```
  ///
  /// For each subscriber, the publisher sends the subscription, then (unless the subscriber cancelled from inside
  /// `receive(subscription:)`) runs `factory` with a ``Subscriber`` for this subscription. The closure may send right
  /// away or keep the ``Subscriber`` and send later, from any thread.
  ///
  /// Demand is honoured: a value sent while the subscriber has no demand left waits in a buffer, in order, until the
  /// subscriber asks for more. A completion needs no demand of its own, and does not wait for the values beyond the
  /// subscriber's demand: it goes right after the values the subscriber has asked for, and the others are dropped.
  /// Only before the subscriber's first request does a completion wait, so that the values sent before it can still go
  /// as far as that request allows. A request of `.none` counts as a request. Anything sent after the completion is
  /// ignored.
  ///
  /// The cancellable that `factory` returns is cancelled once, when the subscription ends: after the completion has
  /// reached the subscriber, or when the subscriber cancels. The subscription holds it until then; the ``Subscriber``
  /// refers to the subscription weakly, so a closure that keeps it creates no cycle, and its events are ignored once
  /// the subscription has ended.
  public struct Create<Output, Failure: Swift.Error>: Publisher {
    /// The closure that receives a subscriber to send events to, and returns what cleans up after the subscription.
    public typealias SubscriberHandler = (Subscriber) -> any Cancellable

    private let factory: SubscriberHandler

    /// Creates a publisher that runs `factory` for each subscriber.
    ///
    /// - Parameter factory: A closure that receives a ``Subscriber`` to send events to, and returns a cancellable
    ///   that cleans up once the subscription ends.
    public init(factory: @escaping SubscriberHandler) {
      self.factory = factory
    }

    public func receive<S: RillCore.Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
      let inner = Inner(downstream: subscriber)
      subscriber.receive(subscription: inner)
      inner.start(factory)
    }
  }
}

extension Publishers.Create {
  /// The handle a ``Publishers/Create`` closure sends its events to.
  ///
  /// It may be kept and used from any thread. It refers to its subscription weakly: once the subscription has ended
  /// (completed or cancelled) or been let go of, sending does nothing.
  public struct Subscriber: Sendable {
    private weak var sink: CreateSink<Output, Failure>?

    fileprivate init(sink: CreateSink<Output, Failure>) {
      self.sink = sink
    }

    /// Sends a value to the subscriber, or keeps it until the subscriber has demand for it.
    ///
    /// - Parameter input: The value to send.
    public func send(_ input: Output) {
      sink?.send(input)
    }

    /// Sends a completion to the subscriber, after the values it has asked for; the values beyond its demand are
    /// dropped.
    ///
    /// - Parameter completion: `.finished`, or `.failure` with the error.
    public func send(completion: Subscribers.Completion<Failure>) {
      sink?.send(completion: completion)
    }
  }
}

/// What a ``Publishers/Create/Subscriber`` sends to: the subscription, without its subscriber's type.
// SAFETY: no state of its own; the subclass keeps its state in `Locked`.
class CreateSink<Output, Failure: Error>: @unchecked Sendable {
  func send(_ value: Output) {}

  func send(completion: Subscribers.Completion<Failure>) {}
}

extension Publishers.Create {
  // SAFETY: all mutable state is in `state`; downstream and the cancellable are called outside the lock.
  private final class Inner<Downstream: RillCore.Subscriber>: CreateSink<Output, Failure>, Subscription,
    CustomStringConvertible, @unchecked Sendable
  where Downstream.Input == Output, Downstream.Failure == Failure {
    private struct State {
      var buffer = DemandBuffer<Output, Failure>()
      /// What `factory` returned, until the subscription ends.
      var cancellable: (any Cancellable)?
      /// Whether the subscriber has requested anything, even `.none`.
      var hasRequested = false
      /// A completion sent before the subscriber's first request, which waits for it.
      var heldCompletion: Subscribers.Completion<Failure>?

      /// Hands the completion to the buffer, after the values the subscriber asked for: returns whether to drain.
      mutating func complete(_ completion: Subscribers.Completion<Failure>) -> Bool {
        buffer.dropValuesBeyondDemand()
        return buffer.send(completion: completion)
      }
    }

    private let downstream: Downstream

    private let state = Locked(State())

    init(downstream: Downstream) {
      self.downstream = downstream
    }

    var description: String { "Create.Subscription<\(Output.self), \(Failure.self)>" }

    /// Runs `factory`, unless the subscriber already cancelled, and keeps what it returns.
    func start(_ factory: SubscriberHandler) {
      guard !state.withLock({ $0.buffer.hasEnded }) else { return }
      let cancellable = factory(Subscriber(sink: self))
      // The stream may have ended while `factory` ran: then it is cleaned up at once.
      let kept = state.withLock { state -> Bool in
        guard !state.buffer.hasEnded else { return false }
        state.cancellable = cancellable
        return true
      }
      if !kept { cancellable.cancel() }
    }

    override func send(_ value: Output) {
      guard state.withLock({ $0.heldCompletion == nil && $0.buffer.send(value) }) else { return }
      drain(adding: downstream.receive(value))
    }

    override func send(completion: Subscribers.Completion<Failure>) {
      let drains = state.withLock { state -> Bool in
        guard state.heldCompletion == nil, !state.buffer.isCompleted else { return false }
        guard state.hasRequested else {
          state.heldCompletion = completion
          return false
        }
        return state.complete(completion)
      }
      if drains { drain(adding: .none) }
    }

    /// Adds demand; `.none` is accepted, and lets a completion that waited for the first request go.
    func request(_ demand: Subscribers.Demand) {
      let drains = state.withLock { state -> Bool in
        guard !state.buffer.hasEnded else { return false }
        state.hasRequested = true
        let requested = state.buffer.request(demand)
        guard let completion = state.heldCompletion.take() else { return requested }
        return state.complete(completion) || requested
      }
      if drains { drain(adding: .none) }
    }

    func cancel() {
      let cancellable = state.withLock { state -> (any Cancellable)? in
        guard !state.buffer.hasEnded else { return nil }
        state.buffer.end()
        defer { state.cancellable = nil }
        return state.cancellable
      }
      cancellable?.cancel()
    }

    /// Delivers what waits, as far as demand goes; only the thread the buffer chose runs this.
    private func drain(adding demand: Subscribers.Demand) {
      var cancellable: (any Cancellable)?
      state.drain(to: downstream, adding: demand) { state, demand in
        let step = state.buffer.next(adding: demand)
        if case .complete = step { cancellable = state.cancellable.take() }
        return step
      }
      // After the completion: the work the factory started is cleaned up.
      cancellable?.cancel()
    }
  }
}
