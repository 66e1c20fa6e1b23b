extension Future where Failure == Never {
  /// The published value of the future, delivered asynchronously.
  ///
  /// ```
  /// Future { $0(.success(1)) }:   1|
  /// await value:                  1
  /// ```
  @available(macOS 12.0, iOS 15.0, tvOS 15.0, watchOS 8.0, *)
  @inlinable
  public var value: Output {
    get async {
      await withUnsafeContinuation { continuation in
        subscribe(
          FutureValueSubscriber<Output, Never> { result in
            if case .success(let value) = result { continuation.resume(returning: AsyncPublisherHandoff(value: value)) }
          }
        )
      }.value
    }
  }
}

extension Future {
  /// The published value of the future or an error, delivered asynchronously.
  ///
  /// ```
  /// Future { $0(.failure(e)) }:   ^
  /// try await value:              throws e
  /// ```
  @available(macOS 12.0, iOS 15.0, tvOS 15.0, watchOS 8.0, *)
  @inlinable
  public var value: Output {
    get async throws {
      try await withUnsafeThrowingContinuation { continuation in
        subscribe(
          FutureValueSubscriber<Output, Failure> { result in
            switch result {
            case .success(let value): continuation.resume(returning: AsyncPublisherHandoff(value: value))
            case .failure(let error): continuation.resume(throwing: error)
            }
          }
        )
      }.value
    }
  }
}

/// Waits for a future's one result and hands it to a closure, once.
// SAFETY: all mutable state is in `state`; the closure is called outside the lock.
@usableFromInline
final class FutureValueSubscriber<Input, Failure: Error>: Subscriber, @unchecked Sendable {
  @usableFromInline
  let state: Locked<((Result<Input, Failure>) -> Void)?>

  @inlinable
  init(_ resume: @escaping (Result<Input, Failure>) -> Void) {
    state = Locked(resume)
  }

  @inlinable
  func receive(subscription: any Subscription) {
    subscription.request(.unlimited)
  }

  @inlinable
  func receive(_ input: Input) -> Subscribers.Demand {
    state.withLock { $0.take() }?(.success(input))
    return .none
  }

  @inlinable
  func receive(completion: Subscribers.Completion<Failure>) {
    guard case .failure(let error) = completion else { return }
    state.withLock { $0.take() }?(.failure(error))
  }
}
