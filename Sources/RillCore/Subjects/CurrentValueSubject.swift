/// A subject that wraps a single value and publishes a new element whenever the value changes.
///
/// A new subscriber receives the current value as soon as it requests one. While a subscriber has no demand,
/// the subject keeps only the latest value for it, and delivers that when demand arrives. Once the subject
/// completes, further sends are ignored; a write to ``value`` still changes the value, as in Combine, but
/// publishes nothing. Sends are delivered as ``PassthroughSubject`` delivers them: on the sending thread, before
/// `send` returns, nested when re-entrant.
public final class CurrentValueSubject<Output, Failure: Error>: Subject {
  @usableFromInline
  let core: SubjectCore<Output, Failure>

  /// The value wrapped by this subject, published as a new element whenever it changes.
  ///
  /// After completion, setting it still changes the value, as in Combine, but publishes nothing.
  @inlinable
  public var value: Output {
    get { core.current }
    set { core.setCurrent(newValue) }
  }

  /// Creates a current value subject with the given initial value.
  @inlinable
  public init(_ value: Output) {
    core = SubjectCore(name: "CurrentValueSubject", current: value)
  }

  deinit {
    core.cancelUpstreams()
  }

  /// Keeps an upstream subscription, and requests unlimited values from it at once.
  ///
  /// The subject cancels the upstream subscriptions it keeps when it is deinitialized.
  @inlinable
  public func send(subscription: any Subscription) {
    core.send(subscription: subscription)
  }

  @inlinable
  public func receive<S: Subscriber>(subscriber: S) where Output == S.Input, Failure == S.Failure {
    core.receive(subscriber: subscriber, subject: self)
  }

  /// Sends a value to the subscribers, and makes it the current value.
  @inlinable
  public func send(_ input: Output) {
    core.send(input)
  }

  /// Sends a completion signal to the subscribers.
  ///
  /// Later sends are ignored.
  @inlinable
  public func send(completion: Subscribers.Completion<Failure>) {
    core.send(completion: completion)
  }
}

// SAFETY: all mutable state is in `core`; the values it hands to subscribers on other threads are `Sendable`.
extension CurrentValueSubject: @unchecked Sendable where Output: Sendable {}
