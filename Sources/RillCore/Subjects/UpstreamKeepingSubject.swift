/// A subject that keeps the upstream subscriptions it is given, to cancel them when it goes, until each one ends.
///
/// ``SubjectSubscriber``, through which `subscribe(_:)` attaches a subject to a publisher, tells the subject when
/// its subscription has completed or been cancelled, so that connecting and cancelling again and again (`share()`,
/// `multicast`) keeps nothing behind. A subject of another kind keeps what it keeps.
@usableFromInline
package protocol UpstreamKeepingSubject: AnyObject {
  /// Forgets `upstream`, a subscription the subject was given that has completed or been cancelled.
  func forget(upstream: AnyObject)
}

extension PassthroughSubject: UpstreamKeepingSubject {
  @usableFromInline
  package func forget(upstream: AnyObject) {
    core.forget(upstream: upstream)
  }
}

extension CurrentValueSubject: UpstreamKeepingSubject {
  @usableFromInline
  package func forget(upstream: AnyObject) {
    core.forget(upstream: upstream)
  }
}

extension PublishedSubject: UpstreamKeepingSubject {
  @usableFromInline
  package func forget(upstream: AnyObject) {
    core.forget(upstream: upstream)
  }
}
