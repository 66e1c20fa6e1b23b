// A subject's table of subscribers, in two columns at the same index: a `SubjectEntry` and a `SubjectDemand` each.

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
