extension Publisher where Failure == Never {
  /// The elements produced by the publisher, as an asynchronous sequence.
  ///
  /// ```
  /// upstream:                    -1-2-3-|
  /// for await value in values:    1 2 3 (loop ends)
  /// ```
  ///
  /// The iterator requests one element at a time, when `next()` is called, and cancels the subscription
  /// when the task awaiting it is cancelled, which ends the loop.
  public var values: AsyncPublisher<Self> {
    AsyncPublisher(self)
  }
}

extension Publisher {
  /// The elements produced by the publisher, as a throwing asynchronous sequence.
  ///
  /// ```
  /// upstream:                        -1-2-^
  /// for try await value in values:    1 2 (throws)
  /// ```
  ///
  /// The iterator requests one element at a time, when `next()` is called, and cancels the subscription
  /// when the task awaiting it is cancelled, which ends the loop. A failure is thrown once; then the sequence
  /// ends.
  public var values: AsyncThrowingPublisher<Self> {
    AsyncThrowingPublisher(self)
  }
}

/// A publisher that exposes its elements as an asynchronous sequence.
///
/// ```
/// upstream:                  -1-2-|
/// for await value in ...:     1 2 (loop ends)
/// ```
///
/// Each iterator subscribes to the publisher once, when it is made.
public struct AsyncPublisher<P: Publisher>: AsyncSequence where P.Failure == Never {
  public typealias Element = P.Output
  public typealias Failure = Never

  private let publisher: P

  /// Creates a publisher that exposes elements received from an upstream publisher as an asynchronous
  /// sequence.
  public init(_ publisher: P) {
    self.publisher = publisher
  }

  /// The iterator that produces elements of the asynchronous publisher sequence.
  public struct Iterator: AsyncIteratorProtocol {
    public typealias Element = P.Output
    public typealias Failure = Never

    let inner: AsyncPublisherInner<P.Output, Never>

    /// Produces the next element in the sequence; `nil` once the publisher finishes or the task is
    /// cancelled.
    public mutating func next() async -> P.Output? {
      try? await inner.next()
    }
  }

  /// Creates the asynchronous iterator that produces elements of this asynchronous sequence.
  public func makeAsyncIterator() -> Iterator {
    let inner = AsyncPublisherInner<P.Output, Never>()
    publisher.subscribe(inner)
    return Iterator(inner: inner)
  }
}

/// A publisher that exposes its elements as a throwing asynchronous sequence.
///
/// ```
/// upstream:                      -1-2-^
/// for try await value in ...:     1 2 (throws)
/// ```
///
/// Each iterator subscribes to the publisher once, when it is made.
public struct AsyncThrowingPublisher<P: Publisher>: AsyncSequence {
  public typealias Element = P.Output
  public typealias Failure = any Error

  private let publisher: P

  /// Creates a publisher that exposes elements received from an upstream publisher as a throwing
  /// asynchronous sequence.
  public init(_ publisher: P) {
    self.publisher = publisher
  }

  /// The iterator that produces elements of the asynchronous publisher sequence.
  public struct Iterator: AsyncIteratorProtocol {
    public typealias Element = P.Output
    public typealias Failure = any Error

    let inner: AsyncPublisherInner<P.Output, P.Failure>

    /// Produces the next element in the sequence; throws the publisher's failure once, and returns `nil`
    /// once the publisher finishes, after a failure, or when the task is cancelled.
    public mutating func next() async throws -> P.Output? {
      try await inner.next()
    }
  }

  /// Creates the asynchronous iterator that produces elements of this asynchronous sequence.
  public func makeAsyncIterator() -> Iterator {
    let inner = AsyncPublisherInner<P.Output, P.Failure>()
    publisher.subscribe(inner)
    return Iterator(inner: inner)
  }
}

/// The subscriber behind ``AsyncPublisher`` and ``AsyncThrowingPublisher``: one element per `next()`.
// SAFETY: all mutable state is in `state`; the upstream and continuations are called outside the lock.
final class AsyncPublisherInner<Input, Failure: Error>: Subscriber, Cancellable, @unchecked Sendable {
  private struct State {
    var link = SubscriptionState.awaitingSubscription
    var pending: UnsafeContinuation<AsyncPublisherHandoff<Input?>, any Error>?
    var wantsValue = false
    var completion: Subscribers.Completion<Failure>?
    var isDone = false
  }

  private enum NextStep {
    case finish(Subscribers.Completion<Failure>?)
    case request(any Subscription)
    case wait
  }

  private let state = Locked(State())

  func receive(subscription: any Subscription) {
    let requestNow = state.withLock { state -> Bool? in
      guard !state.isDone, state.link.subscribe(subscription) else { return nil }
      return state.wantsValue
    }
    switch requestNow {
    case nil: subscription.cancel()
    case true?: subscription.request(.max(1))
    case false?: break
    }
  }

  func receive(_ input: Input) -> Subscribers.Demand {
    let continuation = state.withLock { state -> UnsafeContinuation<AsyncPublisherHandoff<Input?>, any Error>? in
      defer {
        state.pending = nil
        state.wantsValue = false
      }
      return state.pending
    }
    continuation?.resume(returning: AsyncPublisherHandoff(value: input))
    return .none
  }

  func receive(completion: Subscribers.Completion<Failure>) {
    let continuation = state.withLock { state -> UnsafeContinuation<AsyncPublisherHandoff<Input?>, any Error>? in
      guard state.link.terminate() != nil else { return nil }
      guard let pending = state.pending else {
        state.completion = completion
        return nil
      }
      state.pending = nil
      state.isDone = true
      return pending
    }
    guard let continuation else { return }
    switch completion {
    case .finished: continuation.resume(returning: AsyncPublisherHandoff(value: nil))
    case .failure(let error): continuation.resume(throwing: error)
    }
  }

  func next() async throws -> Input? {
    let handoff = try await withTaskCancellationHandler {
      try await withUnsafeThrowingContinuation {
        (continuation: UnsafeContinuation<AsyncPublisherHandoff<Input?>, any Error>) in
        let step = state.withLock { state -> NextStep in
          if state.isDone { return .finish(nil) }
          if let completion = state.completion {
            state.completion = nil
            state.isDone = true
            return .finish(completion)
          }
          state.pending = continuation
          state.wantsValue = true
          guard let upstream = state.link.upstream else { return .wait }
          return .request(upstream)
        }
        switch step {
        case .finish(.failure(let error)?): continuation.resume(throwing: error)
        case .finish: continuation.resume(returning: AsyncPublisherHandoff(value: nil))
        case .request(let upstream): upstream.request(.max(1))
        case .wait: break
        }
      }
    } onCancel: {
      cancel()
    }
    return handoff.value
  }

  func cancel() {
    let (upstream, continuation) = state.withLock { state in
      state.isDone = true
      state.completion = nil
      defer { state.pending = nil }
      return (state.link.terminate(), state.pending)
    }
    upstream?.cancel()
    continuation?.resume(returning: AsyncPublisherHandoff(value: nil))
  }
}

/// Carries an element from the thread that delivers it to the task that awaits it.
///
/// The element is handed over, never shared: the delivering side keeps no reference to it.
// SAFETY: the value moves from the subscriber to exactly one awaiting task.
struct AsyncPublisherHandoff<Value>: @unchecked Sendable {
  let value: Value
}
