/// The state machine shared by `PassthroughSubject` and `CurrentValueSubject`.
///
/// Sends are serialised at the subject: while one send is delivering (on any thread, or re-entrantly from a
/// subscriber), later sends are queued and delivered by the sending call, in order, once it has offered its
/// value to every subscriber. So every subscriber sees the values in the order they were sent, and no lock is
/// held while subscribers run.
@usableFromInline
struct SubjectState<Output, Failure: Error> {
  @usableFromInline
  typealias Conduit = SubjectConduitBase<Output, Failure>

  @usableFromInline
  enum Event {
    case value(Output)
    case completion(Subscribers.Completion<Failure>)
  }

  /// What the caller delivers after unlocking.
  @usableFromInline
  enum Delivery {
    case value(Output, [Conduit])
    case completion(Subscribers.Completion<Failure>, [Conduit])

    /// Offers this delivery to its conduits.
    @inlinable
    func perform() {
      switch self {
      case .value(let value, let conduits):
        for conduit in conduits { conduit.offerThunk(conduit, value) }
      case .completion(let completion, let conduits):
        for conduit in conduits { conduit.finish(completion) }
      }
    }
  }

  @usableFromInline
  var conduits: [Conduit] = []
  @usableFromInline
  var completion: Subscribers.Completion<Failure>?
  @usableFromInline
  var isSending = false
  @usableFromInline
  var queue: [Event] = []
  @usableFromInline
  var queueHead = 0

  /// Accepts a value; returns the delivery to perform now, or `nil` if it was queued or the subject has ended.
  @inlinable
  mutating func send(_ value: Output) -> Delivery? {
    guard completion == nil else { return nil }
    guard !isSending else {
      queue.append(.value(value))
      return nil
    }
    isSending = true
    return .value(value, conduits)
  }

  /// Accepts the completion; returns the delivery to perform now, or `nil` if it was queued or the subject has
  /// already ended.
  @inlinable
  mutating func send(completion: Subscribers.Completion<Failure>) -> Delivery? {
    guard self.completion == nil else { return nil }
    self.completion = completion
    guard !isSending else {
      queue.append(.completion(completion))
      return nil
    }
    isSending = true
    return takeCompletion(completion)
  }

  /// The next queued delivery; `nil` ends the sending call.
  @inlinable
  mutating func next() -> Delivery? {
    guard queueHead < queue.count else {
      queue.removeAll(keepingCapacity: queue.count < 64)
      queueHead = 0
      isSending = false
      return nil
    }
    let event = queue[queueHead]
    queueHead += 1
    switch event {
    case .value(let value):
      return .value(value, conduits)
    case .completion(let completion):
      return takeCompletion(completion)
    }
  }

  /// Adds a subscriber's conduit unless the subject has ended; returns the completion if it has.
  @inlinable
  mutating func attach(_ conduit: Conduit) -> Subscribers.Completion<Failure>? {
    if completion == nil { conduits.append(conduit) }
    return completion
  }

  /// Removes a cancelled conduit; returns it so it is released outside the lock.
  @inlinable
  mutating func detach(_ conduit: Conduit) -> Conduit? {
    guard let index = conduits.firstIndex(where: { $0 === conduit }) else { return nil }
    return conduits.remove(at: index)
  }

  @inlinable
  mutating func takeCompletion(_ completion: Subscribers.Completion<Failure>) -> Delivery {
    defer { conduits = [] }
    return .completion(completion, conduits)
  }
}
