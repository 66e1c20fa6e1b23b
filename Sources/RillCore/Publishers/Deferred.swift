/// A publisher that awaits subscription before running the supplied closure to create a publisher for the new
/// subscriber.
///
/// Each subscription calls the closure again, so each subscriber gets a fresh publisher.
public struct Deferred<DeferredPublisher: Publisher>: Publisher {
  public typealias Output = DeferredPublisher.Output
  public typealias Failure = DeferredPublisher.Failure

  /// The closure to execute when this deferred publisher receives a subscription.
  public let createPublisher: () -> DeferredPublisher

  /// Creates a deferred publisher.
  public init(createPublisher: @escaping () -> DeferredPublisher) {
    self.createPublisher = createPublisher
  }

  @inlinable
  public func receive<S: Subscriber>(subscriber: S) where Output == S.Input, Failure == S.Failure {
    createPublisher().subscribe(subscriber)
  }
}
