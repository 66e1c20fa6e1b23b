extension AsyncSequence {
  /// Returns a publisher that publishes the elements of this asynchronous sequence.
  ///
  /// ```
  /// sequence:       1 2 3 (ends)
  /// asPublisher():  -1-2-3-|
  /// ```
  ///
  /// - Returns: A publisher that iterates this sequence in a task, on demand.
  @available(macOS 15.0, iOS 18.0, tvOS 18.0, watchOS 11.0, visionOS 2.0, *)
  public func asPublisher() -> AsyncSequencePublisher<Self> {
    AsyncSequencePublisher(self)
  }
}

/// A publisher that publishes the elements of an asynchronous sequence.
///
/// ```
/// sequence:   1 2 ^
/// publisher:  -1-2-^
/// ```
///
/// Each subscription iterates the sequence in its own task, started at the first request, and awaits the
/// next element only while the subscriber has demand. Cancelling the subscription cancels the task, which the
/// sequence sees as task cancellation; nothing is delivered after the cancel.
@available(macOS 15.0, iOS 18.0, tvOS 18.0, watchOS 11.0, visionOS 2.0, *)
public struct AsyncSequencePublisher<Base: AsyncSequence>: Publisher {
  public typealias Output = Base.Element
  public typealias Failure = Base.Failure

  /// The asynchronous sequence whose elements are published.
  public let base: Base

  /// Creates a publisher of the elements of an asynchronous sequence.
  public init(_ base: Base) {
    self.base = base
  }

  @inlinable
  public func receive<S: Subscriber>(subscriber: S) where S.Input == Base.Element, S.Failure == Base.Failure {
    subscriber.receive(subscription: AsyncSequenceSubscription(downstream: subscriber, base: base))
  }
}

/// The loop of an ``AsyncSequenceSubscription``, for its task to run.
// SAFETY: the closure only calls `run()` on the subscription it captures, which is `Sendable`.
@usableFromInline
struct AsyncSequenceRunner: @unchecked Sendable {
  @usableFromInline let body: () async -> Void

  @inlinable
  init(_ body: @escaping () async -> Void) {
    self.body = body
  }
}

// SAFETY: mutable state is in `lock`; the sequence is only touched by the one task the subscription starts,
// which delivers serially.
@available(macOS 15.0, iOS 18.0, tvOS 18.0, watchOS 11.0, visionOS 2.0, *)
@usableFromInline
final class AsyncSequenceSubscription<Downstream: Subscriber, Base: AsyncSequence>: Subscription,
  CustomStringConvertible, @unchecked Sendable
where Downstream.Input == Base.Element, Downstream.Failure == Base.Failure {
  @usableFromInline
  struct State {
    @usableFromInline
    var demand = Subscribers.Demand.none
    @usableFromInline
    var waiter: CheckedContinuation<Bool, Never>?
    /// Whether the first request has started the task that iterates.
    @usableFromInline
    var isStarted = false
    @usableFromInline
    var task: Task<Void, Never>?
    /// `nil` once cancelled or completed: the subscription lets go of its subscriber, as Combine's do.
    @usableFromInline
    var downstream: Downstream?

    @inlinable
    init(
      demand: Subscribers.Demand = Subscribers.Demand.none,
      waiter: CheckedContinuation<Bool, Never>? = nil,
      isStarted: Bool = false,
      task: Task<Void, Never>? = nil,
      downstream: Downstream? = nil
    ) {
      self.demand = demand
      self.waiter = waiter
      self.isStarted = isStarted
      self.task = task
      self.downstream = downstream
    }
  }

  @usableFromInline
  let lock: Locked<State>
  @usableFromInline
  let base: Base

  @inlinable
  init(downstream: Downstream, base: Base) {
    lock = Locked(State(downstream: downstream))
    self.base = base
  }

  @inlinable
  var description: String { "AsyncSequence" }

  @inlinable
  func request(_ demand: Subscribers.Demand) {
    precondition(demand > 0, "AsyncSequence: a subscriber requested \(demand); demand must be greater than zero")
    let (waiter, mustStart) = lock.withLock { state -> (CheckedContinuation<Bool, Never>?, Bool) in
      guard state.downstream != nil else { return (nil, false) }
      state.demand += demand
      // A task waiting for demand takes one value of it as it wakes, as `takeDemand()` does when it finds some.
      let waiter = state.waiter.take()
      if waiter != nil { state.demand -= 1 }
      defer { state.isStarted = true }
      return (waiter, !state.isStarted)
    }
    waiter?.resume(returning: true)
    guard mustStart else { return }
    // `run()` is called from a closure made here, in code specialised for the subscriber's and the sequence's
    // types; the task calls that closure through a non-generic box, which captures no generic metadata (a specialised
    // entry: WritingAnOperator.md, "Hot-path idioms").
    let runner = AsyncSequenceRunner { [self] in await run() }
    let task = Task { await runner.body() }
    let cancelled = lock.withLock { state -> Bool in
      state.task = task
      return state.downstream == nil
    }
    if cancelled { task.cancel() }
  }

  @inlinable
  func cancel() {
    let (waiter, task, downstream) = lock.withLock {
      state -> (CheckedContinuation<Bool, Never>?, Task<Void, Never>?, Downstream?) in
      defer {
        state.waiter = nil
        state.downstream = nil
      }
      return (state.waiter, state.task, state.downstream)
    }
    task?.cancel()
    waiter?.resume(returning: false)
    _ = downstream
  }

  /// Waits until the subscriber has demand; `false` once cancelled.
  @inlinable
  func takeDemand() async -> Bool {
    await withCheckedContinuation { continuation in
      let ready = lock.withLock { state -> Bool? in
        if state.downstream == nil { return false }
        guard state.demand > 0 else {
          state.waiter = continuation
          return nil
        }
        state.demand -= 1
        return true
      }
      if let ready { continuation.resume(returning: ready) }
    }
  }

  /// The subscriber, or `nil` once cancelled.
  @inlinable
  var downstream: Downstream? { lock.withLock { $0.downstream } }

  /// The subscriber, let go of for good before it receives its completion; `nil` once cancelled.
  @inlinable
  func takeDownstream() -> Downstream? {
    lock.withLock { state in
      defer { state.downstream = nil }
      return state.downstream
    }
  }

  @inlinable
  func run() async {
    var iterator = base.makeAsyncIterator()
    do {
      while true {
        guard await takeDemand() else { return }
        guard let element = try await iterator.next(isolation: nil) else {
          takeDownstream()?.receive(completion: .finished)
          return
        }
        guard let downstream else { return }
        let more = downstream.receive(element)
        if more > 0 { lock.withLock { $0.demand += more } }
      }
    } catch {
      takeDownstream()?.receive(completion: .failure(error))
    }
  }
}
