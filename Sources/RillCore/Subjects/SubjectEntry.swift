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

  /// Hands the subscriber a signal, if its subscription has not ended; returns the demand it adds, or `nil` if it has
  /// ended.
  ///
  /// Called on an entry in place (`entries[index].receive(signal)`), so that the receiver and the conduit are used
  /// where they are stored, without a reference count each.
  @inlinable
  func receive(_ signal: SubjectSignal<Output, Failure>) -> Subscribers.Demand? {
    receiver?(conduit, signal)
  }
}
