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
  /// For a subject that keeps a current value: the ``SubjectState/generation`` of the current value a request last
  /// handed the subscriber, so that a send still on its way to it does not repeat that value.
  @usableFromInline var currentGeneration: UInt64 = 0

  @inlinable
  init() {}
}
