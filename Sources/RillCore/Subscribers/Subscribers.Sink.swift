extension Subscribers {
  /// A simple subscriber that requests an unlimited number of values upon subscription.
  ///
  /// A sink releases its closures, and with them anything they capture, once it completes or is cancelled.
  /// A second subscription is cancelled; values and completions after the sink has ended are ignored.
  // SAFETY: all mutable state is in `state`; the closures and the upstream are called outside the lock.
  public final class Sink<Input, Failure: Error>: Subscriber, Cancellable, CustomStringConvertible,
    CustomReflectable, CustomPlaygroundDisplayConvertible, @unchecked Sendable
  {
    @usableFromInline typealias Closures = (value: ValueHandler?, completion: CompletionHandler?)

    /// The value closure, wrapped so that it keeps its generic representation when it leaves the lock.
    ///
    /// Specialised code that copies a bare `(Input) -> Void` out of generic storage converts it to the concrete
    /// representation through a thunk, which allocates on every value; a call through this wrapper does not.
    @usableFromInline
    struct ValueHandler {
      @usableFromInline let body: (Input) -> Void

      @inlinable
      init(_ body: @escaping (Input) -> Void) {
        self.body = body
      }

      @inlinable
      consuming func call(_ value: Input) {
        body(value)
      }
    }

    /// The completion closure, wrapped like ``ValueHandler``.
    @usableFromInline
    struct CompletionHandler {
      @usableFromInline let body: (Subscribers.Completion<Failure>) -> Void

      @inlinable
      init(_ body: @escaping (Subscribers.Completion<Failure>) -> Void) {
        self.body = body
      }
    }

    @usableFromInline
    struct State {
      @usableFromInline var link = SubscriptionState.awaitingSubscription
      /// Whether values are delivered: subscribed and not ended, kept apart from `link` so that checking it
      /// copies no existential.
      @usableFromInline var isReceiving = false
      @usableFromInline var valueHandler: ValueHandler?
      @usableFromInline var completionHandler: CompletionHandler?

      @inlinable
      init(
        receiveValue: ((Input) -> Void)?,
        receiveCompletion: ((Subscribers.Completion<Failure>) -> Void)?
      ) {
        valueHandler = receiveValue.map(ValueHandler.init)
        completionHandler = receiveCompletion.map(CompletionHandler.init)
      }

      /// Releases the closures, handing them out so they are freed outside the lock.
      @inlinable
      mutating func takeClosures() -> Closures {
        defer {
          isReceiving = false
          valueHandler = nil
          completionHandler = nil
        }
        return (valueHandler, completionHandler)
      }
    }

    @usableFromInline let state: Locked<State>

    /// The closure to execute on receipt of a value; a no-op once the sink has ended.
    public var receiveValue: (Input) -> Void {
      state.withLock { $0.valueHandler?.body } ?? { _ in }
    }

    /// The closure to execute on completion; a no-op once the sink has ended.
    public var receiveCompletion: (Subscribers.Completion<Failure>) -> Void {
      state.withLock { $0.completionHandler?.body } ?? { _ in }
    }

    /// Initializes a sink with the provided closures.
    @inlinable
    public init(
      receiveCompletion: @escaping ((Subscribers.Completion<Failure>) -> Void),
      receiveValue: @escaping ((Input) -> Void)
    ) {
      state = Locked(State(receiveValue: receiveValue, receiveCompletion: receiveCompletion))
    }

    /// Initializes a sink that ignores completion, without allocating a no-op completion closure.
    @inlinable
    init(ignoringCompletion receiveValue: @escaping ((Input) -> Void)) {
      state = Locked(State(receiveValue: receiveValue, receiveCompletion: nil))
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
      state.withLock { state -> ValueHandler? in
        guard state.isReceiving else { return nil }
        return state.valueHandler
      }?.call(value)
      return Subscribers.Demand(rawValue: 0)
    }

    @inlinable
    public func receive(completion: Subscribers.Completion<Failure>) {
      let closures = state.withLock { state -> Closures? in
        guard state.link.terminate() != nil else { return nil }
        return state.takeClosures()
      }
      closures?.completion?.body(completion)
    }

    @inlinable
    public func cancel() {
      let (upstream, closures) = state.withLock { state -> ((any Subscription)?, Closures) in
        (state.link.terminate(), state.takeClosures())
      }
      upstream?.cancel()
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
