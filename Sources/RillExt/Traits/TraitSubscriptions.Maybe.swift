extension TraitSubscriptions {
  /// A subscription to subclass when you write a maybe publisher around work that is not a publisher.
  ///
  /// ```
  /// demand:               -1------   -1------
  /// start(with:):         -x------   -x------
  /// receive(_:):          -----x--   ---x----
  /// downstream:           -----[v|]  ---|
  /// ```
  ///
  /// It works as ``TraitSubscriptions/Single`` does, with a ``MaybeResult`` for the outcome: ``receive(_:)`` with
  /// `.success(value)` sends the value and `.finished`, with `.finished` sends `.finished` alone, and with
  /// `.failure(error)` sends the failure.
  ///
  /// ```swift
  /// private final class Subscription<Downstream: Subscriber>: TraitSubscriptions.Maybe<Downstream, Cache>
  /// where Downstream.Input == Data, Downstream.Failure == Never {
  ///   override func start(with cache: Cache) {
  ///     cache.lookUp(key) { data in self.receive(data.map { .success($0) } ?? .finished) }
  ///   }
  /// }
  /// ```
  ///
  /// Unlike CombineTraits' class, it is not an `NSObject` subclass, and an outcome reported before the subscriber
  /// asked for a value is not dropped: `.finished` and a failure go downstream at once, and a value waits for demand
  /// (``start(with:)`` is then never called).
  open class Maybe<Downstream: Subscriber, Context>: Subscription {
    @usableFromInline typealias Outcome = MaybeResult<Downstream.Input, Downstream.Failure>
    @usableFromInline typealias Machine = TraitSubscriptionStateMachine<Downstream, Context, Outcome>

    @usableFromInline let machine: Locked<Machine>
    @usableFromInline let entry: TraitSubscriptionEntry<Maybe, Outcome>

    /// Creates a subscription that will send its outcome to `downstream`.
    ///
    /// - Parameters:
    ///   - downstream: The subscriber to send the outcome to.
    ///   - context: The value handed to ``start(with:)``, ``didCancel(with:)`` and ``didComplete(with:)``.
    @inlinable
    public init(downstream: Downstream, context: Context) {
      machine = Locked(Machine(downstream: downstream, context: context))
      entry = TraitSubscriptionEntry(
        request: { $0.specializedRequest($1) },
        receive: { $0.specializedReceive($1) },
        cancel: { $0.specializedCancel() }
      )
    }

    /// Starts the work at the first demand.
    @inlinable
    public func request(_ demand: Subscribers.Demand) {
      entry.request(self, demand)
    }

    @inlinable
    final func specializedRequest(_ demand: Subscribers.Demand) {
      switch machine.withLock({ $0.request(demand) }) {
      case .none: break
      case .start(let context): start(with: context)
      case .deliver(let downstream, let context, let result): complete(downstream, context, result)
      }
    }

    /// Starts the work: override it, and eventually call ``receive(_:)``.
    ///
    /// The default implementation does nothing.
    ///
    /// - Parameter context: The context the subscription was created with.
    open func start(with context: Context) {}

    /// Stops the work after the subscriber cancelled: override it to clean up.
    ///
    /// It is called only when the work had started and had not completed yet. The default implementation does
    /// nothing.
    ///
    /// - Parameter context: The context the subscription was created with.
    open func didCancel(with context: Context) {}

    /// Cleans up after the outcome, just before the subscriber receives it: override it to clean up.
    ///
    /// The default implementation does nothing.
    ///
    /// - Parameter context: The context the subscription was created with.
    open func didComplete(with context: Context) {}

    /// Sends the work's outcome to the subscriber: the value followed by `.finished`, `.finished` alone, or the
    /// failure.
    ///
    /// - Parameter result: The outcome of the work.
    @inlinable
    public func receive(_ result: MaybeResult<Downstream.Input, Downstream.Failure>) {
      entry.receive(self, result)
    }

    @inlinable
    final func specializedReceive(_ result: Outcome) {
      let needsDemand: Bool
      if case .success = result { needsDemand = true } else { needsDemand = false }
      switch machine.withLock({ $0.outcome(result, needsDemand: needsDemand) }) {
      case .none: break
      case .deliver(let downstream, let context, let result): complete(downstream, context, result)
      }
    }

    /// Ends the subscription; the subscriber receives nothing more.
    @inlinable
    public func cancel() {
      entry.cancel(self)
    }

    @inlinable
    final func specializedCancel() {
      switch machine.withLock({ $0.cancel() }) {
      case .none: break
      case .didCancel(let context): didCancel(with: context)
      }
    }

    @inlinable
    final func complete(
      _ downstream: Downstream,
      _ context: Context,
      _ result: MaybeResult<Downstream.Input, Downstream.Failure>
    ) {
      didComplete(with: context)
      switch result {
      case .finished:
        downstream.receive(completion: .finished)
      case .success(let value):
        _ = downstream.receive(value)
        if machine.withLock({ $0.delivered() }) { downstream.receive(completion: .finished) }
      case .failure(let error):
        downstream.receive(completion: .failure(error))
      }
    }
  }
}
