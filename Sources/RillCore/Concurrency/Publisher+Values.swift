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
  @available(macOS 12.0, iOS 15.0, tvOS 15.0, watchOS 8.0, *)
  @inlinable
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
  @available(macOS 12.0, iOS 15.0, tvOS 15.0, watchOS 8.0, *)
  @inlinable
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
@available(macOS 12.0, iOS 15.0, tvOS 15.0, watchOS 8.0, *)
public struct AsyncPublisher<P: Publisher>: AsyncSequence where P.Failure == Never {
  public typealias Element = P.Output
  public typealias Failure = Never

  @usableFromInline let publisher: P

  /// Creates a publisher that exposes elements received from an upstream publisher as an asynchronous
  /// sequence.
  @inlinable
  public init(_ publisher: P) {
    self.publisher = publisher
  }

  /// The iterator that produces elements of the asynchronous publisher sequence.
  public struct Iterator: AsyncIteratorProtocol {
    public typealias Element = P.Output
    public typealias Failure = Never

    @usableFromInline let inner: AsyncPublisherInner<P.Output, Never>

    @inlinable
    init(inner: AsyncPublisherInner<P.Output, Never>) {
      self.inner = inner
    }

    /// Produces the next element in the sequence; `nil` once the publisher finishes or the task is
    /// cancelled.
    @inlinable
    public mutating func next() async -> P.Output? {
      try? await inner.next()
    }
  }

  /// Creates the asynchronous iterator that produces elements of this asynchronous sequence.
  @inlinable
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
@available(macOS 12.0, iOS 15.0, tvOS 15.0, watchOS 8.0, *)
public struct AsyncThrowingPublisher<P: Publisher>: AsyncSequence {
  public typealias Element = P.Output
  public typealias Failure = any Error

  @usableFromInline let publisher: P

  /// Creates a publisher that exposes elements received from an upstream publisher as a throwing
  /// asynchronous sequence.
  @inlinable
  public init(_ publisher: P) {
    self.publisher = publisher
  }

  /// The iterator that produces elements of the asynchronous publisher sequence.
  public struct Iterator: AsyncIteratorProtocol {
    public typealias Element = P.Output
    public typealias Failure = any Error

    @usableFromInline let inner: AsyncPublisherInner<P.Output, P.Failure>

    @inlinable
    init(inner: AsyncPublisherInner<P.Output, P.Failure>) {
      self.inner = inner
    }

    /// Produces the next element in the sequence; throws the publisher's failure once, and returns `nil`
    /// once the publisher finishes, after a failure, or when the task is cancelled.
    @inlinable
    public mutating func next() async throws -> P.Output? {
      try await inner.next()
    }
  }

  /// Creates the asynchronous iterator that produces elements of this asynchronous sequence.
  @inlinable
  public func makeAsyncIterator() -> Iterator {
    let inner = AsyncPublisherInner<P.Output, P.Failure>()
    publisher.subscribe(inner)
    return Iterator(inner: inner)
  }
}

/// The subscriber behind ``AsyncPublisher`` and ``AsyncThrowingPublisher``: one element per `next()`.
///
/// Several `next()` calls may wait at once (tasks sharing one iterator); ``AsyncPublisherStateMachine`` says
/// who gets what.
// SAFETY: all mutable state is in `machine`; the upstream and continuations are called outside the lock.
@usableFromInline
final class AsyncPublisherInner<Input, Failure: Error>: Subscriber, Cancellable, @unchecked Sendable {
  @usableFromInline typealias Waiter = UnsafeContinuation<AsyncPublisherHandoff<Input?>, any Error>

  @usableFromInline let machine: Locked<AsyncPublisherStateMachine<Waiter, Failure>>

  @inlinable
  init() {
    machine = Locked(AsyncPublisherStateMachine())
  }

  /// How many `next()` calls are waiting.
  @inlinable
  var waiterCount: Int { machine.withLock { $0.waiterCount } }

  @inlinable
  func receive(subscription: any Subscription) {
    switch machine.withLock({ $0.upstreamSubscribed(subscription) }) {
    case .request(let subscription, let demand): subscription.request(demand)
    case .cancel(let subscription): subscription.cancel()
    case .none: break
    }
  }

  @inlinable
  func receive(_ input: Input) -> Subscribers.Demand {
    switch machine.withLock({ $0.upstreamValue() }) {
    case .resume(let waiter): waiter.resume(returning: AsyncPublisherHandoff(value: input))
    case .end(let waiters): Self.end(waiters)
    }
    return .none
  }

  @inlinable
  func receive(completion: Subscribers.Completion<Failure>) {
    let (action, released) = machine.withLock { $0.upstreamCompleted(completion) }
    _ = released
    switch action {
    case .complete(let first, .finished, let others):
      first.resume(returning: AsyncPublisherHandoff(value: nil))
      Self.end(others)
    case .complete(let first, .failure(let error), let others):
      first.resume(throwing: error)
      Self.end(others)
    case .none:
      break
    }
  }

  /// Waits for the next element; `nil` once the sequence has ended or the task is cancelled.
  @inlinable
  func next() async throws -> Input? {
    try await withTaskCancellationHandler {
      try await withUnsafeThrowingContinuation { (waiter: Waiter) in
        switch machine.withLock({ $0.next(waiter) }) {
        case .request(let subscription): subscription.request(.max(1))
        case .wait: break
        case .end: waiter.resume(returning: AsyncPublisherHandoff(value: nil))
        case .fail(let error): waiter.resume(throwing: error)
        }
      }
    } onCancel: {
      cancel()
    }.value
  }

  @inlinable
  func cancel() {
    let action = machine.withLock { $0.cancel() }
    action.subscription?.cancel()
    Self.end(action.waiters)
  }

  @inlinable
  static func end(_ waiters: some Sequence<Waiter>) {
    for waiter in waiters { waiter.resume(returning: AsyncPublisherHandoff(value: nil)) }
  }
}

/// Carries an element from the thread that delivers it to the task that awaits it.
///
/// The element is handed over, never shared: the delivering side keeps no reference to it.
// SAFETY: the value moves from the subscriber to exactly one awaiting task.
@usableFromInline
struct AsyncPublisherHandoff<Value>: @unchecked Sendable {
  @usableFromInline let value: Value

  @inlinable
  init(value: Value) {
    self.value = value
  }
}
