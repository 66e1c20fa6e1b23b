extension Collection where Element: SinglePublisher {
  /// Zips this collection's single publishers into one single publisher of an array of their values.
  ///
  /// ```
  /// a:                    --1|
  /// b:                    ----2|
  /// [a, b].zipSingle():   ----['[1,2]'|]
  /// ```
  ///
  /// It complements Combine's `zip`, `Zip3` and `Zip4` with any number of publishers. See
  /// ``TraitPublishers/ZipSingle``.
  ///
  /// - Returns: A single publisher of the values, in the collection's order.
  @inlinable
  public func zipSingle() -> TraitPublishers.ZipSingle<Self> {
    TraitPublishers.ZipSingle(collection: self)
  }
}

extension TraitPublishers {
  /// A single publisher that zips a collection of single publishers and publishes one array of their values.
  ///
  /// ```
  /// a:                  --1|    --^
  /// b:                  ----2|  -----
  /// ZipSingle([a, b]):  ----['[1,2]'|]  --^
  /// ```
  ///
  /// It subscribes to every publisher, publishes the array of their values, in the collection's order, once each
  /// has published, and fails as soon as one fails (cancelling the others). An empty collection publishes an empty
  /// array at once. It requests and buffers as Combine's `zip` does, over all the publishers at once.
  public struct ZipSingle<UpstreamCollection>: SinglePublisher
  where UpstreamCollection: Collection, UpstreamCollection.Element: Publisher {
    public typealias Output = [UpstreamCollection.Element.Output]
    public typealias Failure = UpstreamCollection.Element.Failure

    /// The publishers to zip.
    public let collection: UpstreamCollection

    /// Creates a publisher that zips the publishers of `collection`.
    ///
    /// - Parameter collection: The publishers to zip.
    public init(collection: UpstreamCollection) {
      self.collection = collection
    }

    @inlinable
    public func receive<S>(subscriber: S) where S: Subscriber, S.Input == Output, S.Failure == Failure {
      guard !collection.isEmpty else {
        Just([]).setFailureType(to: Failure.self).receive(subscriber: subscriber)
        return
      }
      collection.zip().receive(subscriber: subscriber)
    }
  }
}

extension TraitPublishers.ZipSingle: Sendable where UpstreamCollection: Sendable {}
