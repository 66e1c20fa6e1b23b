extension Publishers {
  /// A publisher that publishes a given sequence of elements.
  ///
  /// ```
  /// [1, 2, 3].publisher: [123|]
  /// ```
  ///
  /// Elements are delivered as the subscriber requests them; `.finished` follows the last element at once. An
  /// empty sequence finishes right after the subscription.
  public struct Sequence<Elements: Swift.Sequence, Failure: Error>: Publisher {
    public typealias Output = Elements.Element

    /// The sequence of elements to publish.
    public let sequence: Elements

    /// Creates a publisher for a sequence of elements.
    @inlinable
    public init(sequence: Elements) {
      self.sequence = sequence
    }

    @inlinable
    public func receive<S: Subscriber>(subscriber: S) where Failure == S.Failure, Elements.Element == S.Input {
      SequenceSubscription<S, Elements>.subscribe(
        subscriber,
        to: sequence,
        completion: .finished,
        terminalName: "Sequence"
      )
    }
  }
}

extension Publishers.Sequence: Equatable where Elements: Equatable {}

extension Publishers.Sequence: Sendable where Elements: Sendable {}

extension Sequence {
  /// A publisher that publishes the elements of this sequence.
  @inlinable
  public var publisher: Publishers.Sequence<Self, Never> {
    Publishers.Sequence(sequence: self)
  }
}
