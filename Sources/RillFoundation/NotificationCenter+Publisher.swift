public import Foundation
public import RillCore

extension NotificationCenter {
  /// Returns a publisher that emits events when broadcasting notifications.
  ///
  /// ```
  /// post(name), post(name):   -n-n-
  /// ```
  ///
  /// - Parameters:
  ///   - name: The name of the notification to publish.
  ///   - object: The object posting the named notification. If `nil`, the publisher emits elements for any
  ///     object producing a notification with the given name.
  /// - Returns: A publisher that emits events when broadcasting notifications.
  @inlinable
  public func publisher(for name: Notification.Name, object: AnyObject? = nil) -> NotificationCenter.Publisher {
    Publisher(center: self, name: name, object: object)
  }

  /// A publisher that emits elements when broadcasting notifications.
  ///
  /// ```
  /// post(name), post(name):   -n-n-
  /// ```
  ///
  /// The observer is added at subscription and removed at cancellation; a notification posted while the
  /// subscriber has no demand is dropped. The publisher never completes.
  public struct Publisher: RillCore.Publisher {
    public typealias Output = Notification
    public typealias Failure = Never

    /// The notification center this publisher uses as a source.
    public let center: NotificationCenter

    /// The name of notifications published by this publisher.
    public let name: Notification.Name

    /// The object posting the named notification.
    public let object: AnyObject?

    /// Creates a publisher that emits events when broadcasting notifications.
    public init(center: NotificationCenter, name: Notification.Name, object: AnyObject? = nil) {
      self.center = center
      self.name = name
      self.object = object
    }

    @inlinable
    public func receive<S: Subscriber>(subscriber: S) where S.Input == Notification, S.Failure == Never {
      let subscription = NotificationSubscription(downstream: subscriber, center: center)
      let target = NotificationTarget(subscription)
      let observer = center.addObserver(forName: name, object: object, queue: nil) { note in
        target.post(note)
      }
      subscription.attach(observer)
      subscriber.receive(subscription: subscription)
    }
  }
}

extension NotificationCenter.Publisher: Equatable {
  /// Returns a Boolean value that indicates whether two publishers are equivalent: they observe the same
  /// notification center, for the same name, from the same object.
  ///
  /// - Parameters:
  ///   - lhs: A notification center publisher to compare for equality.
  ///   - rhs: Another notification center publisher to compare for equality.
  /// - Returns: `true` if the two publishers' `center` and `object` properties are the same instances and their
  ///   `name` properties are equal; otherwise `false`.
  public static func == (lhs: NotificationCenter.Publisher, rhs: NotificationCenter.Publisher) -> Bool {
    lhs.center === rhs.center && lhs.name == rhs.name && lhs.object === rhs.object
  }
}

/// What the observer block posts to, without the subscriber's type: the block is `@Sendable`, and may not capture a
/// generic metatype.
@usableFromInline
protocol NotificationPosting: AnyObject, Sendable {
  func post(_ notification: Notification)
}

/// Holds the subscription weakly for the observer block, so the center does not keep the pipeline alive.
// SAFETY: the weak reference is written once, in `init`.
@usableFromInline
final class NotificationTarget: @unchecked Sendable {
  @usableFromInline weak var subscription: (any NotificationPosting)?

  @inlinable
  init(_ subscription: any NotificationPosting) {
    self.subscription = subscription
  }

  @inlinable
  func post(_ notification: Notification) {
    subscription?.post(notification)
  }
}

// SAFETY: all mutable state is in `state`; the downstream and the center are called outside the lock. Posts
// from several threads are serialized: one delivers, the others queue their notification for it.
@usableFromInline
final class NotificationSubscription<Downstream: Subscriber>: Subscription, NotificationPosting,
  CustomStringConvertible, @unchecked Sendable
where Downstream.Input == Notification, Downstream.Failure == Never {
  @usableFromInline
  struct State {
    @usableFromInline var downstream: Downstream?
    @usableFromInline var observer: (any NSObjectProtocol)?
    /// A notification goes only to demand left for it; one that arrives during a delivery waits for it.
    @usableFromInline var buffer = DemandBuffer<Notification, Never>()

    @inlinable
    init(downstream: Downstream? = nil) {
      self.downstream = downstream
    }
  }

  @usableFromInline let state: Locked<State>
  @usableFromInline let center: NotificationCenter
  /// `deliver(_:)`, reached from `post(_:)`, the unspecialised implementation the observer block calls through
  /// `NotificationPosting`: made here, where the subscriber's type is known (a specialised entry, see
  /// WritingAnOperator.md's hot-path idioms).
  @usableFromInline let specialized: (NotificationSubscription, Notification) -> Void

  @inlinable
  init(downstream: Downstream, center: NotificationCenter) {
    state = Locked(State(downstream: downstream))
    self.center = center
    specialized = { $0.deliver($1) }
  }

  @usableFromInline var description: String { "NotificationCenter Observer" }

  @inlinable
  func attach(_ observer: any NSObjectProtocol) {
    state.withLock { $0.observer = observer }
  }

  @usableFromInline
  func post(_ notification: Notification) {
    specialized(self, notification)
  }

  @inlinable
  func deliver(_ notification: Notification) {
    guard let downstream = state.withLock({ $0.buffer.offer(notification) ? $0.downstream : nil }) else { return }
    state.drain(to: downstream, adding: downstream.receive(notification)) { $0.buffer.next(adding: $1) }
  }

  @inlinable
  func request(_ demand: Subscribers.Demand) {
    precondition(demand > 0, "NotificationCenter: a subscriber requested \(demand); demand must be greater than zero")
    guard let downstream = state.withLock({ $0.buffer.request(demand) ? $0.downstream : nil }) else { return }
    state.drain(to: downstream, adding: .none) { $0.buffer.next(adding: $1) }
  }

  @inlinable
  func cancel() {
    // The subscriber and the notifications that waited are released after unlocking.
    let released = state.withLock { ($0.downstream.take(), $0.observer.take(), $0.buffer.end()) }
    if let observer = released.1 {
      center.removeObserver(observer)
    }
  }

  deinit {
    if let observer = state.withLock({ $0.observer }) {
      center.removeObserver(observer)
    }
  }
}
