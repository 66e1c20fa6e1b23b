/// What a filtering operator does with one upstream element.
enum FilteringStep<Output, Failure: Error> {
  /// Republish the element and pass downstream's new demand upstream.
  case send(Output)
  /// Drop the element and ask upstream for one more in its place.
  case drop
  /// Republish the element, then cancel upstream and finish.
  case sendAndFinish(Output)
  /// Cancel upstream and finish.
  case finish
  /// Cancel upstream and fail.
  case fail(Failure)
}

/// The shared subscriber and subscription of the filter-like operators (`tryMap`, `tryFilter`, `tryScan`,
/// `removeDuplicates`, `prefix(while:)`, `drop(while:)`, `output(in:)` and their `try` variants).
///
/// Downstream's demand goes straight upstream; each element is handed to `step` together with the operator's
/// per-subscription `Memory`, and the returned `FilteringStep` says what to do. Steps that end the stream
/// cancel upstream before completing downstream.
// SAFETY: all mutable state (the link to upstream and the memory) is in `state`; `step`, upstream and
// downstream are called outside the lock.
final class FilteringInner<Input, UpstreamFailure: Error, Memory, Downstream: Subscriber>: Subscriber, Subscription,
  CustomStringConvertible, CustomReflectable, CustomPlaygroundDisplayConvertible, @unchecked Sendable
{
  typealias Failure = UpstreamFailure

  typealias Step = (inout Memory, Input) -> FilteringStep<Downstream.Input, Downstream.Failure>

  private struct State {
    var link = SubscriptionState.awaitingSubscription
    var memory: Memory
  }

  private let downstream: Downstream

  private let state: Locked<State>

  private let step: Step

  private let convertFailure: (UpstreamFailure) -> Downstream.Failure

  let description: String

  init(
    _ name: String,
    downstream: Downstream,
    memory: Memory,
    convertFailure: @escaping (UpstreamFailure) -> Downstream.Failure,
    step: @escaping Step
  ) {
    description = name
    self.downstream = downstream
    state = Locked(State(memory: memory))
    self.convertFailure = convertFailure
    self.step = step
  }

  var customMirror: Mirror { Mirror(self, children: ["downstream": downstream]) }

  var playgroundDescription: Any { description }

  func receive(subscription: any Subscription) {
    guard state.withLock({ $0.link.subscribe(subscription) }) else {
      subscription.cancel()
      return
    }
    downstream.receive(subscription: self)
  }

  func receive(_ input: Input) -> Subscribers.Demand {
    let current = state.withLock { state -> Memory? in state.link.isSubscribed ? .some(state.memory) : nil }
    guard var memory = current else { return .none }
    let next = step(&memory, input)
    if MemoryLayout<Memory>.size != 0 {
      state.withLock { $0.memory = memory }
    }
    switch next {
    case .send(let output):
      return downstream.receive(output)
    case .drop:
      return .max(1)
    case .sendAndFinish(let output):
      _ = downstream.receive(output)
      end(with: .finished)
    case .finish:
      end(with: .finished)
    case .fail(let error):
      end(with: .failure(error))
    }
    return .none
  }

  func receive(completion: Subscribers.Completion<UpstreamFailure>) {
    guard state.withLock({ $0.link.terminate() }) != nil else { return }
    switch completion {
    case .finished: downstream.receive(completion: .finished)
    case .failure(let error): downstream.receive(completion: .failure(convertFailure(error)))
    }
  }

  func request(_ demand: Subscribers.Demand) {
    precondition(demand > 0, "\(description): a subscriber requested \(demand); demand must be greater than zero")
    state.withLock { $0.link.upstream }?.request(demand)
  }

  func cancel() {
    state.withLock { $0.link.terminate() }?.cancel()
  }

  /// Cancels upstream and completes downstream, unless the link already ended (say, downstream cancelled).
  private func end(with completion: Subscribers.Completion<Downstream.Failure>) {
    guard let upstream = state.withLock({ $0.link.terminate() }) else { return }
    upstream.cancel()
    downstream.receive(completion: completion)
  }
}
