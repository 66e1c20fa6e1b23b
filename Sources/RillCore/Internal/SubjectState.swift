/// The lock and state shared by a subject and its conduits: one lock per subject, none per subscriber.
///
/// Sends are serialised: while one call is delivering (on any thread, or re-entrantly from a subscriber), later
/// sends are queued and delivered by the delivering call, in order, once it has offered its value to every
/// subscriber. So every subscriber sees the values in the order they were sent, and no lock is held while
/// subscribers run. A value costs the delivering call one lock to claim the first subscriber's demand and one more
/// per subscriber to return the demand it asks for and claim the next.
// SAFETY: all mutable state is in `state`; subscribers are called outside the lock.
@usableFromInline
final class SubjectCore<Output, Failure: Error>: @unchecked Sendable {
  @usableFromInline
  typealias Conduit = SubjectConduitBase<Output, Failure>

  @usableFromInline
  let state: Locked<SubjectState<Output, Failure>>

  /// The subject's name, for the conduits' descriptions and trap messages.
  @usableFromInline
  let name: String

  /// The subject, for the conduits' mirrors; set once by the subject's initializer.
  @usableFromInline
  weak var subject: AnyObject?

  @inlinable
  init(name: String, current: Output?) {
    self.name = name
    state = Locked(SubjectState(current: current))
  }

  /// Attaches a subscriber, or completes it at once if the subject has ended.
  @inlinable
  func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
    let (attached, completion) = state.withLock {
      state -> (SubjectConduit<S>?, Subscribers.Completion<Failure>?) in
      if let completion = state.completion { return (nil, completion) }
      let conduit = SubjectConduit(core: self, downstream: subscriber, latest: state.current)
      state.conduits.append(conduit)
      return (conduit, nil)
    }
    if let attached {
      subscriber.receive(subscription: attached)
    } else if let completion {
      subscriber.receive(subscription: Subscriptions.empty)
      subscriber.receive(completion: completion)
    }
  }

  /// Sends a value, making it the current value when the subject keeps one.
  @inlinable
  func send(_ value: Output) {
    let first = state.withLock { state -> SubjectState<Output, Failure>.Step in
      guard state.completion == nil else { return .done }
      if state.current != nil { state.current = value }
      return state.start(.value(value))
    }
    deliver(first)
  }

  /// Makes `value` the current value, even after completion, and sends it unless the subject has completed.
  @inlinable
  func setCurrent(_ value: Output) {
    let first = state.withLock { state -> SubjectState<Output, Failure>.Step in
      state.current = value
      guard state.completion == nil else { return .done }
      return state.start(.value(value))
    }
    deliver(first)
  }

  /// Sends the completion; later sends are ignored.
  @inlinable
  func send(completion: Subscribers.Completion<Failure>) {
    let first = state.withLock { state -> SubjectState<Output, Failure>.Step in
      guard state.completion == nil else { return .done }
      state.completion = completion
      return state.start(.completion(completion))
    }
    deliver(first)
  }

  /// Keeps an upstream subscription; requests unlimited values from it if `hasDownstreamDemand` is set.
  @inlinable
  func send(subscription: any Subscription) {
    let demanded = state.withLock { state in
      state.upstreams.append(subscription)
      return state.hasDownstreamDemand
    }
    if demanded { subscription.request(.unlimited) }
  }

  /// Cancels the upstream subscriptions; the subject is going away.
  @inlinable
  func cancelUpstreams() {
    let upstreams = state.withLock { state in
      defer { state.upstreams = [] }
      return state.upstreams
    }
    for upstream in upstreams { upstream.cancel() }
  }

  /// Adds demand for a conduit, delivering a kept value if it was waiting for it.
  ///
  /// The first demand from any subscriber also asks the upstream subscriptions for unlimited values.
  @inlinable
  func request(_ demand: Subscribers.Demand, for conduit: Conduit) {
    var upstreams: [any Subscription] = []
    let first = state.withLock { state -> SubjectState<Output, Failure>.Step in
      guard conduit.phase != .ended, conduit.phase != .cancelledWhileBusy else { return .done }
      conduit.demand += demand
      if !state.hasDownstreamDemand {
        state.hasDownstreamDemand = true
        upstreams = state.upstreams
      }
      guard conduit.latest != nil else { return .done }
      return state.start(.flush(conduit))
    }
    for upstream in upstreams { upstream.request(.unlimited) }
    deliver(first)
  }

  /// Ends a conduit; returns `true` when the caller must release its subscriber.
  @inlinable
  func cancel(_ conduit: Conduit) -> Bool {
    var removed: Conduit?
    let releases = state.withLock { state -> Bool in
      switch conduit.phase {
      case .ended, .cancelledWhileBusy:
        return false
      case .busy:
        conduit.phase = .cancelledWhileBusy
        return false
      case .live:
        conduit.phase = .ended
        removed = state.remove(conduit)
        return true
      }
    }
    // The conduit's kept value, if any, and the subject's reference go here, outside the lock.
    removed?.latest = nil
    return releases
  }

  /// Delivers steps until nothing is left to deliver.
  @inlinable
  func deliver(_ first: SubjectState<Output, Failure>.Step) {
    var step = first
    while true {
      switch step {
      case .done:
        return
      case .value(let conduit, let value):
        let more = conduit._withUnsafeGuaranteedRef { $0.receiveThunk($0, value) }
        var cancelled: Conduit?
        step = state.withLock { $0.delivered(conduit, more: more, value: value, cancelled: &cancelled) }
        cancelled?.releaseDownstream()
      case .completion(let conduits, let completion):
        for conduit in conduits { conduit.complete(completion) }
        step = state.withLock { $0.next() }
      }
    }
  }
}

