/// How a subject reaches one subscriber: its receiver and its subscription.
///
/// A send copies the table of entries (one reference count) and calls the subscribers from the copy, outside the
/// subject's lock.
@usableFromInline
struct SubjectEntry<Output, Failure: Error> {
  /// Calls the subscriber; `nil` once the subscription has ended.
  @usableFromInline var receiver: SubjectReceiver<Output, Failure>?
  /// The subscription, whose ``SubjectConduit/index`` is this entry's index; `nil` once it has ended.
  @usableFromInline var conduit: SubjectConduit<Output, Failure>?

  @inlinable
  init(receiver: SubjectReceiver<Output, Failure>?, conduit: SubjectConduit<Output, Failure>?) {
    self.receiver = receiver
    self.conduit = conduit
  }
}

/// A subscriber's demand, at the same index as its ``SubjectEntry``: changed in place on every value, so kept
/// apart from the entries that sends copy.
@usableFromInline
struct SubjectDemand {
  @usableFromInline var demand = Subscribers.Demand(rawValue: 0)
  /// For a subject that keeps a current value: the subscriber gets the current value with its next demand, as it
  /// has not had it since it subscribed or since it missed a value for lack of demand.
  @usableFromInline var owesCurrent = true
  /// For a replay subject: a thread is delivering the subscriber's backlog, under its delivery lock.
  ///
  /// A drain that finds it set is nested in that one, which goes on with the demand and values it adds.
  @usableFromInline var isDraining = false
  /// Whether the subscriber has requested values: a replay subject's completion waits for the first request when
  /// values are waiting for it, as CombineExt's does, so a late subscriber gets the replay before the completion.
  @usableFromInline var hasRequested = false

  @inlinable
  init() {}
}

/// The subscribers a send calls next, outside the subject's lock: those of `entries[base..<base + 64]` whose bit
/// is set in `claimed`, each of which had demand for the value, and the replay subscribers whose bit is set in
/// `draining`, whose backlog the value joined while they had demand for it.
///
/// A struct of optionals rather than an enum: copies of a generic enum with payloads go through its value
/// witnesses, with metadata looked up at run time, even in specialised code.
@usableFromInline
struct SubjectStep<Output, Failure: Error> {
  /// The subject's entries when the value was sent; `nil` when no subscriber is left to call.
  @usableFromInline var entries: ContiguousArray<SubjectEntry<Output, Failure>>?
  @usableFromInline var base = 0
  @usableFromInline var claimed: UInt64 = 0
  @usableFromInline var draining: UInt64 = 0

  @inlinable
  init() {}

  @inlinable
  init(entries: ContiguousArray<SubjectEntry<Output, Failure>>, base: Int, claimed: UInt64, draining: UInt64) {
    self.entries = entries
    self.base = base
    self.claimed = claimed
    self.draining = draining
  }

  /// How many entries one step covers: one bit of `claimed` each.
  @inlinable
  static var width: Int { 64 }
}

/// What a subject hands one of its subscribers.
@usableFromInline
enum SubjectSignal<Output, Failure: Error> {
  case value(Output)
  case completion(Subscribers.Completion<Failure>)
  /// Not a call to the subscriber: puts it in the probe, for the subscription's mirror.
  case describe(SubjectProbe)
}

/// Receives a subject's subscriber for its subscription's mirror.
@usableFromInline
final class SubjectProbe {
  @usableFromInline var downstream: Any?

  @inlinable
  init() {}
}

/// How a subject reaches one subscriber: a closure that holds the subscriber's delivery lock around each call.
///
/// It is made where the subscriber's type is known, so that delivery runs specialised code.
///
/// The closure travels in this struct and is called where it is stored: a closure stored in a generic type and
/// read out as a value of a concrete function type is wrapped in a reabstraction thunk, one allocation per read.
@usableFromInline
struct SubjectReceiver<Output, Failure: Error> {
  @usableFromInline let deliver: (SubjectSignal<Output, Failure>) -> Subscribers.Demand

  @inlinable
  init(_ deliver: @escaping (SubjectSignal<Output, Failure>) -> Subscribers.Demand) {
    self.deliver = deliver
  }

  /// Hands the subscriber a signal; returns the demand it adds.
  @inlinable
  func callAsFunction(_ signal: SubjectSignal<Output, Failure>) -> Subscribers.Demand {
    deliver(signal)
  }
}
