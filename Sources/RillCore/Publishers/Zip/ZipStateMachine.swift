/// The state of one `zip` or `combineLatest` subscription over a fixed number of upstreams.
///
/// Upstream values are kept type-erased per upstream and turned into a downstream value by `combine`. `zip`
/// queues every value and emits when each upstream has one queued, finishing as soon as an upstream has
/// finished with its queue empty; `combineLatest` keeps the latest value of each upstream, emits when each has
/// one and downstream has demand, and finishes when every upstream has finished. Either fails as soon as one
/// upstream fails. Downstream demand is passed to every upstream. Downstream is called by one thread at a time:
/// a value produced while another thread delivers is queued, and that thread (the drainer) delivers it.
struct ZipStateMachine<Value, Failure: Error> {
  enum Mode {
    case zip
    case combineLatest
  }

  private let mode: Mode
  private let combine: ([Any]) -> Value
  private var subscriptions: [(any Subscription)?]
  private var isFinished: [Bool]
  private var queues: [[Any]]
  private var demand = Subscribers.Demand.none
  private var requested = Subscribers.Demand.none
  private var isDelivering = false
  private var outputs: [Value] = []
  private var pendingCompletion: Subscribers.Completion<Failure>?
  private var isTerminated = false

  init(mode: Mode, count: Int, combine: @escaping ([Any]) -> Value) {
    self.mode = mode
    self.combine = combine
    subscriptions = Array(repeating: nil, count: count)
    isFinished = Array(repeating: false, count: count)
    queues = Array(repeating: [], count: count)
  }

  enum SubscriptionAction {
    case request(any Subscription, Subscribers.Demand)
    case cancel(any Subscription)
    case none
  }

  mutating func subscribed(_ index: Int, _ subscription: any Subscription) -> SubscriptionAction {
    guard !isTerminated, subscriptions[index] == nil, !isFinished[index] else { return .cancel(subscription) }
    subscriptions[index] = subscription
    return requested > 0 ? .request(subscription, requested) : .none
  }

  enum DrainStep {
    case deliver(Value)
    case complete(Subscribers.Completion<Failure>, cancelling: [any Subscription])
    /// Cancel these upstreams; the drainer sends the completion.
    case cancel([any Subscription])
    case idle
  }

  /// A value from upstream `index`; `.deliver` makes the caller the drainer.
  mutating func received(_ index: Int, _ value: Any) -> DrainStep {
    guard !isTerminated, pendingCompletion == nil, !isFinished[index] else { return .idle }
    let output: Value
    switch mode {
    case .zip:
      queues[index].append(value)
      guard queues.allSatisfy({ !$0.isEmpty }) else { return .idle }
      output = combine(queues.indices.map { queues[$0].removeFirst() })
      demand -= 1
      if zipIsExhausted() { pendingCompletion = .finished }
    case .combineLatest:
      queues[index] = [value]
      guard demand > 0, queues.allSatisfy({ !$0.isEmpty }) else { return .idle }
      output = combine(queues.map { $0[0] })
      demand -= 1
    }
    guard !isDelivering else {
      outputs.append(output)
      return .idle
    }
    isDelivering = true
    return .deliver(output)
  }

  mutating func completed(_ index: Int, _ completion: Subscribers.Completion<Failure>) -> DrainStep {
    guard !isTerminated, pendingCompletion == nil, !isFinished[index] else { return .idle }
    isFinished[index] = true
    subscriptions[index] = nil
    switch completion {
    case .failure:
      outputs.removeAll()
      pendingCompletion = completion
      if isDelivering {
        defer { subscriptions = subscriptions.map { _ in nil } }
        return .cancel(subscriptions.compactMap { $0 })
      }
    case .finished:
      switch mode {
      case .zip: if queues[index].isEmpty { pendingCompletion = .finished }
      case .combineLatest: if isFinished.allSatisfy({ $0 }) { pendingCompletion = .finished }
      }
    }
    guard pendingCompletion != nil, !isDelivering else { return .idle }
    return takeCompletion()
  }

  /// Adds downstream demand; returns the upstreams to pass it to.
  mutating func request(_ more: Subscribers.Demand) -> [any Subscription] {
    guard !isTerminated, pendingCompletion == nil else { return [] }
    demand += more
    requested += more
    return subscriptions.compactMap { $0 }
  }

  /// Records that the drainer delivered a value and downstream asked for `additional` more; returns the next
  /// step and the upstreams (by index) to pass `additional` to.
  mutating func delivered(_ additional: Subscribers.Demand) -> (DrainStep, forward: [(Int, any Subscription)]) {
    var forward: [(Int, any Subscription)] = []
    if additional > 0, !isTerminated, pendingCompletion == nil {
      demand += additional
      requested += additional
      forward = subscriptions.indices.compactMap { index in subscriptions[index].map { (index, $0) } }
    }
    if !outputs.isEmpty, !isTerminated {
      return (.deliver(outputs.removeFirst()), forward)
    }
    isDelivering = false
    guard pendingCompletion != nil, !isTerminated else { return (.idle, forward) }
    return (takeCompletion(), forward)
  }

  /// Terminates on downstream's cancel; returns the subscriptions to cancel.
  mutating func cancel() -> [any Subscription] {
    guard !isTerminated else { return [] }
    isTerminated = true
    defer { release() }
    return subscriptions.compactMap { $0 }
  }

  private func zipIsExhausted() -> Bool {
    queues.indices.contains { isFinished[$0] && queues[$0].isEmpty }
  }

  private mutating func takeCompletion() -> DrainStep {
    guard let completion = pendingCompletion else { return .idle }
    isTerminated = true
    pendingCompletion = nil
    let cancelling = subscriptions.compactMap { $0 }
    release()
    return .complete(completion, cancelling: cancelling)
  }

  private mutating func release() {
    subscriptions = subscriptions.map { _ in nil }
    queues = queues.map { _ in [] }
    outputs.removeAll()
  }
}
