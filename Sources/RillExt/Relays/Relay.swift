/// A publisher that outside callers feed with values, like a subject that can neither fail nor finish.
///
/// ```
/// accept:                 -1-2---3-
/// relay, subscribed at 2: ---2---3-   (finished only when the relay is deallocated)
/// ```
///
/// A relay's subscribers receive `.finished` only when the relay itself is deallocated.
public protocol Relay: Publisher where Failure == Never {
  associatedtype Output

  /// Sends a value to the relay's subscribers.
  ///
  /// - Parameter value: The value to send.
  func accept(_ value: Output)

  /// Feeds the values of `publisher` to this relay; its completion is ignored.
  ///
  /// - Parameter publisher: A publisher that cannot fail, of the relay's output type.
  /// - Returns: A cancellable that stops feeding the relay.
  func subscribe<P: Publisher>(_ publisher: P) -> AnyCancellable where P.Failure == Failure, P.Output == Output
}

extension Publisher where Failure == Never {
  /// Feeds the values of this publisher to `relay`; the completion is ignored.
  ///
  /// ```
  /// upstream:                     -1-2-|
  /// relay (after subscribe(relay)): -1-2--
  /// ```
  ///
  /// - Parameter relay: The relay to feed.
  /// - Returns: A cancellable that stops feeding the relay.
  public func subscribe<R: Relay>(_ relay: R) -> AnyCancellable where R.Output == Output {
    relay.subscribe(self)
  }
}

extension Relay where Output == Void {
  /// Sends `()` to the relay's subscribers.
  public func accept() {
    accept(())
  }
}

extension Publisher where Failure == Never {
  /// Subscribes to this publisher with unlimited demand and sends each value to `subject`, ignoring the completion,
  /// so that a relay's storage never finishes because a publisher it was fed from did.
  func feedValues<S: Subject>(to subject: S) -> AnyCancellable where S.Output == Output {
    sink { [subject] value in subject.send(value) }
  }
}
