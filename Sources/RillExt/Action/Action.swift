/// Runs a piece of work for an input, one execution at a time, and publishes the outputs, errors and state of all
/// its executions; the Combine counterpart of RxSwift's `Action`.
///
/// ```
/// execute(1):       -a-b-|               (work for 1: -a-b-|)
/// execute(2):       --^                  (busy: ActionError.notEnabled)
/// values:           -a-b-------
/// errors:           --n--------          (n = .notEnabled)
/// isExecuting:      t----f-----          (after its current value, f)
/// isEnabled:        f----t-----          (after its current value, t)
/// ```
///
/// An action is built from a work factory, a closure that turns an input into the publisher that does the work, and
/// from an optional `enabledIf` publisher. ``execute(_:)`` starts the work for an input when the action is enabled:
/// when the latest value of `enabledIf` is `true` and no other execution is running. Otherwise it fails at once with
/// ``ActionError/notEnabled``. A view model typically keeps an action for a button, binds the button's enabled state
/// to ``isEnabled`` and a spinner to ``isExecuting``:
///
/// ```swift
/// let isValid = CurrentValueSubject<Bool, Never>(false)
/// let signIn = Action<Credentials, User, SignInError>(enabledIf: isValid) { credentials in
///   api.signIn(credentials)  // an AnyPublisher<User, SignInError>
/// }
///
/// let spinner = signIn.isExecuting.sink { showSpinner($0) }
/// let button = signIn.isEnabled.sink { setButtonEnabled($0) }
/// let users = signIn.values.sink { user in show(user) }
///
/// isValid.send(true)
/// let outcome = signIn.execute(credentials).sink(
///   receiveCompletion: { print($0) },
///   receiveValue: { print("signed in", $0) }
/// )
/// ```
///
/// ## Executions
///
/// ``execute(_:)`` calls the work factory and subscribes to its publisher before it returns, requesting unlimited
/// values, as RxSwift's `execute` does. The execution runs whether or not anybody subscribes to the publisher it
/// returns, and cancelling a subscription to that publisher does not stop it: the work runs until it completes. That
/// publisher replays all the outputs of its execution, then its completion, to each subscriber, as far as each
/// subscriber's demand goes, so a subscriber that comes late misses nothing. While an execution runs, it keeps the
/// action alive.
///
/// ## Shared streams
///
/// ``values``, ``errors`` and ``underlyingError`` gather the outputs and errors of every execution, like
/// `PassthroughSubject`s: a subscriber receives what happens after it subscribed, as far as its demand goes.
/// ``isExecuting`` and ``isEnabled`` start with their current value, then send each change, like
/// `CurrentValueSubject`s. When the action is freed, all five finish.
///
/// ## Threading
///
/// `execute(_:)` may be called from any thread, and so may the `enabledIf` publisher send. Exactly one of several
/// concurrent calls can start an execution; the others fail with ``ActionError/notEnabled``. The shared streams send
/// on the thread that caused the event: ``values``, ``errors`` and the end of an execution on the thread the work
/// publisher sends on, its start on the thread that called `execute(_:)`, a change of `enabledIf` on the thread it
/// sends on. They deliver one event at a time, in the order the events happened: when a thread is already
/// delivering, an event from another thread (or from a subscriber's own call to `execute(_:)`) is queued and that
/// thread delivers it next. The action's state is guarded by one lock, and no subscriber, publisher or work factory
/// is called while it is held, so a subscriber may call `execute(_:)` from inside a delivery.
///
/// An action is not `Sendable`: it calls its work factory, a closure that may capture anything, on the thread
/// that calls `execute(_:)`. Keep it with the object that owns it, such as a `@MainActor` view model.
///
/// ## Differences from RxSwift's Action
///
/// - ``ActionError/underlyingError(_:)`` carries the work's typed `Failure` rather than any `Error`, and the
///   outputs stream is named ``values`` (RxSwift's `elements`).
/// - Until `enabledIf` sends its first value the action is disabled, and an `execute(_:)` fails with
///   ``ActionError/notEnabled`` (RxSwift's would be dropped without an answer).
/// - ``isEnabled`` sends only changes, where RxSwift's `enabled` repeats a value each time `enabledIf` sends it.
/// - There is no `inputs` subject: call ``execute(_:)``.
/// - The execution keeps the action alive until it ends, where RxSwift's action disposes of a running execution
///   when it is freed.
// All mutable state is in `state`; the subjects are thread-safe, and the subjects, the work factory and the work
// publisher are called outside the lock.
public final class Action<Input, Output, Failure: Error> {
  /// The outputs of every execution, in order.
  public let values: AnyPublisher<Output, Never>

