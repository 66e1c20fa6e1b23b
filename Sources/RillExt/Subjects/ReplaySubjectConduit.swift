/// What a ``ReplaySubject`` keeps for one subscriber outside the subject's lock: the subscriber, and how to call it.
///
/// The subscriber's queue, demand and delivery state live in the subject's state, behind its lock; the subscriber
/// itself sits behind the conduit's own lock, which is held only to read it or let it go, never while calling it.
// SAFETY: `id` and `receiveThunk` are immutable; the concrete conduit's mutable state is in a `Locked`.
@usableFromInline
class ReplaySubjectConduitBase<Output, Failure: Error>: @unchecked Sendable {
  /// The subscriber's place in the subject's state; ids increase in the order subscribers arrive.
  @usableFromInline
  let id: Int

  /// Delivers a value to the concrete conduit's subscriber.
  ///
  /// It is made where the conduit is created, in client code that knows the subscriber's type, so it runs
  /// specialised code; a virtual call would land in the unspecialised generic implementation, which looks up generic
  /// metadata at run time on every value. It is called where it is stored, never copied out.
  @usableFromInline
  let receiveThunk: (Output) -> Subscribers.Demand

  @inlinable
  init(id: Int, receive: @escaping (Output) -> Subscribers.Demand) {
    self.id = id
    receiveThunk = receive
  }

  /// Delivers a value; called by the thread delivering to this subscriber.
  @inlinable
  final func receive(_ value: Output) -> Subscribers.Demand {
    receiveThunk(value)
  }

  /// Delivers the completion and lets go of the subscriber; called by the thread that removed it.
  @usableFromInline
  func complete(_ completion: Subscribers.Completion<Failure>) {
    fatalError("ReplaySubjectConduitBase is abstract")
  }

  /// Lets go of the subscriber; called by the thread that removed it.
  @usableFromInline
  func releaseDownstream() {
    fatalError("ReplaySubjectConduitBase is abstract")
  }
}

/// The subscription a ``ReplaySubject`` gives one subscriber; it keeps the subject alive until cancelled.
// SAFETY: see `ReplaySubjectConduitBase`.
@usableFromInline
final class ReplaySubjectConduit<Downstream: Subscriber>: ReplaySubjectConduitBase<
  Downstream.Input, Downstream.Failure
>, Subscription, CustomStringConvertible, @unchecked Sendable
{
  @usableFromInline
  let subject: ReplaySubject<Downstream.Input, Downstream.Failure>

  /// The subscriber, until the conduit completes or is cancelled; this breaks the cycle with a subscriber that
  /// keeps its subscription.
  @usableFromInline
  let downstream: Locked<Downstream?>

  @inlinable
  init(subject: ReplaySubject<Downstream.Input, Downstream.Failure>, id: Int, downstream: Downstream) {
    let held = Locked<Downstream?>(downstream)
    self.subject = subject
    self.downstream = held
    super.init(id: id) { value in
      held.withLock { $0 }?.receive(value) ?? .none
    }
  }

  @usableFromInline
  var description: String { "ReplaySubject" }

  @usableFromInline
  override func complete(_ completion: Subscribers.Completion<Downstream.Failure>) {
    downstream.withLock { $0.take() }?.receive(completion: completion)
  }

  @usableFromInline
  override func releaseDownstream() {
    let released = downstream.withLock { $0.take() }
    withExtendedLifetime(released) {}
  }

  @inlinable
  func request(_ demand: Subscribers.Demand) {
    subject.entryPoints.request(subject, demand, id)
  }

  @usableFromInline
  func cancel() {
    subject.cancel(self)
  }
}
