/// The state of an ``Action``: whether it is enabled and executing, and the events its shared streams still have to
/// deliver, in the order they happened.
///
/// Every method runs under the action's lock. The events wait in `pending`; the thread that a method's result tells
/// to deliver takes them out one at a time with ``nextEvent()`` until it is `nil`, and any other thread only adds to
/// them, so the streams see the events in the order the lock saw them, one thread at a time.
@usableFromInline
struct ActionState<Output, Failure: Error> {
  /// One event of the action's shared streams.
  @usableFromInline
  enum Event {
    case value(Output)
    case error(ActionError<Failure>)
    case executing(Bool)
    case enabled(Bool)
  }

  /// The latest value of the `enabledIf` publisher; `false` until it sends one.
  @usableFromInline var isEnabledIf = false

  @usableFromInline var isExecuting = false

  /// The subscription to the `enabledIf` publisher, kept here so that it ends with the action.
  @usableFromInline var enabledIfSubscription: AnyCancellable?

  @usableFromInline var pending = FIFO<Event>()

  /// Whether a thread is delivering `pending`.
  @usableFromInline var isDelivering = false

  @inlinable
  var isEnabled: Bool { isEnabledIf && !isExecuting }

  /// Records a value of the `enabledIf` publisher; returns whether the caller must deliver the pending events.
  @inlinable
  mutating func enabledIfSent(_ value: Bool) -> Bool {
    changingEnabled { $0.isEnabledIf = value }
    return claimDelivery()
  }

  /// Starts an execution if the action is enabled, or records a `notEnabled` error if not.
  ///
  /// - Returns: Whether the execution started, and whether the caller must deliver the pending events.
  @inlinable
  mutating func start() -> (started: Bool, deliver: Bool) {
    guard isEnabled else {
      pending.append(.error(.notEnabled))
      return (false, claimDelivery())
    }
    changingEnabled {
      $0.isExecuting = true
      $0.pending.append(.executing(true))
    }
    return (true, claimDelivery())
  }

  /// Records a value of the running execution; returns whether the caller must deliver the pending events.
  @inlinable
  mutating func workSent(_ value: Output) -> Bool {
    pending.append(.value(value))
    return claimDelivery()
  }

  /// Ends the running execution, with its failure if it failed; returns whether the caller must deliver the pending
  /// events.
  @inlinable
  mutating func workEnded(failure: Failure?) -> Bool {
    if let failure { pending.append(.error(.underlyingError(failure))) }
    changingEnabled {
      $0.isExecuting = false
      $0.pending.append(.executing(false))
    }
    return claimDelivery()
  }

  /// The next event to deliver, or `nil`, in which case the delivering thread is done.
  @inlinable
  mutating func nextEvent() -> Event? {
    precondition(isDelivering, "ActionState.nextEvent() called by a thread that is not delivering")
    if pending.isEmpty {
      isDelivering = false
      return nil
    }
    return pending.removeFirst()
  }

  /// Runs `change`, then records an `enabled` event if it changed whether the action is enabled.
  @inlinable
  mutating func changingEnabled(_ change: (inout Self) -> Void) {
    let wasEnabled = isEnabled
    change(&self)
    if isEnabled != wasEnabled { pending.append(.enabled(isEnabled)) }
  }

  @inlinable
  mutating func claimDelivery() -> Bool {
    guard !isDelivering, !pending.isEmpty else { return false }
    isDelivering = true
    return true
  }
}