  /// The errors of every `execute(_:)` call that failed: ``ActionError/notEnabled`` when it could not start, and
  /// ``ActionError/underlyingError(_:)`` when its work failed.
  public let errors: AnyPublisher<ActionError<Failure>, Never>

  /// The failures of the work of every execution that failed.
  public let underlyingError: AnyPublisher<Failure, Never>

  /// Whether an execution is running: the current value first, then each change.
  public let isExecuting: AnyPublisher<Bool, Never>

  /// Whether ``execute(_:)`` would start the work: the current value first, then each change.
  ///
  /// The action is enabled when the latest value of `enabledIf` is `true` and no execution is running.
  public let isEnabled: AnyPublisher<Bool, Never>

  @usableFromInline
  let workFactory: (Input) -> AnyPublisher<Output, Failure>

  @usableFromInline
  let state = Locked(ActionState<Output, Failure>())

  @usableFromInline
  let valueSubject = PassthroughSubject<Output, Never>()

  @usableFromInline
  let errorSubject = PassthroughSubject<ActionError<Failure>, Never>()

  @usableFromInline
  let underlyingErrorSubject = PassthroughSubject<Failure, Never>()

  @usableFromInline
  let executingSubject = CurrentValueSubject<Bool, Never>(false)

  @usableFromInline
  let enabledSubject = CurrentValueSubject<Bool, Never>(false)

  /// Creates an action that runs the publisher `workFactory` makes for each input it executes.
  ///
  /// The action subscribes to `enabledIf` at once, and keeps only a weak reference to itself in that subscription,
  /// so a long-lived `enabledIf` does not keep the action alive.
  ///
  /// - Parameters:
  ///   - enabledIf: A publisher of whether the action may execute; the action is disabled until its first value,
  ///     and keeps its last value after it finishes. By default, always `true`.
  ///   - workFactory: A closure that returns the publisher doing the work for an input.
  @inlinable
  public init<Work: Publisher>(
    enabledIf: some Publisher<Bool, Never> = Just(true),
    workFactory: @escaping (Input) -> Work
  ) where Work.Output == Output, Work.Failure == Failure {
    self.workFactory = { workFactory($0).eraseToAnyPublisher() }
    values = valueSubject.eraseToAnyPublisher()
    errors = errorSubject.eraseToAnyPublisher()
    underlyingError = underlyingErrorSubject.eraseToAnyPublisher()
    isExecuting = executingSubject.eraseToAnyPublisher()
    isEnabled = enabledSubject.eraseToAnyPublisher()
    let subscription = enabledIf.sink { [weak self] value in
      guard let self else { return }
      deliver(if: state.withLock { $0.enabledIfSent(value) })
    }
    state.withLock { $0.enabledIfSubscription = subscription }
  }

  /// Starts the work for `input` if the action is enabled, and returns a publisher of that execution's outputs.
  ///
  /// ```
  /// work for input:   -a---b-|
  /// execute(input):   -a---b-|
  /// subscribed late:  -----[ab]-|   (replayed, then live)
  /// ```
  ///
  /// The work starts before this method returns, and runs to its end even if nobody subscribes to the returned
  /// publisher, or every subscriber cancels. The returned publisher replays the execution's outputs and completion
  /// to each subscriber, as a ``ReplaySubject`` does: the outputs as far as its demand goes, and the completion once
  /// the outputs its demand covers have gone (those beyond it are dropped). When the action is disabled or busy, the
  /// work does not start,
  /// and the returned publisher fails at once with ``ActionError/notEnabled``, which ``errors`` sends too.
  ///
  /// - Parameter input: The input to pass to the work factory.
  /// - Returns: A publisher of the outputs of this execution, failing with
  ///   ``ActionError/underlyingError(_:)`` if the work fails.
  @inlinable
  @discardableResult
  public func execute(_ input: Input) -> AnyPublisher<Output, ActionError<Failure>> {
    let (started, mustDeliver) = state.withLock { $0.start() }
    deliver(if: mustDeliver)
    guard started else { return Fail(error: .notEnabled).eraseToAnyPublisher() }
    let outputs = ReplaySubject<Output, ActionError<Failure>>(bufferSize: .max)
    workFactory(input).subscribe(Execution(action: self, outputs: outputs))
    return outputs.eraseToAnyPublisher()
  }

