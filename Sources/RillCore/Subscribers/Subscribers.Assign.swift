extension Subscribers {
  /// A simple subscriber that assigns received elements to a property indicated by a key path.
  ///
  /// The subscriber holds the object strongly until it completes or is cancelled, then releases it.
  // SAFETY: all mutable state is in `state`; the key path is written and the upstream called outside the lock.
  public final class Assign<Root, Input>: Subscriber, Cancellable, CustomStringConvertible, CustomReflectable,
    CustomPlaygroundDisplayConvertible, @unchecked Sendable
  {
    public typealias Failure = Never

    @usableFromInline
    struct State {
      @usableFromInline var link = SubscriptionState.awaitingSubscription
      @usableFromInline var object: Root?

      @inlinable
      init(object: Root?) {
        self.object = object
      }
    }

    @usableFromInline let state: Locked<State>

    /// The object that contains the property to assign; `nil` once the subscriber has ended.
    public var object: Root? {
      state.withLock { $0.object }
    }

    /// The key path that indicates the property to assign.
    public let keyPath: ReferenceWritableKeyPath<Root, Input>

    /// Creates a subscriber to assign the value of a property indicated by a key path.
    @inlinable
    public init(object: Root, keyPath: ReferenceWritableKeyPath<Root, Input>) {
      state = Locked(State(object: object))
      self.keyPath = keyPath
    }

    public var description: String { "Assign \(Root.self)." }

    public var customMirror: Mirror {
      Mirror(self, children: ["object": object as Any, "keyPath": keyPath, "status": "\(state.withLock { $0.link })"])
    }

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
      let object = state.withLock { $0.link.isSubscribed ? $0.object : nil }
      object?[keyPath: keyPath] = value
      return .none
    }

    @inlinable
    public func receive(completion: Subscribers.Completion<Never>) {
      // The object and the upstream's subscription, which has completed, are released after unlocking.
      let released = state.withLock { state -> (Root?, (any Subscription)?) in
        guard let upstream = state.link.endForCompletion() else { return (nil, nil) }
        return (state.object.take(), upstream)
      }
      _ = released
    }

    /// Cancels the subscription and lets go of the object.
    ///
    /// As in Combine, a cancel before the subscription arrives does nothing: the object stays, and a subscription
    /// that comes later is taken up.
    @inlinable
    public func cancel() {
      let (upstream, object) = state.withLock { state -> ((any Subscription)?, Root?) in
        guard state.link.isSubscribed else { return (nil, nil) }
        defer { state.object = nil }
        return (state.link.terminate(), state.object)
      }
      upstream?.cancel()
      _ = object
    }
  }
}

extension Publisher where Failure == Never {
  /// Assigns each element from a publisher to a property on an object.
  ///
  /// The object is held strongly until the publisher completes or the returned cancellable is cancelled.
  ///
  /// - Parameters:
  ///   - keyPath: A key path that indicates the property to assign.
  ///   - object: The object that contains the property.
  /// - Returns: An ``AnyCancellable`` instance.
  @inlinable
  public func assign<Root>(to keyPath: ReferenceWritableKeyPath<Root, Output>, on object: Root) -> AnyCancellable {
    let subscriber = Subscribers.Assign(object: object, keyPath: keyPath)
    subscribe(subscriber)
    return AnyCancellable(subscriber)
  }
}
