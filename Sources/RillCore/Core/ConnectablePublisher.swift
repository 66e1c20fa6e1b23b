/// A publisher that provides an explicit means of connecting and canceling publication.
///
/// A connectable publisher produces no elements until ``connect()`` is called, however many subscribers it has.
public protocol ConnectablePublisher<Output, Failure>: Publisher {
  /// Connects to the publisher, allowing it to produce elements, and returns an instance with which to cancel
  /// publishing.
  func connect() -> any Cancellable
}
