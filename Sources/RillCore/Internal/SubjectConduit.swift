/// What a subject keeps for each subscriber: one subscription with its own demand.
///
/// Delivery to a subscriber is serial without holding a lock across the call: a value offered while another
/// thread (or a re-entrant `send` from inside the subscriber) is delivering is queued and delivered by that
/// delivering call, in order, as soon as the subscriber returns. Values that arrive while the subscriber has
/// no demand are dropped, as Combine drops them; a `CurrentValueSubject` conduit keeps the latest instead and
/// delivers it when demand arrives.
// SAFETY: immutable after init.
@usableFromInline
class SubjectConduitBase<Output, Failure: Error>: @unchecked Sendable {
  /// Offers a value to the concrete conduit without a virtual call.
  ///
  /// It is made where the conduit is created, in client code that knows the subscriber's type, so it runs
  /// specialised code: a virtual call would land in the unspecialised generic implementation, which looks up
  /// generic metadata at run time on every value.
  @usableFromInline
  let offerThunk: (SubjectConduitBase<Output, Failure>, Output) -> Void

  @inlinable
  init(offer: @escaping (SubjectConduitBase<Output, Failure>, Output) -> Void) {
    offerThunk = offer
  }

  @inlinable
  func offer(_ value: Output) { fatalError("abstract") }

  @inlinable
  func finish(_ completion: Subscribers.Completion<Failure>) { fatalError("abstract") }
}

/// The subject side of a conduit: removes a cancelled conduit from the subject's list.
@usableFromInline
protocol SubjectConduitParent<Output, Failure>: AnyObject, Sendable {
  associatedtype Output
  associatedtype Failure: Error
  func disassociate(_ conduit: SubjectConduitBase<Output, Failure>)
}

// SAFETY: all mutable state is in `state`; the downstream is called outside the lock, one call at a time.
@usableFromInline
final class SubjectConduit<Downstream: Subscriber>: SubjectConduitBase<Downstream.Input, Downstream.Failure>,
  Subscription, CustomStringConvertible, CustomReflectable, CustomPlaygroundDisplayConvertible, @unchecked Sendable
{
  @usableFromInline
  typealias Output = Downstream.Input

  @usableFromInline
  typealias Failure = Downstream.Failure

  @usableFromInline
  struct State {
    @usableFromInline
    var downstream: Downstream?
    @usableFromInline
    var parent: (any SubjectConduitParent<Output, Failure>)?
    @usableFromInline
    var demand = Subscribers.Demand.none
    @usableFromInline
    var isDelivering = false
    @usableFromInline
    var pending: [Output] = []
    @usableFromInline
    var pendingHead = 0
    @usableFromInline
    var pendingCompletion: Subscribers.Completion<Failure>?
    /// For `CurrentValueSubject`: the value to deliver when demand arrives.
    @usableFromInline
    var latest: Output?

    @inlinable
    init(downstream: Downstream, parent: any SubjectConduitParent<Output, Failure>, latest: Output?) {
      self.downstream = downstream
      self.parent = parent
      self.latest = latest
    }

    /// The next value to deliver, if demand allows, consuming queued values in order.
    ///
    /// Values that find no demand are dropped, or become the latest value when the subject keeps one.
    @inlinable
    mutating func nextValue(keepsLatest: Bool) -> Output? {
      while pendingHead < pending.count {
        let value = pending[pendingHead]
        pendingHead += 1
        if demand > 0 {
          demand -= 1
          return value
        }
        if keepsLatest { latest = value }
      }
      if pendingHead > 0 {
        pending.removeAll(keepingCapacity: true)
        pendingHead = 0
      }
      if keepsLatest, demand > 0, let value = latest {
        latest = nil
        demand -= 1
        return value
      }
      return nil
    }

    /// Ends the conduit; returns what must be released outside the lock.
    @inlinable
    mutating func terminate() -> (Downstream?, (any SubjectConduitParent<Output, Failure>)?) {
      defer {
        downstream = nil
        parent = nil
        latest = nil
        pending = []
        pendingHead = 0
        isDelivering = false
      }
      return (downstream, parent)
    }
  }

  @usableFromInline
  enum Step {
    case deliver(Output)
    case complete(Downstream, Subscribers.Completion<Failure>)
    case stop
  }

  @usableFromInline
  let state: Locked<State>

  @usableFromInline
  let keepsLatest: Bool

  @usableFromInline
  let name: String

  @inlinable
  init(
    parent: any SubjectConduitParent<Output, Failure>,
    downstream: Downstream,
    latest: Output?,
    keepsLatest: Bool,
    name: String
  ) {
    state = Locked(State(downstream: downstream, parent: parent, latest: latest))
    self.keepsLatest = keepsLatest
    self.name = name
    super.init { conduit, value in unsafeDowncast(conduit, to: SubjectConduit<Downstream>.self).offer(value) }
  }

  @usableFromInline
  var description: String { name }

  @usableFromInline
  var customMirror: Mirror {
    let demand = state.withLock { $0.demand }
    return Mirror(self, children: ["downstream": state.withLock { $0.downstream } as Any, "demand": demand])
  }

  @usableFromInline
  var playgroundDescription: Any { description }

  @inlinable
  override func offer(_ value: Output) {
    let downstream = state.withLock { state -> Downstream? in
      guard state.downstream != nil, state.pendingCompletion == nil else { return nil }
      if state.isDelivering {
        state.pending.append(value)
        return nil
      }
      guard state.demand > 0 else {
        if keepsLatest { state.latest = value }
        return nil
      }
      state.demand -= 1
      state.isDelivering = true
      return state.downstream
    }
    if let downstream {
      drain(downstream, startingWith: value)
    }
  }

  /// Delivers `value`, then whatever was queued meanwhile, then a queued completion.
  @inlinable
  func drain(_ downstream: Downstream, startingWith value: Output) {
    var value = value
    while true {
      let more = downstream.receive(value)
      let step = state.withLock { state -> Step in
        guard state.downstream != nil else { return .stop }
        state.demand += more
        if let next = state.nextValue(keepsLatest: keepsLatest) {
          return .deliver(next)
        }
        state.isDelivering = false
        if let completion = state.pendingCompletion, let downstream = state.terminate().0 {
          return .complete(downstream, completion)
        }
        return .stop
      }
      switch step {
      case .deliver(let next):
        value = next
      case .complete(let downstream, let completion):
        downstream.receive(completion: completion)
        return
      case .stop:
        return
      }
    }
  }

  @inlinable
  override func finish(_ completion: Subscribers.Completion<Failure>) {
    let released = state.withLock { state -> (Downstream?, (any SubjectConduitParent<Output, Failure>)?)? in
      guard state.downstream != nil, state.pendingCompletion == nil else { return nil }
      if state.isDelivering {
        state.pendingCompletion = completion
        return nil
      }
      return state.terminate()
    }
    released?.0?.receive(completion: completion)
  }

  @inlinable
  func request(_ demand: Subscribers.Demand) {
    precondition(demand > 0, "\(name): a subscriber requested \(demand); demand must be greater than zero")
    let start = state.withLock { state -> (Downstream, Output)? in
      guard let downstream = state.downstream else { return nil }
      state.demand += demand
      guard !state.isDelivering, let value = state.nextValue(keepsLatest: keepsLatest) else { return nil }
      state.isDelivering = true
      return (downstream, value)
    }
    if let (downstream, value) = start {
      drain(downstream, startingWith: value)
    }
  }

  @inlinable
  func cancel() {
    let (downstream, parent) = state.withLock { $0.terminate() }
    parent?.disassociate(self)
    _ = downstream
  }
}
