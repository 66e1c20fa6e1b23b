/// A publisher that publishes a value or fails as soon as it is subscribed, before `subscribe` returns.
///
/// ```
/// failure:       ^
/// first value:   1 - - - -
/// ```
///
/// After its first value an immediate publisher may publish any number of values, at any time, until it completes.
/// `Just`, `Fail`, `Result.Publisher` and `Record` conform, as do operators that keep the promise when their upstream
/// does. A sequence's publisher does not, as the sequence may be empty, nor `CurrentValueSubject`, which sends no
/// value once it has completed: `assertImmediate()` or `uncheckedImmediate()` vouch for one that keeps the promise.
/// ``AnyImmediatePublisher`` hides an immediate publisher's type without losing the promise.
public protocol ImmediatePublisher: Publisher {}

extension ImmediatePublisher {
  /// Hides this publisher's type behind ``AnyImmediatePublisher``, keeping the promise of an immediate event.
  ///
  /// - Returns: An ``AnyImmediatePublisher`` that forwards this publisher's events.
  @inlinable
  public func eraseToAnyImmediatePublisher() -> AnyImmediatePublisher<Output, Failure> {
    AnyImmediatePublisher(self)
  }
}

/// An immediate publisher that hides the type of the immediate publisher it wraps.
///
/// It forwards the wrapped publisher's events unchanged.
public struct AnyImmediatePublisher<Output, Failure: Error>: ImmediatePublisher {
  @usableFromInline let upstream: AnyPublisher<Output, Failure>

  /// Wraps an immediate publisher.
  ///
  /// - Parameter immediatePublisher: The publisher to wrap.
  @inlinable
  public init<P>(_ immediatePublisher: P) where P: ImmediatePublisher, P.Output == Output, P.Failure == Failure {
    upstream = immediatePublisher.eraseToAnyPublisher()
  }

  /// Wraps any publisher, trusting that it keeps the immediate promise.
  @inlinable
  init<P>(unchecked publisher: P) where P: Publisher, P.Output == Output, P.Failure == Failure {
    upstream = publisher.eraseToAnyPublisher()
  }

  @inlinable
  public func receive<S>(subscriber: S) where S: Subscriber, S.Input == Output, S.Failure == Failure {
    upstream.receive(subscriber: subscriber)
  }
}

extension AnyImmediatePublisher where Failure == Never {
  /// An immediate publisher that publishes `value`, then finishes.
  ///
  /// - Parameter value: The value to publish.
  /// - Returns: An immediate publisher of `value`.
  public static func just(_ value: Output) -> Self {
    Just(value).eraseToAnyImmediatePublisher()
  }
}

extension AnyImmediatePublisher {
  /// An immediate publisher that publishes `value`, then finishes.
  ///
  /// - Parameters:
  ///   - value: The value to publish.
  ///   - failureType: The failure type.
  /// - Returns: An immediate publisher of `value`.
  public static func just(_ value: Output, failureType: Failure.Type = Failure.self) -> Self {
    Just(value).setFailureType(to: failureType).eraseToAnyImmediatePublisher()
  }

  /// An immediate publisher that fails with `error`.
  ///
  /// - Parameter error: The error to fail with.
  /// - Returns: An immediate publisher that fails at once.
  public static func fail(_ error: Failure) -> Self {
    Fail(error: error).eraseToAnyImmediatePublisher()
  }

  /// An immediate publisher of the given output type that fails with `error`.
  ///
  /// - Parameters:
  ///   - error: The error to fail with.
  ///   - outputType: The output type.
  /// - Returns: An immediate publisher that fails at once.
  public static func fail(_ error: Failure, outputType: Output.Type) -> Self {
    Fail(outputType: outputType, failure: error).eraseToAnyImmediatePublisher()
  }
}
