/// What a subject keeps for each subscriber: the subscriber, its demand and its place in delivery.
///
/// A conduit has no lock of its own. Its fields are guarded by its subject's lock (``SubjectCore``), except the
/// downstream subscriber, which only one thread touches at a time: the subject's delivering call while the
/// conduit is ``Phase/busy``, or, once the conduit has ended, the call that ended it. A cancel that arrives while
/// the conduit is busy marks it, and the delivering call releases the subscriber when it returns.
// SAFETY: the mutable fields are guarded by the subject's lock, or owned by one thread as described above.
@usableFromInline
class SubjectConduitBase<Output, Failure: Error>: SubjectConduitLatest<Output?>, @unchecked Sendable {
  /// Where a conduit is in its life.
  @usableFromInline
  enum Phase {
    /// Subscribed and not being delivered to.
    case live
    /// The subject's delivering call is inside the subscriber.
    case busy
    /// Cancelled while busy: the delivering call releases the subscriber when it returns.
    case cancelledWhileBusy
    /// Cancelled or completed; the subject drops it.
    case ended
  }

  @usableFromInline @exclusivity(unchecked)
  final var demand = Subscribers.Demand.none

  @usableFromInline @exclusivity(unchecked)
  final var phase = Phase.live

  /// Delivers a value to the concrete conduit's subscriber without a virtual call.
  ///
  /// It is made where the conduit is created, in client code that knows the subscriber's type, so it runs
  /// specialised code: a virtual call would land in the unspecialised generic implementation, which looks up
  /// generic metadata at run time on every value.
  @usableFromInline
  let receiveThunk: (SubjectConduitBase<Output, Failure>, Output) -> Subscribers.Demand

  /// Runs the concrete conduit's `cancelNow` in specialised code; `cancel` arrives through `any Subscription` or
  /// `any Cancellable`, which lands in the unspecialised generic implementation.
  @usableFromInline
  let cancelThunk: (SubjectConduitBase<Output, Failure>) -> Void

  @inlinable
  init(
    latest: Output?,
    receive: @escaping (SubjectConduitBase<Output, Failure>, Output) -> Subscribers.Demand,
    cancel: @escaping (SubjectConduitBase<Output, Failure>) -> Void
  ) {
    receiveThunk = receive
    cancelThunk = cancel
    super.init(latest: latest)
  }

  /// Delivers the completion and releases the subscriber; called by the thread that ended the conduit.
  @inlinable
  func complete(_ completion: Subscribers.Completion<Failure>) { fatalError("abstract") }

  /// Releases the subscriber; called by the thread that ended the conduit.
  @inlinable
  func releaseDownstream() { fatalError("abstract") }
}

