extension Subscribers {
  /// A simple subscriber that requests an unlimited number of values upon subscription.
  ///
  /// A sink releases its closures, and with them anything they capture, once it completes or is cancelled.
  /// A second subscription is cancelled; values and completions after the sink has ended are ignored.
  // SAFETY: all mutable state is in `state`; the closures and the upstream are called outside the lock.
  public final class Sink<Input, Failure: Error>: Subscriber, Cancellable, CustomStringConvertible,
    CustomReflectable, CustomPlaygroundDisplayConvertible, @unchecked Sendable
  {
    private typealias Closures = (
      receiveValue: ((Input) -> Void)?, receiveCompletion: ((Subscribers.Completion<Failure>) -> Void)?
    )

    struct State {
      var link = SubscriptionState.awaitingSubscription
      var receiveValue: ((Input) -> Void)?
      var receiveCompletion: ((Subscribers.Completion<Failure>) -> Void)?

      init(
        receiveValue: ((Input) -> Void)?,
        receiveCompletion: ((Subscribers.Completion<Failure>) -> Void)?
      ) {
        self.receiveValue = receiveValue
        self.receiveCompletion = receiveCompletion
      }

      /// Releases the closures, handing them out so they are freed outside the lock.
      mutating func takeClosures() -> (
        receiveValue: ((Input) -> Void)?, receiveCompletion: ((Subscribers.Completion<Failure>) -> Void)?
      ) {
        defer {
          receiveValue = nil
          receiveCompletion = nil
        }
        return (receiveValue, receiveCompletion)
      }
    }

    let state: Locked<State>

    /// The closure to execute on receipt of a value; a no-op once the sink has ended.
    public var receiveValue: (Input) -> Void {
      state.withLock { $0.receiveValue } ?? { _ in }
    }

    /// The closure to execute on completion; a no-op once the sink has ended.
    public var receiveCompletion: (Subscribers.Completion<Failure>) -> Void {
      state.withLock { $0.receiveCompletion } ?? { _ in }
    }

    /// Initializes a sink with the provided closures.
    public init(
      receiveCompletion: @escaping ((Subscribers.Completion<Failure>) -> Void),
      receiveValue: @escaping ((Input) -> Void)
    ) {
      state = Locked(State(receiveValue: receiveValue, receiveCompletion: receiveCompletion))
    }

    public var description: String { "Sink" }

    public var customMirror: Mirror { Mirror(self, children: [:]) }

    public var playgroundDescription: Any { description }

    public func receive(subscription: any Subscription) {
      if state.withLock({ $0.link.subscribe(subscription) }) {
        subscription.request(.unlimited)
      } else {
        subscription.cancel()
      }
    }

    public func receive(_ value: Input) -> Subscribers.Demand {
      let receiveValue = state.withLock { $0.link.upstream == nil ? nil : $0.receiveValue }
      receiveValue?(value)
      return .none
    }

    public func receive(completion: Subscribers.Completion<Failure>) {
      let closures = state.withLock { state -> Closures? in
        guard state.link.terminate() != nil else { return nil }
        return state.takeClosures()
      }
      closures?.receiveCompletion?(completion)
    }

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
  public func sink(receiveValue: @escaping ((Output) -> Void)) -> AnyCancellable {
    sink(receiveCompletion: { _ in }, receiveValue: receiveValue)
  }
}
