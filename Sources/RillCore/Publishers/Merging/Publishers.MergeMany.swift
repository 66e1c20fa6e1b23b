extension Publisher {
  /// Combines elements from this publisher with those from another publisher of the same type, delivering an
  /// interleaved sequence of elements.
  ///
  /// ```
  /// upstream: -1-3-|
  /// other:    --2--4|
  /// merge:    -123-4|
  /// ```
  ///
  /// - Parameter other: Another publisher of this publisher's type.
  /// - Returns: A publisher that emits an event when either upstream publisher emits an event.
  @inlinable
  public func merge(with other: Self) -> Publishers.MergeMany<Self> {
    Publishers.MergeMany(self, other)
  }
}

extension Publishers {
  /// A publisher created by applying the merge function to an arbitrary number of upstream publishers.
  ///
  /// It finishes when every upstream has finished (right away when there are none), and fails as soon as one
  /// of them fails, cancelling the others. As in Combine, an element that finds demand reaches the subscriber on
  /// the thread that sent it, before that upstream's call returns, once the subscriber has returned from any other
  /// element; one sent from inside the subscriber arrives at once, nested; one without demand waits until the
  /// subscriber asks for more.
  public struct MergeMany<Upstream: Publisher>: Publisher {
    public typealias Output = Upstream.Output

    public typealias Failure = Upstream.Failure

    /// The array of upstream publishers that this publisher merges together.
    public let publishers: [Upstream]

    /// Creates a publisher created by applying the merge function to an arbitrary number of upstream publishers.
    ///
    /// - Parameter upstream: A variadic parameter containing zero or more publishers to merge with this
    ///   publisher.
    @inlinable
    public init(_ upstream: Upstream...) {
      publishers = upstream
    }

    /// Creates a publisher created by applying the merge function to a sequence of upstream publishers.
    ///
    /// - Parameter upstream: A sequence containing zero or more publishers to merge with this publisher.
    @inlinable
    public init<S: Swift.Sequence>(_ upstream: S) where Upstream == S.Element {
      publishers = Array(upstream)
    }

    @inlinable
    public func receive<S: Subscriber>(subscriber: S) where Upstream.Output == S.Input, Upstream.Failure == S.Failure {
      let merger = MergingSubscription.merging(subscriber, count: publishers.count)
      for (index, publisher) in publishers.enumerated() {
        publisher.subscribe(merger.child(index))
      }
    }

    /// Merges one more publisher of the same type into this one.
    ///
    /// ```
    /// this:  -1-|
    /// other: --2|
    /// merge: -12|
    /// ```
    ///
    /// - Parameter other: Another publisher of the same type.
    /// - Returns: A publisher that merges the elements of all its upstreams.
    @inlinable
    public func merge(with other: Upstream) -> Publishers.MergeMany<Upstream> {
      Publishers.MergeMany(publishers + [other])
    }
  }
}

extension Publishers.MergeMany: Equatable where Upstream: Equatable {}