// SAFETY: see `SubjectConduitBase`; `held` is only touched by the thread that owns the subscriber at the time.
@usableFromInline
final class SubjectConduit<Downstream: Subscriber>: SubjectConduitBase<Downstream.Input, Downstream.Failure>,
  Subscription, CustomStringConvertible, CustomReflectable, CustomPlaygroundDisplayConvertible, @unchecked Sendable
{
  @usableFromInline
  typealias Output = Downstream.Input

  @usableFromInline
  typealias Failure = Downstream.Failure

  @usableFromInline
  let core: SubjectCore<Output, Failure>

  /// The subscriber, retained, reached so that a value costs no retain and release.
  ///
  /// Reading a subscriber out of a `var` before calling it costs a retain and a release, two atomic operations per
  /// value; calling through an object kept alive for the call costs none. A `Sink` is such an object itself and
  /// is held directly; any other subscriber is held through an immutable box (``SubjectHeldSubscriber``). Either
  /// is released when the conduit ends, which breaks the cycle with a subscriber that keeps its subscription.
  @usableFromInline @exclusivity(unchecked)
  var held: UnsafeMutableRawPointer?

  /// Whether `held` is the subscriber itself (a `Sink`) rather than a box around it.
  @usableFromInline
  let holdsSubscriberItself: Bool

  @inlinable
  init(core: SubjectCore<Output, Failure>, downstream: Downstream, latest: Output?) {
    typealias Sink = Subscribers.Sink<Output, Failure>
    self.core = core
    let receive: (SubjectConduitBase<Output, Failure>, Output) -> Subscribers.Demand
    if let sink = downstream as? Sink {
      held = Unmanaged.passRetained(sink).toOpaque()
      holdsSubscriberItself = true
      receive = { conduit, value in
        Unmanaged<Sink>.fromOpaque(unsafeDowncast(conduit, to: SubjectConduit<Downstream>.self).held.unsafelyUnwrapped)
          ._withUnsafeGuaranteedRef { $0.receive(value) }
      }
    } else {
      held = Unmanaged.passRetained(SubjectHeldSubscriber(downstream)).toOpaque()
      holdsSubscriberItself = false
      receive = { conduit, value in
        Unmanaged<SubjectHeldSubscriber<Downstream>>
          .fromOpaque(unsafeDowncast(conduit, to: SubjectConduit<Downstream>.self).held.unsafelyUnwrapped)
          ._withUnsafeGuaranteedRef { $0.subscriber.receive(value) }
      }
    }
    super.init(
      latest: latest,
      receive: receive,
      cancel: { unsafeDowncast($0, to: SubjectConduit<Downstream>.self).cancelNow() }
    )
  }

  @inlinable
  deinit {
    // Released as `AnyObject`: naming a generic type here would look up its metadata at run time.
    if let held { Unmanaged<AnyObject>.fromOpaque(held).release() }
  }

  /// The subscriber `held` keeps, at +0.
  @inlinable
  func subscriber(in held: UnsafeMutableRawPointer) -> Downstream {
    if holdsSubscriberItself {
      // Cold paths only (completion, release, reflection): the cast is checked once per call.
      return Unmanaged<AnyObject>.fromOpaque(held).takeUnretainedValue() as! Downstream
    }
    return Unmanaged<SubjectHeldSubscriber<Downstream>>.fromOpaque(held).takeUnretainedValue().subscriber
  }

  /// Hands out the subscriber and lets go of it; `nil` once released.
  @inlinable
  func takeDownstream() -> Downstream? {
    guard let held else { return nil }
    self.held = nil
    defer { Unmanaged<AnyObject>.fromOpaque(held).release() }
    return subscriber(in: held)
  }

  @usableFromInline
  var description: String { core.name }

  /// As in Combine: the subject twice (as `parent` and `subject`), the subscriber and the demand left; the subject
  /// and the subscriber are `nil` once the subscription has ended.
  @usableFromInline
  var customMirror: Mirror {
    let (demand, isLive) = core.state.withLock { _ in (self.demand, self.phase == .live || self.phase == .busy) }
    let subject = isLive ? core.subject : nil
    let downstream = held.map(subscriber(in:))
    return Mirror(
      self,
      children: [
        "parent": subject as Any, "downstream": downstream as Any, "demand": demand, "subject": subject as Any,
      ]
    )
  }

  @usableFromInline
  var playgroundDescription: Any { description }

  @inlinable
  override func complete(_ completion: Subscribers.Completion<Failure>) {
    takeDownstream()?.receive(completion: completion)
  }

  @inlinable
  override func releaseDownstream() {
    _ = takeDownstream()
  }

  @inlinable
  func request(_ demand: Subscribers.Demand) {
    precondition(demand > 0, "\(core.name): a subscriber requested \(demand); demand must be greater than zero")
    core.request(demand, for: self)
  }

  @inlinable
  func cancel() {
    cancelThunk(self)
  }

  @inlinable
  func cancelNow() {
    if core.cancel(self) {
      releaseDownstream()
    }
  }
}

/// A subject's subscriber in an immutable box, so that delivery can borrow it (see ``SubjectConduit/held``).
@usableFromInline
final class SubjectHeldSubscriber<Downstream> {
  @usableFromInline
  let subscriber: Downstream

  @inlinable
  init(_ subscriber: Downstream) {
    self.subscriber = subscriber
  }
}

/// A conduit's kept value, in a class whose generic parameter is the field's whole type.
///
/// A generic class's deinitialiser always runs unspecialised. Declared in `SubjectConduitBase` as `Output?`, the
/// field would make it look up `Optional<Output>`'s metadata at run time for every conduit freed; here the
/// metadata is the class's own generic argument.
// SAFETY: `latest` is guarded by the subject's lock, as the conduit's other fields.
@usableFromInline
class SubjectConduitLatest<Latest>: @unchecked Sendable {
  /// For `CurrentValueSubject`: the value to deliver when demand arrives.
  @usableFromInline @exclusivity(unchecked)
  final var latest: Latest

  @inlinable
  init(latest: Latest) {
    self.latest = latest
  }
}
