extension ReleaseProbe {
  /// The publisher a probed pipeline is built on: the run's values, then its ending, and a subscription per
  /// subscriber that calls back into the run when it is freed.
  ///
  /// Subscribe to it as often as the pipeline needs (`merge(with:)` of itself, `flatMap` children, `retry`): every
  /// subscriber receives the values sent after it subscribed, while it has demand, as from a `PassthroughSubject`.
  public struct Source: Publisher {
    public typealias Output = Value
    public typealias Failure = ReleaseProbe.Failure

    /// A virtual-time scheduler for time operators; the probe advances it after the run's ending.
    public let scheduler: TestScheduler

    private let subject: PassthroughSubject<Value, Failure>
    private let target: ReleaseProbeTarget

    init(subject: PassthroughSubject<Value, Failure>, scheduler: TestScheduler, target: ReleaseProbeTarget) {
      self.subject = subject
      self.scheduler = scheduler
      self.target = target
    }

    /// A value that calls back into the run when it is freed, for a pipeline's own values (a `flatMap` child's, a
    /// `catch`'s replacement).
    ///
    /// - Parameter number: The value's number.
    /// - Returns: The value.
    public func value(_ number: Int) -> Value {
      Value(number, target: target)
    }

    public func receive<S: Subscriber>(subscriber: S) where S.Input == Value, S.Failure == Failure {
      subject.subscribe(ReleaseProbeUpstream(downstream: subscriber, target: target))
    }
  }
}

/// Hands the subject's subscription to the probed pipeline in a ``ReleaseProbeSubscription``.
private struct ReleaseProbeUpstream<Downstream: Subscriber>: Subscriber {
  typealias Input = Downstream.Input
  typealias Failure = Downstream.Failure

  let downstream: Downstream
  let target: ReleaseProbeTarget
  let combineIdentifier = CombineIdentifier()

  func receive(subscription: any Subscription) {
    downstream.receive(subscription: ReleaseProbeSubscription(subscription, target: target))
  }

  func receive(_ input: Input) -> Subscribers.Demand {
    downstream.receive(input)
  }

  func receive(completion: Subscribers.Completion<Failure>) {
    downstream.receive(completion: completion)
  }
}

/// A subscription that passes requests and cancels on, and calls back into the run when it is freed.
// SAFETY: immutable; the subscription and the target it calls are thread-safe.
private final class ReleaseProbeSubscription: Subscription, @unchecked Sendable {
  private let subscription: any Subscription
  private let target: ReleaseProbeTarget

  init(_ subscription: any Subscription, target: ReleaseProbeTarget) {
    self.subscription = subscription
    self.target = target
  }

  deinit {
    target.reenter()
  }

  func request(_ demand: Subscribers.Demand) {
    subscription.request(demand)
  }

  func cancel() {
    subscription.cancel()
  }
}
