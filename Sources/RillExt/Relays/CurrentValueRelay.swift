/// A relay that holds a current value, sends it to each new subscriber, and broadcasts each value it accepts.
///
/// ```
/// CurrentValueRelay(0), accept:  -1-2---3-
/// subscribed at tick 2:          ---2---3-   (then | when the relay is deallocated)
/// ```
///
/// A new subscriber receives the current value at its first demand, then the values accepted later, as far as its
/// demand goes, as with `CurrentValueSubject`. It never fails, and finishes its subscribers only when it is
/// deallocated.
///
/// A relay is `Sendable` when its `Output` is: its current value is read, and each accepted value delivered, on
/// any thread.
public final class CurrentValueRelay<Output>: Relay {
  public typealias Failure = Never

  @usableFromInline let storage: CurrentValueSubject<Output, Never>

  /// The latest value accepted, or the initial one.
  public var value: Output { storage.value }

  /// Creates a relay with an initial value.
  ///
  /// - Parameter value: The value new subscribers receive until another is accepted.
  public init(_ value: Output) {
    storage = CurrentValueSubject(value)
  }

  /// Makes `value` the current value and sends it to the relay's subscribers.
  ///
  /// - Parameter value: The new value.
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

// SAFETY: the only stored property is a thread-safe subject; the values it keeps and carries between threads are
// `Sendable`.
extension CurrentValueRelay: @unchecked Sendable where Output: Sendable {}
