/// What a selecting operator (`first`, `last` and their `where` variants) does after looking at one element.
enum SelectionStep<Failure: Error> {
  /// Keep asking upstream for elements.
  case proceed
  /// The selection is complete: cancel upstream and deliver the selected element.
  case finish
  /// Cancel upstream and fail.
  case fail(Failure)
}

/// The shared subscriber and subscription of `first()`, `first(where:)`, `tryFirst(where:)`, `last()`,
/// `last(where:)` and `tryLast(where:)`.
///
/// As in Combine, it asks upstream for unlimited elements as soon as it is subscribed, whatever downstream
/// requests; it delivers the selected element (if any) and `.finished` once upstream is done or the selection is
/// complete, and downstream has requested something.
// SAFETY: all mutable state is in `state`; `select`, upstream and downstream are called outside the lock.
final class SelectionInner<Input, UpstreamFailure: Error, Downstream: Subscriber>: Subscriber, Subscription,
  CustomStringConvertible, CustomReflectable, CustomPlaygroundDisplayConvertible, @unchecked Sendable
where Downstream.Input == Input {
  typealias Failure = UpstreamFailure

  typealias Select = (inout Input?, Input) -> SelectionStep<Downstream.Failure>

  private struct State {
    var link = SubscriptionState.awaitingSubscription
    var selected: Input?
    var isDemanded = false
    var isAwaitingDemand = false
    var isCancelled = false

    /// Marks the selection complete; returns the delivery to make now, if downstream already asked for it.
    mutating func complete() -> Input?? {
      guard isDemanded else {
        isAwaitingDemand = true
        return nil
      }
      defer { selected = nil }
      return .some(selected)
    }
  }

  private let downstream: Downstream

  private let state = Locked(State())

  private let select: Select

  private let convertFailure: (UpstreamFailure) -> Downstream.Failure

  let description: String

  init(
    _ name: String,
    downstream: Downstream,
    convertFailure: @escaping (UpstreamFailure) -> Downstream.Failure,
    select: @escaping Select
  ) {
    description = name
    self.downstream = downstream
    self.convertFailure = convertFailure
    self.select = select
  }

  var customMirror: Mirror {
    Mirror(self, children: ["downstream": downstream, "result": state.withLock { $0.selected } as Any])
  }

  var playgroundDescription: Any { description }

  func receive(subscription: any Subscription) {
    guard state.withLock({ $0.link.subscribe(subscription) }) else {
      subscription.cancel()
      return
    }
    downstream.receive(subscription: self)
    state.withLock { $0.link.upstream }?.request(.unlimited)
  }

  func receive(_ input: Input) -> Subscribers.Demand {
    let current = state.withLock { state -> Input?? in state.link.upstream == nil ? nil : .some(state.selected) }
    guard var selected = current else { return .none }
    switch select(&selected, input) {
    case .proceed:
      state.withLock { $0.selected = selected }
    case .finish:
      let (upstream, delivery) = state.withLock { state -> ((any Subscription)?, Input??) in
        state.selected = selected
        guard let upstream = state.link.terminate() else { return (nil, nil) }
        return (upstream, state.complete())
      }
      upstream?.cancel()
      if let delivery { deliver(delivery) }
    case .fail(let error):
      guard let upstream = state.withLock({ $0.link.terminate() }) else { return .none }
      upstream.cancel()
      downstream.receive(completion: .failure(error))
    }
    return .none
  }

  func receive(completion: Subscribers.Completion<UpstreamFailure>) {
    switch completion {
    case .finished:
      let delivery = state.withLock { state -> Input?? in
        guard state.link.terminate() != nil else { return nil }
        return state.complete()
      }
      if let delivery { deliver(delivery) }
    case .failure(let error):
      guard state.withLock({ $0.link.terminate() }) != nil else { return }
      downstream.receive(completion: .failure(convertFailure(error)))
    }
  }

  func request(_ demand: Subscribers.Demand) {
    precondition(demand > 0, "\(description): a subscriber requested \(demand); demand must be greater than zero")
    let delivery = state.withLock { state -> Input?? in
      guard !state.isDemanded, !state.isCancelled else { return nil }
      state.isDemanded = true
      guard state.isAwaitingDemand else { return nil }
      state.isAwaitingDemand = false
      defer { state.selected = nil }
      return .some(state.selected)
    }
    if let delivery { deliver(delivery) }
  }

  func cancel() {
    let upstream = state.withLock { state -> (any Subscription)? in
      state.isCancelled = true
      state.isAwaitingDemand = false
      state.selected = nil
      return state.link.terminate()
    }
    upstream?.cancel()
  }

  private func deliver(_ selected: Input?) {
    if let selected { _ = downstream.receive(selected) }
    downstream.receive(completion: .finished)
  }
}
