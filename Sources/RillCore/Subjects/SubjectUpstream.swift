/// An upstream subscription a subject keeps, to ask it for values and to cancel it when the subject goes.
///
/// A subscription that is an object is known by its identity, so that the subject forgets it once it has completed
/// or been cancelled (``UpstreamKeepingSubject``); one that is a value is kept for as long as the subject.
@usableFromInline
struct SubjectUpstream {
  @usableFromInline let subscription: any Subscription
  /// The subscription's identity, if it is an object.
  @usableFromInline let identity: ObjectIdentifier?

  @inlinable
  init(_ subscription: any Subscription) {
    self.subscription = subscription
    identity = type(of: subscription) is AnyClass ? ObjectIdentifier(subscription as AnyObject) : nil
  }
}
