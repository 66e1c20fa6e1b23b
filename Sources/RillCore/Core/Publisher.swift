public import Atomics

/// Declares that a type can transmit a sequence of values over time.
///
/// A publisher delivers elements to one or more ``Subscriber`` instances. The subscriber's `Input` and
/// `Failure` associated types must match the publisher's `Output` and `Failure`.
///
/// Publishers do the work of delivering values lazily: nothing happens until a subscriber attaches and
/// requests values with ``Subscription/request(_:)``. Each subscriber gets its own ``Subscription``, so the
/// same publisher can be subscribed to many times, each subscription with its own state.
public protocol Publisher<Output, Failure> {
  /// The kind of values published by this publisher.
  associatedtype Output

  /// The kind of errors this publisher might publish.
  ///
  /// Use `Never` if it does not publish errors.
  associatedtype Failure: Error

  /// Attaches the specified subscriber to this publisher.
  ///
  /// Implementations must call ``Subscriber/receive(subscription:)`` on the subscriber exactly once.
  /// Call `subscribe(_:)` rather than this method from your own code.
  func receive<S: Subscriber>(subscriber: S) where Failure == S.Failure, Output == S.Input
}

extension Publisher {
  /// Attaches the specified subscriber to this publisher.
  ///
  /// While an `_Introspection` is enabled, the subscription is observed by it; otherwise this is
  /// ``receive(subscriber:)``.
  ///
  /// - Parameter subscriber: The subscriber to attach.
  // Always inlined: every operator subscribes its upstream through here, so a pipeline calls this one generic
  // function once per operator, each time with a larger subscriber type. The optimizer takes that for a
  // specialization loop and stops specialising after the second operator, leaving the rest of the pipeline, and
  // every value through it, in unspecialised generic code. Inlined, each step is the operator's own `receive`.
  @inlinable @inline(__always)
  public func subscribe<S: Subscriber>(_ subscriber: S) where Failure == S.Failure, Output == S.Input {
    if enabledIntrospectionCount.load(ordering: .relaxed) != 0,
      #available(macOS 11.0, iOS 14.0, tvOS 14.0, watchOS 7.0, *)
    {
      subscribeIntrospected(subscriber)
    } else {
      receive(subscriber: subscriber)
    }
  }
}

/// A namespace for types that serve as publishers.
public enum Publishers {}
