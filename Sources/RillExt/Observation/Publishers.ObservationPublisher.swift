#if canImport(Observation)
public import Observation

extension Publishers {
  /// A publisher of an `@Observable` model's property: its current value, then its new value after each change.
  ///
  /// Create one with ``Observation/Observable/publisher(for:options:scheduler:)``. It holds the model weakly.
  @available(macOS 14.0, iOS 17.0, tvOS 17.0, watchOS 10.0, *)
  public struct ObservationPublisher<Subject: Observable & AnyObject, Value, Context: Scheduler>: Publisher {
    public typealias Output = Value

    public typealias Failure = Never

    private weak var model: Subject?

    /// The property published.
    public let keyPath: KeyPath<Subject, Value>

    /// Whether the current value goes out on subscription.
    public let options: ObservationOptions

    /// Where the property is read after a change, and its value delivered.
    public let scheduler: Context

    /// Creates a publisher of `object`'s property at `keyPath`.
    ///
    /// - Parameters:
    ///   - object: The model; held weakly.
    ///   - keyPath: The property to publish.
    ///   - options: `.initial` to send the current value on subscription.
    ///   - scheduler: Where to read the property after a change, and deliver it.
    public init(object: Subject, keyPath: KeyPath<Subject, Value>, options: ObservationOptions, scheduler: Context) {
      model = object
      self.keyPath = keyPath
      self.options = options
      self.scheduler = scheduler
    }

    /// The model, while it lives.
    public var object: Subject? { model }

    public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Never {
      let inner = Inner(downstream: subscriber, publisher: self)
      subscriber.receive(subscription: inner)
    }
  }
}

@available(macOS 14.0, iOS 17.0, tvOS 17.0, watchOS 10.0, *)
extension Publishers.ObservationPublisher {
  /// One subscription: tracks the property with `withObservationTracking`, reads it again on the scheduler after
  /// each change, and delivers what it reads; see `ObservationStateMachine`.
  // SAFETY: all mutable state is in `state`; downstream, the scheduler and the model are called outside its lock.
  private final class Inner<Downstream: Subscriber>: Subscription, ObservationTrackingTarget, CustomStringConvertible,
    @unchecked Sendable
  where Downstream.Input == Value, Downstream.Failure == Never {
    private struct State {
      var machine = ObservationStateMachine()
      /// Let go of when the stream ends.
      var downstream: Downstream?
    }

    private weak var model: Subject?

    private let keyPath: KeyPath<Subject, Value>

    private let deliversInitial: Bool

    private let scheduler: Context

    private let state: Locked<State>

    init(downstream: Downstream, publisher: Publishers.ObservationPublisher<Subject, Value, Context>) {
      model = publisher.object
      keyPath = publisher.keyPath
      deliversInitial = publisher.options.contains(.initial)
      scheduler = publisher.scheduler
      state = Locked(State(downstream: downstream))
    }

    var description: String { "ObservationPublisher" }

    func request(_ demand: Subscribers.Demand) {
      switch state.withLock({ $0.machine.request(demand, deliversInitial: deliversInitial) }) {
      case .none:
        return
      case .schedule:
        schedule()
      case .start(let generation, let delivers):
        guard let value = track(generation: generation) else { return finishNow() }
        if delivers {
          deliver(value)
        } else if state.withLock({ $0.machine.deliveryEnded(adding: .none) }) {
          schedule()
        }
      }
    }

    func cancel() {
      let downstream = state.withLock { state -> Downstream? in
        state.machine.cancel()
        return state.downstream.take()
      }
      _ = downstream
    }

    // MARK: Reading and delivering

    /// Reads the property, tracking it; `nil` if the model is gone.
    private func track(generation: Int) -> Value? {
      guard let model else { return nil }
      let keyPath = keyPath
      var registration = ObservationRegistration(target: self, generation: generation)
      // The model lives until the registration is installed: freed earlier, it would let go of the closure unseen.
      return withExtendedLifetime(model) {
        let value = withObservationTracking {
          model[keyPath: keyPath]
        } onChange: { [registration] in
          registration.fire()
        }
        // If nothing read was tracked, Observation has let go of the closure, and this is the one reference left.
        if !isKnownUniquelyReferenced(&registration) { registration.install() }
        return value
      }
    }

    /// Delivers a value read under way, then acts on what happened meanwhile.
    private func deliver(_ value: Value) {
      guard let downstream = state.withLock({ $0.downstream }) else { return }
      let more = downstream.receive(value)
      if state.withLock({ $0.machine.deliveryEnded(adding: more) }) { schedule() }
    }

    func changeObserved(generation: Int) {
      if state.withLock({ $0.machine.changeObserved(generation: generation) }) { schedule() }
    }

    func modelWasFreed(generation: Int) {
      if state.withLock({ $0.machine.modelWasFreed(generation: generation) }) { schedule() }
    }

    private func schedule() {
      scheduler.schedule { [self] in run() }
    }

    /// A scheduled run, on the scheduler.
    private func run() {
      switch state.withLock({ $0.machine.run() }) {
      case .none:
        return
      case .finish:
        finish()
      case .read(let generation):
        guard let value = track(generation: generation) else { return finishNow() }
        deliver(value)
      }
    }

    /// The model was found freed while reading.
    private func finishNow() {
      if state.withLock({ $0.machine.modelMissing() }) { finish() }
    }

    private func finish() {
      state.withLock { $0.downstream.take() }?.receive(completion: .finished)
    }
  }
}
#endif