  deinit {
    valueSubject.send(completion: .finished)
    errorSubject.send(completion: .finished)
    underlyingErrorSubject.send(completion: .finished)
    executingSubject.send(completion: .finished)
    enabledSubject.send(completion: .finished)
  }

  @inlinable
  func workSent(_ value: Output) {
    deliver(if: state.withLock { $0.workSent(value) })
  }

  @inlinable
  func workEnded(failure: Failure?) {
    deliver(if: state.withLock { $0.workEnded(failure: failure) })
  }

  /// Sends the pending events to the shared streams, if this thread was told to deliver them.
  @inlinable
  func deliver(if mustDeliver: Bool) {
    guard mustDeliver else { return }
    while let event = state.withLock({ $0.nextEvent() }) {
      switch event {
      case .value(let value):
        valueSubject.send(value)
      case .error(let error):
        errorSubject.send(error)
        if case .underlyingError(let failure) = error { underlyingErrorSubject.send(failure) }
      case .executing(let isExecuting):
        executingSubject.send(isExecuting)
      case .enabled(let isEnabled):
        enabledSubject.send(isEnabled)
      }
    }
  }
}

extension Action {
  /// The subscriber to one execution's work: it reports to the action, and feeds the execution's replay subject.
  ///
  /// It keeps the work's subscription until the work completes, so the work runs even when nobody else holds it.
  // SAFETY: all mutable state is in `phase`; the action, the subject and the subscription are called outside the lock.
  @usableFromInline
  final class Execution: Subscriber, @unchecked Sendable {
    @usableFromInline typealias Input = Output

    @usableFromInline typealias Phase = ActionExecutionPhase

    @usableFromInline let action: Action

    @usableFromInline let outputs: ReplaySubject<Output, ActionError<Failure>>

    @usableFromInline let phase = Locked(Phase.awaitingSubscription)

    @inlinable
    init(action: Action, outputs: ReplaySubject<Output, ActionError<Failure>>) {
      self.action = action
      self.outputs = outputs
    }

    @inlinable
    func receive(subscription: any Subscription) {
      let isFirst = phase.withLock { phase in
        guard case .awaitingSubscription = phase else { return false }
        phase = .subscribed(subscription)
        return true
      }
      if isFirst { subscription.request(.unlimited) } else { subscription.cancel() }
    }

    @inlinable
    func receive(_ input: Output) -> Subscribers.Demand {
      guard case .subscribed = phase.withLock({ $0 }) else { return .none }
      action.workSent(input)
      outputs.send(input)
      return .none
    }

    @inlinable
    func receive(completion: Subscribers.Completion<Failure>) {
      // The work's subscription, which has completed, is released after unlocking.
      let ended = phase.withLock { phase -> Phase? in
        if case .terminal = phase { return nil }
        defer { phase = .terminal }
        return phase
      }
      guard ended != nil else { return }
      switch completion {
      case .finished:
        action.workEnded(failure: nil)
        outputs.send(completion: .finished)
      case .failure(let failure):
        action.workEnded(failure: failure)
        outputs.send(completion: .failure(.underlyingError(failure)))
      }
    }
  }
}

/// Where an execution's work stands.
///
/// Not nested in the generic `Action`: it holds nothing of the action's types, and nested, each of its value
/// witnesses (which `Locked` runs, unspecialised, to copy and destroy it) would look its generic metadata up.
@usableFromInline
enum ActionExecutionPhase {
  case awaitingSubscription
  case subscribed(any Subscription)
  case terminal
}
