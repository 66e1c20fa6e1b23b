/// A publisher that publishes zero or one value, or fails.
///
/// ```
/// never:        --------
/// failure:      -----^
/// empty:        -----|
/// one value:    --1--|
/// ```
///
/// A maybe publisher never publishes two values, and never fails after publishing one. Conform your own publisher
/// when it keeps that promise (`extension MyPublisher: MaybePublisher {}`); `Empty`, `Just`, `Fail`, `Future` and
/// many operators applied to maybe publishers already conform. ``AnyMaybePublisher`` hides a maybe publisher's type
/// without losing the promise, and ``MaybePublisher/sinkMaybe(receive:)`` hands you the outcome as one
/// ``MaybeResult``.
public protocol MaybePublisher: Publisher {}

/// The outcome of a maybe publisher: it finished without a value, published one value, or failed.
public enum MaybeResult<Success, Failure: Error> {
  /// The publisher finished without publishing a value.
  case finished

  /// The publisher published this value, then finished.
  case success(Success)

  /// The publisher failed with this error.
  case failure(Failure)
}

extension MaybeResult {
  /// Transforms the success value, keeping `.finished` and `.failure` as they are.
  ///
  /// - Parameter transform: The transformation of the success value.
  /// - Returns: The result with the transformed value.
  @inlinable
  public func map<NewSuccess>(_ transform: (Success) -> NewSuccess) -> MaybeResult<NewSuccess, Failure> {
    switch self {
    case .finished: .finished
    case .success(let value): .success(transform(value))
    case .failure(let error): .failure(error)
    }
  }

  /// Transforms the failure, keeping `.finished` and `.success` as they are.
  ///
  /// - Parameter transform: The transformation of the error.
  /// - Returns: The result with the transformed error.
  @inlinable
  public func mapError<NewFailure>(_ transform: (Failure) -> NewFailure) -> MaybeResult<Success, NewFailure> {
    switch self {
    case .finished: .finished
    case .success(let value): .success(value)
    case .failure(let error): .failure(transform(error))
    }
  }

  /// Replaces a success with the result `transform` returns for its value.
  ///
  /// - Parameter transform: The result to use for the success value.
  /// - Returns: `transform`'s result for a success, this result otherwise.
  @inlinable
  public func flatMap<NewSuccess>(
    _ transform: (Success) -> MaybeResult<NewSuccess, Failure>
  ) -> MaybeResult<NewSuccess, Failure> {
    switch self {
    case .finished: .finished
    case .success(let value): transform(value)
    case .failure(let error): .failure(error)
    }
  }

  /// Replaces a failure with the result `transform` returns for its error.
  ///
  /// - Parameter transform: The result to use for the error.
  /// - Returns: `transform`'s result for a failure, this result otherwise.
  @inlinable
  public func flatMapError<NewFailure>(
    _ transform: (Failure) -> MaybeResult<Success, NewFailure>
  ) -> MaybeResult<Success, NewFailure> {
    switch self {
    case .finished: .finished
    case .success(let value): .success(value)
    case .failure(let error): transform(error)
    }
  }

  /// The success value, `nil` for `.finished`; throws the error of a failure.
  ///
  /// - Returns: The value, or `nil` if the publisher finished without one.
  @inlinable
  public func get() throws -> Success? {
    switch self {
    case .finished: nil
    case .success(let value): value
    case .failure(let error): throw error
    }
  }
}

extension MaybeResult: Equatable where Success: Equatable, Failure: Equatable {}
extension MaybeResult: Hashable where Success: Hashable, Failure: Hashable {}
extension MaybeResult: Sendable where Success: Sendable, Failure: Sendable {}

extension MaybePublisher {
  /// Hides this publisher's type behind ``AnyMaybePublisher``, keeping the promise of at most one value.
  ///
  /// - Returns: An ``AnyMaybePublisher`` that forwards this publisher's events.
  public func eraseToAnyMaybePublisher() -> AnyMaybePublisher<Output, Failure> {
    AnyMaybePublisher(self)
  }

