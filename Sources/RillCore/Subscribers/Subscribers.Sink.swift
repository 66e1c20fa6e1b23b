public import Synchronization

extension Subscribers {
  /// A simple subscriber that requests an unlimited number of values upon subscription.
  ///
  /// A sink releases its closures, and with them anything they capture, once it completes or is cancelled.
  /// A second subscription is cancelled; values and completions after the sink has ended are ignored.
  // SAFETY: all mutable state is in `state`; the closures and the upstream are called outside the lock.
  public final class Sink<Input, Failure: Error>: Subscriber, Cancellable, CustomStringConvertible,
    CustomReflectable, CustomPlaygroundDisplayConvertible, @unchecked Sendable
  {
    /// The closures, in an immutable box that a value borrows instead of retaining.
    ///
    /// Copying a closure out of mutable storage to call it costs a retain and a release, two atomic operations
    /// per value. The sink instead counts the calls in progress under its lock and calls the closure through
    /// the box, which it releases only when no call is in progress.
    @usableFromInline
    final class Closures {
      @usableFromInline let value: (Input) -> Void
      @usableFromInline let completion: ((Subscribers.Completion<Failure>) -> Void)?

      @inlinable
      init(value: @escaping (Input) -> Void, completion: ((Subscribers.Completion<Failure>) -> Void)?) {
        self.value = value
        self.completion = completion
      }
    }

    @usableFromInline
    struct State {
      @usableFromInline var link = SubscriptionState.awaitingSubscription
      /// Whether values are delivered: subscribed and not ended, kept apart from `link` so that checking it
      /// copies no existential.
      @usableFromInline var isReceiving = false
      /// The closures, retained once; `nil` once released.
      @usableFromInline var closures: Unmanaged<Closures>?
      /// Closure calls in progress; the closures outlive them even if the sink ends meanwhile.
      @usableFromInline var calls = 0

      @inlinable
      init(_ closures: Closures) {
        self.closures = .passRetained(closures)
      }

      /// Ends delivery; returns the closures for the caller to release outside the lock, unless a call is in
      /// progress, in which case the last call to return releases them.
      @inlinable
      mutating func end() -> Unmanaged<Closures>? {
        isReceiving = false
        guard calls == 0 else { return nil }
        defer { closures = nil }
        return closures
      }

      /// Ends a closure call; returns the closures if the sink ended during the call and this was the last one.
      @inlinable
      mutating func endCall() -> Unmanaged<Closures>? {
        calls -= 1
        guard calls == 0, !isReceiving else { return nil }
        defer { closures = nil }
        return closures
      }
    }

    @usableFromInline let state: Locked<State>

    /// Set once the sink has ended; read without the lock between the values of a run (``beginRun()``).
    @usableFromInline let hasEnded = Atomic<Bool>(false)

    /// The closure to execute on receipt of a value; a no-op once the sink has ended.
    public var receiveValue: (Input) -> Void {
      state.withLock { $0.closures?.takeUnretainedValue().value } ?? { _ in }
    }

    /// The closure to execute on completion; a no-op once the sink has ended.
    public var receiveCompletion: (Subscribers.Completion<Failure>) -> Void {
      state.withLock { $0.closures?.takeUnretainedValue().completion } ?? { _ in }
    }

    /// Initializes a sink with the provided closures.
    @inlinable
    public init(
      receiveCompletion: @escaping ((Subscribers.Completion<Failure>) -> Void),
      receiveValue: @escaping ((Input) -> Void)
    ) {
      state = Locked(State(Closures(value: receiveValue, completion: receiveCompletion)))
    }

    /// Initializes a sink that ignores completion, without allocating a no-op completion closure.
    @inlinable
    init(ignoringCompletion receiveValue: @escaping ((Input) -> Void)) {
      state = Locked(State(Closures(value: receiveValue, completion: nil)))
    }

    @inlinable
    deinit {
      state.withLock { $0.closures }?.release()
    }

    public var description: String { "Sink" }

    public var customMirror: Mirror { Mirror(self, children: [:]) }

    public var playgroundDescription: Any { description }

    @inlinable
    public func receive(subscription: any Subscription) {
      let accepted = state.withLock { state in
        guard state.link.subscribe(subscription) else { return false }
        state.isReceiving = true
        return true
      }
      if accepted {
        subscription.request(.unlimited)
      } else {
        subscription.cancel()
      }
    }

    @inlinable
    public func receive(_ value: Input) -> Subscribers.Demand {
      if let closures = beginRun() {
        closures._withUnsafeGuaranteedRef { $0.value(value) }
        endRun()
      }
      return Subscribers.Demand(rawValue: 0)
    }

    /// Starts a run of values delivered by one caller without taking the lock per value.
    ///
    /// Returns the closures, which stay alive until ``endRun()``, or `nil` if the sink does not receive values.
    /// Between values the caller checks ``hasEnded`` and stops once it is set. `Publishers.Sequence` uses this
    /// under unlimited demand: a value then costs no atomic read-modify-write.
    @inlinable
    func beginRun() -> Unmanaged<Closures>? {
      state.withLock { state -> Unmanaged<Closures>? in
        guard state.isReceiving else { return nil }
        state.calls += 1
        return state.closures
      }
    }

    /// Ends a run started by ``beginRun()``.
    @inlinable
    func endRun() {
      state.withLock { $0.endCall() }?.release()
    }

    @inlinable
    public func receive(completion: Subscribers.Completion<Failure>) {
      var released: Unmanaged<Closures>?
      let closures = state.withLock { state -> Unmanaged<Closures>? in
        guard state.link.terminate() != nil else { return nil }
        let closures = state.closures
        released = state.end()
        return closures
      }
      hasEnded.store(true, ordering: .releasing)
      closures?._withUnsafeGuaranteedRef { $0.completion?(completion) }
      released?.release()
    }

    @inlinable
    public func cancel() {
      hasEnded.store(true, ordering: .releasing)
      let (upstream, released) = state.withLock { state -> ((any Subscription)?, Unmanaged<Closures>?) in
        (state.link.terminate(), state.end())
      }
      upstream?.cancel()
      released?.release()
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
