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
  /// subscriber asks for more. A completion needs no demand of its own, and does not wait for demand for the values in
  /// the buffer: as in CombineExt, it goes once the values the subscriber's demand covers (the demand it returns along
  /// the way included) have gone, and the values still waiting are dropped. Anything sent after it is ignored. A
  /// request of `.none` is accepted.
  ///
  /// The cancellable that `factory` returns is cancelled once, when the subscription ends: after the completion has
  /// reached the subscriber, or when the subscriber cancels. The subscription holds it until then; the ``Subscriber``
  /// refers to the subscription weakly, so a closure that keeps it creates no cycle, and its events are ignored once
  /// the subscription has ended.
  public struct Create<Output, Failure: Swift.Error>: Publisher {
    /// The closure that receives a subscriber to send events to, and returns what cleans up after the subscription.
    public typealias SubscriberHandler = (Subscriber) -> any Cancellable

    @usableFromInline let factory: SubscriberHandler

    /// Creates a publisher that runs `factory` for each subscriber.
    ///
    /// - Parameter factory: A closure that receives a ``Subscriber`` to send events to, and returns a cancellable
    ///   that cleans up once the subscription ends.
    public init(factory: @escaping SubscriberHandler) {
      self.factory = factory
    }

    @inlinable
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
  /// It may be kept and used from any thread, and is `Sendable` when `Output` is. It refers to its subscription
  /// weakly: once the subscription has ended (completed or cancelled) or been let go of, sending does nothing.
  public struct Subscriber {
    /// Sends a value to the subscription, if it is still there: made by the subscription, where its subscriber's
    /// type is known, and holding it weakly.
    @usableFromInline let sendValue: (Output) -> Void

    /// Sends a completion to the subscription, if it is still there.
    @usableFromInline let sendCompletion: (Subscribers.Completion<Failure>) -> Void

    @inlinable
    init(
      sendValue: @escaping (Output) -> Void,
      sendCompletion: @escaping (Subscribers.Completion<Failure>) -> Void
    ) {
      self.sendValue = sendValue
      self.sendCompletion = sendCompletion
    }

    /// Sends a value to the subscriber, or keeps it until the subscriber has demand for it.
    ///
    /// - Parameter input: The value to send.
    @inlinable
    public func send(_ input: Output) {
      sendValue(input)
    }

    /// Sends a completion to the subscriber, after the values its demand covers; the values beyond it are dropped.
    ///
    /// - Parameter completion: `.finished`, or `.failure` with the error.
    @inlinable
    public func send(completion: Subscribers.Completion<Failure>) {
      sendCompletion(completion)
    }
  }
}

// SAFETY: the closures hold the subscription weakly, and the subscription keeps all mutable state in `Locked`.
extension Publishers.Create.Subscriber: @unchecked Sendable where Output: Sendable {}

extension Publishers.Create {
  // SAFETY: all mutable state is in `state`; downstream and the cancellable are called outside the lock.
  @usableFromInline
  final class Inner<Downstream: RillCore.Subscriber>: Subscription,
    CustomStringConvertible, @unchecked Sendable
  where Downstream.Input == Output, Downstream.Failure == Failure {
    @usableFromInline
    struct State {
      @usableFromInline var buffer = DemandBuffer<Output, Failure>(completionDropsWaitingValues: true)
      /// What `factory` returned, until the subscription ends.
      @usableFromInline var cancellable: (any Cancellable)?

      @inlinable
      init(
        buffer: DemandBuffer<Output, Failure> = DemandBuffer<Output, Failure>(completionDropsWaitingValues: true),
        cancellable: (any Cancellable)? = nil
      ) {
        self.buffer = buffer
        self.cancellable = cancellable
      }
    }

    @usableFromInline let downstream: Downstream

    @usableFromInline let state = Locked(State())

    @inlinable
    init(downstream: Downstream) {
      self.downstream = downstream
    }

    @usableFromInline var description: String { "Create.Subscription<\(Output.self), \(Failure.self)>" }

    /// Runs `factory`, unless the subscriber already cancelled, and keeps what it returns.
    @inlinable
    func start(_ factory: SubscriberHandler) {
      guard !state.withLock({ $0.buffer.hasEnded }) else { return }
      let cancellable = factory(
        Subscriber(
          sendValue: { [weak self] in self?.send($0) },
          sendCompletion: { [weak self] in self?.send(completion: $0) }
        )
      )
      // The stream may have ended while `factory` ran: then it is cleaned up at once.
      let kept = state.withLock { state -> Bool in
        guard !state.buffer.hasEnded else { return false }
        state.cancellable = cancellable
        return true
      }
      if !kept { cancellable.cancel() }
    }

    @inlinable
    func send(_ value: Output) {
      guard state.withLock({ $0.buffer.send(value) }) else { return }
      drain(adding: downstream.receive(value))
    }

    @inlinable
    func send(completion: Subscribers.Completion<Failure>) {
      if state.withLock({ $0.buffer.send(completion: completion) }) { drain(adding: .none) }
    }

    /// Adds demand; a request of `.none` is accepted, as in CombineExt, and adds nothing.
    @inlinable
    func request(_ demand: Subscribers.Demand) {
      if state.withLock({ $0.buffer.request(demand) }) { drain(adding: .none) }
    }

    @inlinable
    func cancel() {
      // The values that waited are released after unlocking.
      let (cancellable, released) = state.withLock { state -> ((any Cancellable)?, FIFO<Output>) in
        guard !state.buffer.hasEnded else { return (nil, FIFO()) }
        return (state.cancellable.take(), state.buffer.end())
      }
      cancellable?.cancel()
      _ = released
    }

    /// Delivers what waits, as far as demand goes; only the thread the buffer chose runs this.
    @inlinable
    func drain(adding demand: Subscribers.Demand) {
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