  /// Subscribes with unlimited demand and calls `receive` once with the outcome.
  ///
  /// ```
  /// upstream:  --1--|        -----|       -----^
  /// receive:   --'success(1)'  -'finished'  -'failure'
  /// ```
  ///
  /// `receive` gets `.success` as soon as the value arrives, `.finished` when the publisher finishes without a
  /// value, and `.failure` when it fails. Cancelling the returned cancellable before the outcome means `receive` is
  /// never called.
  ///
  /// - Parameter receive: The closure to call with the outcome.
  /// - Returns: A cancellable that ends the subscription.
  public func sinkMaybe(receive: @escaping (MaybeResult<Output, Failure>) -> Void) -> AnyCancellable {
    let valueReceived = Locked(false)
    return sink(
      receiveCompletion: { completion in
        switch completion {
        case .failure(let error):
          receive(.failure(error))
        case .finished:
          if !valueReceived.withLock({ $0 }) { receive(.finished) }
        }
      },
      receiveValue: { value in
        valueReceived.withLock { $0 = true }
        receive(.success(value))
      }
    )
  }
}

/// A maybe publisher that hides the type of the maybe publisher it wraps.
///
/// Return it from an API that publishes at most one value, so that callers know it without reading the
/// documentation. It forwards the wrapped publisher's events unchanged.
public struct AnyMaybePublisher<Output, Failure: Error>: MaybePublisher {
  @usableFromInline let upstream: AnyPublisher<Output, Failure>

  /// Wraps a maybe publisher.
  ///
  /// - Parameter maybePublisher: The publisher to wrap.
  @inlinable
  public init<P>(_ maybePublisher: P) where P: MaybePublisher, P.Output == Output, P.Failure == Failure {
    upstream = maybePublisher.eraseToAnyPublisher()
  }

  /// Wraps any publisher, trusting that it keeps the maybe promise.
  @inlinable
  init<P>(unchecked publisher: P) where P: Publisher, P.Output == Output, P.Failure == Failure {
    upstream = publisher.eraseToAnyPublisher()
  }

  @inlinable
  public func receive<S>(subscriber: S) where S: Subscriber, S.Input == Output, S.Failure == Failure {
    upstream.receive(subscriber: subscriber)
  }
}

extension AnyMaybePublisher where Failure == Never {
  /// A maybe publisher that publishes `value`, then finishes.
  ///
  /// - Parameter value: The value to publish.
  /// - Returns: A maybe publisher of `value`.
  public static func just(_ value: Output) -> Self {
    Just(value).eraseToAnyMaybePublisher()
  }
}

extension AnyMaybePublisher {
  /// A maybe publisher that finishes without publishing a value.
  ///
  /// - Returns: A maybe publisher that finishes at once.
  public static func empty() -> Self {
    Empty().eraseToAnyMaybePublisher()
  }

  /// A maybe publisher of the given types that finishes without publishing a value.
  ///
  /// - Parameters:
  ///   - outputType: The output type.
  ///   - failureType: The failure type.
  /// - Returns: A maybe publisher that finishes at once.
  public static func empty(outputType: Output.Type, failureType: Failure.Type) -> Self {
    Empty(outputType: outputType, failureType: failureType).eraseToAnyMaybePublisher()
  }

  /// A maybe publisher that publishes `value`, then finishes.
  ///
  /// - Parameters:
  ///   - value: The value to publish.
  ///   - failureType: The failure type.
  /// - Returns: A maybe publisher of `value`.
  public static func just(_ value: Output, failureType: Failure.Type = Failure.self) -> Self {
    Just(value).setFailureType(to: failureType).eraseToAnyMaybePublisher()
  }

  /// A maybe publisher that fails with `error`.
  ///
  /// - Parameter error: The error to fail with.
  /// - Returns: A maybe publisher that fails at once.
  public static func fail(_ error: Failure) -> Self {
    Fail(error: error).eraseToAnyMaybePublisher()
  }

  /// A maybe publisher of the given output type that fails with `error`.
  ///
  /// - Parameters:
  ///   - error: The error to fail with.
  ///   - outputType: The output type.
  /// - Returns: A maybe publisher that fails at once.
  public static func fail(_ error: Failure, outputType: Output.Type) -> Self {
    Fail(outputType: outputType, failure: error).eraseToAnyMaybePublisher()
  }

  /// A maybe publisher that never publishes and never completes.
  ///
  /// - Returns: A silent maybe publisher.
  public static func never() -> Self {
    Empty(completeImmediately: false).eraseToAnyMaybePublisher()
  }

  /// A maybe publisher of the given types that never publishes and never completes.
  ///
  /// - Parameters:
  ///   - outputType: The output type.
  ///   - failureType: The failure type.
  /// - Returns: A silent maybe publisher.
  public static func never(outputType: Output.Type, failureType: Failure.Type) -> Self {
    Empty(completeImmediately: false, outputType: outputType, failureType: failureType).eraseToAnyMaybePublisher()
  }
}
