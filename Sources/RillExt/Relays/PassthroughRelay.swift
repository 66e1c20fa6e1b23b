/// A relay that broadcasts each value it accepts to its current subscribers.
///
/// ```
/// accept:                 -1-2---3-
/// subscribed at tick 2:   ---2---3-   (then | when the relay is deallocated)
/// ```
///
/// It keeps no value: a subscriber sees only what is accepted after it subscribed, and only as far as its demand
/// (values it has not requested are not kept for it), as with `PassthroughSubject`. It never fails, and finishes its
/// subscribers only when it is deallocated.
///
/// A relay is `Sendable` when its `Output` is: a value accepted on one thread reaches subscribers on others.
public final class PassthroughRelay<Output>: Relay {
  public typealias Failure = Never

  @usableFromInline let storage = PassthroughSubject<Output, Never>()

  /// Creates a relay.
  public init() {}

  /// Sends a value to the relay's subscribers.
  ///
  /// - Parameter value: The value to send.
  @inlinable
  public func accept(_ value: Output) {
    storage.send(value)
  }

  @inlinable
  public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Never {
    storage.receive(subscriber: subscriber)
  }

  /// Feeds the values of `publisher` to this relay; its completion is ignored.
  ///
  /// - Parameter publisher: A publisher that cannot fail, of the relay's output type.
  /// - Returns: A cancellable that stops feeding the relay.
  @inlinable
  public func subscribe<P: Publisher>(_ publisher: P) -> AnyCancellable where P.Output == Output, P.Failure == Never {
    publisher.feedValues(to: storage)
  }

  /// Feeds the values of this relay to another one: the opposite direction from ``subscribe(_:)``, as
  /// in CombineExt, so that `relay.subscribe(otherRelay)` reads like `publisher.subscribe(otherRelay)`.
  ///
  /// - Parameter publisher: The relay to feed with this relay's values.
  /// - Returns: A cancellable that stops feeding the other relay.
  @inlinable
  public func subscribe<P: Relay>(_ publisher: P) -> AnyCancellable where P.Output == Output {
    publisher.subscribe(storage)
  }

  deinit {
    storage.send(completion: .finished)
  }
}

// SAFETY: the only stored property is a thread-safe subject; the values it carries between threads are `Sendable`.
extension PassthroughRelay: @unchecked Sendable where Output: Sendable {}
