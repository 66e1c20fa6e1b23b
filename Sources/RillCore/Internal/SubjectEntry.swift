/// Where a subscriber is in its subject's order, with its demand and phase: the fields a delivery reads for every
/// subscriber, kept apart from ``SubjectEntry`` in plain values that cost no reference counting to read.
@usableFromInline
struct SubjectLink {
  /// Where a subscriber is in its life.
  @usableFromInline
  enum Phase: UInt8 {
    /// The slot holds no subscriber.
    case free
    /// Subscribed and not being delivered to.
    case live
    /// The delivering call is inside the subscriber.
    case busy
    /// Cancelled while busy: the delivering call removes the entry when the subscriber returns.
    case cancelledWhileBusy
  }

  /// Tells a subscriber from a later one that reuses its slot; also the subscription order.
  @usableFromInline var id: UInt64
  /// The neighbouring slots in subscription order, or `-1`; a free slot's `next` is the next free slot.
  @usableFromInline var previous: Int
  @usableFromInline var next = -1
  @usableFromInline var demand = Subscribers.Demand.none
  @usableFromInline var phase = Phase.live

  @inlinable
  init(id: UInt64, previous: Int) {
    self.id = id
    self.previous = previous
  }
}

/// What a delivery needs of one subscriber besides its ``SubjectLink``: how to reach it, and its kept value.
@usableFromInline
struct SubjectEntry<Output, Failure: Error> {
  /// For `CurrentValueSubject`: the value to deliver when demand arrives.
  @usableFromInline var latest: Output?
  /// Hands the subscriber a signal.
  @usableFromInline let receiver: SubjectReceiver<Output, Failure>

  @inlinable
  init(latest: Output?, receiver: SubjectReceiver<Output, Failure>) {
    self.latest = latest
    self.receiver = receiver
  }
}

/// What a subject keeps for one subscriber that delivery never reads, apart from ``SubjectEntry``: the `Any`
/// would make each copy of an entry go through the value witnesses of the subscriber's type.
@usableFromInline
struct SubjectRecord<Output, Failure: Error> {
  /// The subscription handed to the subscriber, which records the demand left when the entry leaves the table.
  @usableFromInline let conduit: SubjectConduit<Output, Failure>
  /// The subscriber, for the subscription's mirror.
  @usableFromInline let downstream: Any

  @inlinable
  init(conduit: SubjectConduit<Output, Failure>, downstream: Any) {
    self.conduit = conduit
    self.downstream = downstream
  }
}

/// What a subject hands one of its subscribers: a value, or the completion.
@usableFromInline
enum SubjectSignal<Output, Failure: Error> {
  case value(Output)
  case completion(Subscribers.Completion<Failure>)
}

/// How a subject reaches one subscriber: a closure made where the subscriber's type is known, so that it runs
/// specialised code.
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
