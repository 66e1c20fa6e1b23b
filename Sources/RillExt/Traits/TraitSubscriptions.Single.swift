extension TraitSubscriptions {
  /// A subscription to subclass when you write a single publisher around work that is not a publisher.
  ///
  /// ```
  /// demand:              -1------
  /// start(with:):        -x------
  /// receive(.success(v)): -----x--
  /// downstream:          -----[v|]
  /// ```
  ///
  /// Subclass it, override ``start(with:)`` to begin the work once the subscriber asks for a value, and call
  /// ``receive(_:)`` with the outcome when the work is done. Override ``didCancel(with:)`` to stop the work when the
  /// subscriber cancels, and ``didComplete(with:)`` to clean up after the outcome. `context` is whatever your publisher
  /// hands the subscription: the work's input, an object to call back, or `Void`.
  ///
  /// ```swift
  /// struct NamePublisher: SinglePublisher {
  ///   typealias Output = String
  ///   typealias Failure = any Error
  ///
  ///   let service: NameService
  ///
  ///   func receive<S>(subscriber: S) where S: Subscriber, S.Input == String, S.Failure == any Error {
  ///     subscriber.receive(subscription: Subscription(downstream: subscriber, context: service))
  ///   }
  ///
  ///   private final class Subscription<Downstream: Subscriber>: TraitSubscriptions.Single<Downstream, NameService>
  ///   where Downstream.Input == String, Downstream.Failure == any Error {
  ///     override func start(with service: NameService) {
  ///       service.fetchName { result in self.receive(result) }
  ///     }
  ///
  ///     override func didCancel(with service: NameService) {
  ///       service.cancelFetch()
  ///     }
  ///   }
  /// }
  /// ```
  ///
  /// The subscription starts the work once, at the first demand, and sends at most one outcome: later calls to
  /// ``receive(_:)`` are ignored, and so is ``receive(_:)`` after a cancel. It never calls your overrides or the
  /// subscriber while holding its lock, so ``receive(_:)`` may be called from ``start(with:)``, from any thread.
  ///
  /// Unlike CombineTraits' class, it is not an `NSObject` subclass, and an outcome reported before the subscriber
  /// asked for a value is not dropped: a failure goes downstream at once, and a value waits for demand (``start(with:)``
  /// is then never called).
  open class Single<Downstream: Subscriber, Context>: Subscription {
    @usableFromInline typealias Outcome = Result<Downstream.Input, Downstream.Failure>
    @usableFromInline typealias Machine = TraitSubscriptionStateMachine<Downstream, Context, Outcome>

    @usableFromInline let machine: Locked<Machine>
    @usableFromInline let entry: TraitSubscriptionEntry<Single, Outcome>

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

    /// Sends the work's outcome to the subscriber: the value followed by `.finished`, or the failure.
    ///
    /// - Parameter result: The outcome of the work.
    @inlinable
    public func receive(_ result: Result<Downstream.Input, Downstream.Failure>) {
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
      _ result: Result<Downstream.Input, Downstream.Failure>
    ) {
      didComplete(with: context)
      switch result {
      case .success(let value):
        _ = downstream.receive(value)
        if machine.withLock({ $0.delivered() }) { downstream.receive(completion: .finished) }
      case .failure(let error):
        downstream.receive(completion: .failure(error))
      }
    }
  }
}
