extension Subscribers {
  /// A simple subscriber that requests an unlimited number of values upon subscription.
  ///
  /// A sink releases its closures, and with them anything they capture, once it completes or is cancelled; a call
  /// already running keeps its closure until it returns. A second subscription is cancelled; values and
  /// completions after the sink has ended are ignored. As in Combine, values and a completion that arrive before a
  /// subscription are delivered, and a cancel before a subscription does nothing.
  ///
  /// As in Combine, a sink is not `Sendable`: it runs its closures, which may change state that is not safe to
  /// share, on the thread that delivers each event. The ``AnyCancellable`` that `sink(receiveValue:)` returns is
  /// `Sendable`, and cancels the sink from any thread.
  public final class Sink<Input, Failure: Error>: Subscriber, Cancellable, CustomStringConvertible,
    CustomReflectable, CustomPlaygroundDisplayConvertible
  {
    /// The sink's closures, in a struct rather than as bare function values (a closure in a struct:
    /// WritingAnOperator.md, "Hot-path idioms").
    @usableFromInline
    struct Closures {
      @usableFromInline let receiveValue: ValueClosure
      @usableFromInline let receiveCompletion: ((Subscribers.Completion<Failure>) -> Void)?

      @inlinable
      init(
        receiveValue: @escaping (Input) -> Void,
        receiveCompletion: ((Subscribers.Completion<Failure>) -> Void)?
      ) {
        self.receiveValue = ValueClosure(call: receiveValue)
        self.receiveCompletion = receiveCompletion
      }
    }

    /// The value closure in a struct of its own, so that each value copies it alone out of the lock, not the
    /// completion closure with it.
    @usableFromInline
    struct ValueClosure {
      @usableFromInline let call: (Input) -> Void

      @inlinable
      init(call: @escaping (Input) -> Void) {
        self.call = call
      }
    }

    /// What the sink's lock protects: its link to the upstream, and its closures until it ends.
    @usableFromInline
    struct State {
      @usableFromInline var link = SubscriptionState.awaitingSubscription
      @usableFromInline var closures: Closures?

      @inlinable
      init(_ closures: Closures) {
        self.closures = closures
      }

      /// Ends the sink: returns the upstream, if any, and hands over the closures, for the caller to call and
      /// release outside the lock.
      @inlinable
      mutating func end() -> (upstream: (any Subscription)?, closures: Closures?) {
        (link.terminate(), closures.take())
      }
    }

    @usableFromInline let state: Locked<State>

    /// Runs ``cancelNow()`` in specialised code, for a cancel through `AnyCancellable` (a specialised entry:
    /// WritingAnOperator.md, "Hot-path idioms").
    @usableFromInline let specialized: SpecializedEntry<Sink>

    /// The closure to execute on receipt of a value; a no-op once the sink has ended.
    public var receiveValue: (Input) -> Void {
      state.withLock { $0.closures?.receiveValue.call } ?? { _ in }
    }

    /// The closure to execute on completion; a no-op once the sink has ended.
    public var receiveCompletion: (Subscribers.Completion<Failure>) -> Void {
      state.withLock { $0.closures?.receiveCompletion } ?? { _ in }
    }

    /// Initializes a sink with the provided closures.
    @inlinable
    public init(
      receiveCompletion: @escaping ((Subscribers.Completion<Failure>) -> Void),
      receiveValue: @escaping ((Input) -> Void)
    ) {
      state = Locked(State(Closures(receiveValue: receiveValue, receiveCompletion: receiveCompletion)))
      specialized = SpecializedEntry { sink, _ in sink.cancelNow() }
    }

    /// Initializes a sink that ignores completion, without allocating a no-op completion closure.
    @inlinable
    init(ignoringCompletion receiveValue: @escaping ((Input) -> Void)) {
      state = Locked(State(Closures(receiveValue: receiveValue, receiveCompletion: nil)))
      specialized = SpecializedEntry { sink, _ in sink.cancelNow() }
    }

    public var description: String { "Sink" }

    public var customMirror: Mirror { Mirror(self, children: [:]) }

    public var playgroundDescription: Any { description }

    @inlinable
    public func receive(subscription: any Subscription) {
      if state.withLock({ $0.link.subscribe(subscription) }) {
        subscription.request(.unlimited)
      } else {
        subscription.cancel()
      }
    }

    @inlinable
    public func receive(_ value: Input) -> Subscribers.Demand {
      state.withLock { $0.closures?.receiveValue }?.call(value)
      // `.none` spelled out: WritingAnOperator.md, "Hot-path idioms".
      return Subscribers.Demand(rawValue: 0)
    }

    @inlinable
    public func receive(completion: Subscribers.Completion<Failure>) {
      // A tuple of optionals, not an optional tuple, whose copies would go through the tuple's value witnesses.
      let (upstream, closures) = state.withLock { state in state.link.isTerminal ? (nil, nil) : state.end() }
      closures?.receiveCompletion?(completion)
      // The finished subscription is released here, after unlocking.
      _ = upstream
    }

    @inlinable
    public func cancel() {
      specialized(self, Subscribers.Demand(rawValue: 0))
    }

    @inlinable
    func cancelNow() {
      // As in Combine, only a subscribed sink acts on a cancel.
      let (upstream, closures) = state.withLock { state in state.link.isSubscribed ? state.end() : (nil, nil) }
      if let upstream { upstream.cancel() }
      // The closures are released here, after unlocking.
      _ = closures
    }
  }
}

extension Publisher {
  /// Attaches a subscriber with closure-based behavior.
  ///
  /// The subscriber requests an unlimited number of values. Keep the returned ``AnyCancellable``: when it is
  /// deinitialized, the subscription is cancelled.
  ///
  /// - Parameters:
  ///   - receiveCompletion: The closure to execute on completion.
  ///   - receiveValue: The closure to execute on receipt of a value.
  /// - Returns: A cancellable instance, which you use when you end assignment of the received value.
  @inlinable
  public func sink(
    receiveCompletion: @escaping ((Subscribers.Completion<Failure>) -> Void),
    receiveValue: @escaping ((Output) -> Void)
  ) -> AnyCancellable {
    let sink = Subscribers.Sink<Output, Failure>(receiveCompletion: receiveCompletion, receiveValue: receiveValue)
    subscribe(sink)
    return AnyCancellable(sink)
  }
}

extension Publisher where Failure == Never {
  /// Attaches a subscriber with closure-based behavior to a publisher that never fails.
  ///
  /// - Parameter receiveValue: The closure to execute on receipt of a value.
  /// - Returns: A cancellable instance, which you use when you end assignment of the received value.
  @inlinable
  public func sink(receiveValue: @escaping ((Output) -> Void)) -> AnyCancellable {
    let sink = Subscribers.Sink<Output, Failure>(ignoringCompletion: receiveValue)
    subscribe(sink)
    return AnyCancellable(sink)
  }
}