/// The state behind a subject's lock: its subscribers, its completion, and the delivery in progress.
@usableFromInline
struct SubjectState<Output, Failure: Error> {
  @usableFromInline
  typealias Conduit = SubjectConduitBase<Output, Failure>

  @usableFromInline
  enum Event {
    case value(Output)
    case completion(Subscribers.Completion<Failure>)
    /// A `CurrentValueSubject` conduit got demand while holding a value.
    case flush(Conduit)
  }

  /// What the delivering call does next, outside the lock.
  @usableFromInline
  enum Step {
    case value(Unmanaged<Conduit>, Output)
    case completion(ContiguousArray<Conduit>, Subscribers.Completion<Failure>)
    case done
  }

  @usableFromInline
  var conduits = ContiguousArray<Conduit>()
  @usableFromInline
  var completion: Subscribers.Completion<Failure>?
  /// `CurrentValueSubject`'s value; `nil` for `PassthroughSubject`.
  @usableFromInline
  var current: Output?
  /// Subscriptions the subject received as a subscriber; asked for unlimited values once
  /// `hasDownstreamDemand` is set.
  @usableFromInline
  var upstreams: [any Subscription] = []
  /// Whether upstream subscriptions are asked for values: from the start for `CurrentValueSubject`, from a
  /// subscriber's first demand for `PassthroughSubject`.
  @usableFromInline
  var hasDownstreamDemand = false
  @usableFromInline
  var isSending = false
  /// Conduits ended during a delivery stay in `conduits`, so indexes hold, until the delivery ends.
  @usableFromInline
  var hasEndedConduits = false
  /// The next conduit to offer the value being delivered, and the end of that delivery's conduits.
  @usableFromInline
  var cursor = 0
  @usableFromInline
  var end = 0
  @usableFromInline
  var queue: [Event] = []
  @usableFromInline
  var queueHead = 0

  @inlinable
  init(current: Output?) {
    self.current = current
    // As in Combine, a current value subject asks its upstream subscriptions for values as soon as it gets
    // them; a passthrough subject waits for a subscriber's demand.
    hasDownstreamDemand = current != nil
  }

  /// Starts delivering `event`, or queues it behind the delivery in progress.
  @inlinable
  mutating func start(_ event: Event) -> Step {
    guard !isSending else {
      queue.append(event)
      return .done
    }
    isSending = true
    return begin(event)
  }

  /// Records what a subscriber asked for after a value, and moves on.
  @inlinable
  mutating func delivered(
    _ unmanaged: Unmanaged<Conduit>,
    more: Subscribers.Demand,
    value: Output,
    cancelled: inout Conduit?
  ) -> Step {
    let wasCancelled = unmanaged._withUnsafeGuaranteedRef { conduit -> Bool in
      guard conduit.phase == .busy else {
        conduit.phase = .ended
        return true
      }
      conduit.phase = .live
      if more.rawValue != 0 { conduit.demand += more }
      return false
    }
    if wasCancelled {
      hasEndedConduits = true
      cancelled = unmanaged.takeUnretainedValue()
    }
    return offer(value)
  }

  /// The next event's first step, or `.done` when the queue is empty, which ends the delivering call.
  @inlinable
  mutating func next() -> Step {
    while queueHead < queue.count {
      let event = queue[queueHead]
      queueHead += 1
      let step = begin(event)
      if case .done = step { continue }
      return step
    }
    if queueHead > 0 {
      queue.removeAll(keepingCapacity: queue.count < 64)
      queueHead = 0
    }
    isSending = false
    if hasEndedConduits {
      hasEndedConduits = false
      conduits.removeAll { $0.phase == .ended }
    }
    return .done
  }

  @inlinable
  mutating func begin(_ event: Event) -> Step {
    switch event {
    case .value(let value):
      cursor = 0
      end = conduits.count
      return offer(value)
    case .completion(let completion):
      var ending = ContiguousArray<Conduit>()
      ending.reserveCapacity(conduits.count)
      for conduit in conduits where conduit.phase == .live {
        conduit.phase = .ended
        conduit.latest = nil
        ending.append(conduit)
      }
      conduits = []
      hasEndedConduits = false
      cursor = 0
      end = 0
      return .completion(ending, completion)
    case .flush(let conduit):
      cursor = 0
      end = 0
      guard conduit.phase == .live, conduit.demand > 0, let value = conduit.latest else { return next() }
      conduit.latest = nil
      conduit.demand -= 1
      conduit.phase = .busy
      return .value(Unmanaged.passUnretained(conduit), value)
    }
  }

  /// Offers `value` to the next conduit with demand; one without demand keeps it if the subject keeps values.
  @inlinable
  mutating func offer(_ value: Output) -> Step {
    while cursor < end {
      let conduit = conduits[cursor]
      cursor += 1
      guard conduit.phase == .live else { continue }
      guard conduit.demand > 0 else {
        if current != nil { conduit.latest = value }
        continue
      }
      conduit.demand -= 1
      if current != nil { conduit.latest = nil }
      conduit.phase = .busy
      return .value(Unmanaged.passUnretained(conduit), value)
    }
    return next()
  }

  /// Removes an ended conduit now, or marks it for removal when the delivery in progress ends.
  @inlinable
  mutating func remove(_ conduit: Conduit) -> Conduit? {
    guard !isSending else {
      hasEndedConduits = true
      return nil
    }
    guard let index = conduits.firstIndex(where: { $0 === conduit }) else { return nil }
    return conduits.remove(at: index)
  }
}
