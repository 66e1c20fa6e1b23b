/// A publisher that publishes exactly one value, or fails.
///
/// ```
/// never:        --------
/// failure:      -----^
/// one value:    --1--|
/// ```
///
/// A single publisher never finishes without a value, never publishes two, and never fails after publishing one.
/// Every single publisher is also a ``MaybePublisher``. Conform your own publisher when it keeps that promise
/// (`extension MyPublisher: SinglePublisher {}`); `Just`, `Fail`, `Future` and many operators applied to single
/// publishers already conform. ``AnySinglePublisher`` hides a single publisher's type without losing the promise,
/// and ``SinglePublisher/sinkSingle(receive:)`` hands you the outcome as one `Result`.
public protocol SinglePublisher: MaybePublisher {}

extension SinglePublisher {
  /// Hides this publisher's type behind ``AnySinglePublisher``, keeping the promise of exactly one value.
  ///
  /// - Returns: An ``AnySinglePublisher`` that forwards this publisher's events.
  @inlinable
  public func eraseToAnySinglePublisher() -> AnySinglePublisher<Output, Failure> {
    AnySinglePublisher(self)
  }

  /// Subscribes with unlimited demand and calls `receive` once with the outcome.
  ///
  /// ```
  /// upstream:  --1--|          -----^
  /// receive:   --'success(1)'  -----'failure'
  /// ```
  ///
  /// `receive` gets `.success` as soon as the value arrives and `.failure` when the publisher fails. Cancelling the
  /// returned cancellable before the outcome means `receive` is never called.
  ///
  /// - Parameter receive: The closure to call with the outcome.
  /// - Returns: A cancellable that ends the subscription.
  @inlinable
  public func sinkSingle(receive: @escaping (Result<Output, Failure>) -> Void) -> AnyCancellable {
    sink(
      receiveCompletion: { completion in
        if case .failure(let error) = completion { receive(.failure(error)) }
      },
      receiveValue: { value in receive(.success(value)) }
    )
  }
}

/// A single publisher that hides the type of the single publisher it wraps.
///
/// Return it from an API that publishes exactly one value, so that callers know it without reading the
/// documentation. It forwards the wrapped publisher's events unchanged.
public struct AnySinglePublisher<Output, Failure: Error>: SinglePublisher {
  @usableFromInline let upstream: AnyPublisher<Output, Failure>

  /// Wraps a single publisher.
  ///
  /// - Parameter singlePublisher: The publisher to wrap.
  @inlinable
  public init<P>(_ singlePublisher: P) where P: SinglePublisher, P.Output == Output, P.Failure == Failure {
    upstream = singlePublisher.eraseToAnyPublisher()
  }

  /// Wraps any publisher, trusting that it keeps the single promise.
  @inlinable
  init<P>(unchecked publisher: P) where P: Publisher, P.Output == Output, P.Failure == Failure {
    upstream = publisher.eraseToAnyPublisher()
  }

  @inlinable
  public func receive<S>(subscriber: S) where S: Subscriber, S.Input == Output, S.Failure == Failure {
    upstream.receive(subscriber: subscriber)
  }
}

extension AnySinglePublisher where Failure == Never {
  /// A single publisher that publishes `value`, then finishes.
  ///
  /// - Parameter value: The value to publish.
  /// - Returns: A single publisher of `value`.
  public static func just(_ value: Output) -> Self {
    Just(value).eraseToAnySinglePublisher()
  }
}

extension AnySinglePublisher {
  /// A single publisher that publishes `value`, then finishes.
  ///
  /// - Parameters:
  ///   - value: The value to publish.
  ///   - failureType: The failure type.
  /// - Returns: A single publisher of `value`.
  public static func just(_ value: Output, failureType: Failure.Type = Failure.self) -> Self {
    Just(value).setFailureType(to: failureType).eraseToAnySinglePublisher()
  }

  /// A single publisher that fails with `error`.
  ///
  /// - Parameter error: The error to fail with.
  /// - Returns: A single publisher that fails at once.
  public static func fail(_ error: Failure) -> Self {
    Fail(error: error).eraseToAnySinglePublisher()
  }

  /// A single publisher of the given output type that fails with `error`.
  ///
  /// - Parameters:
  ///   - error: The error to fail with.
  ///   - outputType: The output type.
  /// - Returns: A single publisher that fails at once.
  public static func fail(_ error: Failure, outputType: Output.Type) -> Self {
    Fail(outputType: outputType, failure: error).eraseToAnySinglePublisher()
  }

  /// A single publisher that never publishes and never completes.
  ///
  /// - Returns: A silent single publisher.
  public static func never() -> Self {
    AnySinglePublisher(unchecked: Empty(completeImmediately: false))
  }

  /// A single publisher of the given types that never publishes and never completes.
  ///
  /// - Parameters:
  ///   - outputType: The output type.
  ///   - failureType: The failure type.
  /// - Returns: A silent single publisher.
  public static func never(outputType: Output.Type, failureType: Failure.Type) -> Self {
    AnySinglePublisher(
      unchecked: Empty(completeImmediately: false, outputType: outputType, failureType: failureType)
    )
  }
}
