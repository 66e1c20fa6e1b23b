extension Publisher {
  /// Publishes the first element of a stream, then finishes.
  ///
  /// ```
  /// upstream:  -1-2-3-|
  /// first():   -[1|]
  /// ```
  ///
  /// As in Combine, it asks upstream for unlimited elements when subscribed, and cancels upstream after the
  /// first element.
  ///
  /// - Returns: A publisher that only publishes the first element of a stream.
  @inlinable
  public func first() -> Publishers.First<Self> {
    Publishers.First(upstream: self)
  }

  /// Publishes the first element of a stream to satisfy a predicate closure, then finishes normally.
  ///
  /// ```
  /// upstream:                   -1-2-3-|
  /// first { $0 % 2 == 0 }:      ---[2|]
  /// ```
  ///
  /// - Parameter predicate: A closure that takes an element as a parameter and returns a Boolean value that
  ///   indicates whether to publish the element.
  /// - Returns: A publisher that only publishes the first element of a stream that satisfies the predicate.
  @inlinable
  public func first(where predicate: @escaping (Output) -> Bool) -> Publishers.FirstWhere<Self> {
    Publishers.FirstWhere(upstream: self, predicate: predicate)
  }

  /// Publishes the first element of a stream to satisfy a throwing predicate closure, then finishes normally.
  ///
  /// ```
  /// upstream:                     -1-2-3-|
  /// tryFirst { try even($0) }:    ---^
  /// ```
  ///
  /// If the closure throws, the publisher cancels upstream and fails with the thrown error.
  ///
  /// - Parameter predicate: A closure that takes an element as a parameter and returns a Boolean value that
  ///   indicates whether to publish the element.
  /// - Returns: A publisher that only publishes the first element of a stream that satisfies the predicate.
  @inlinable
  public func tryFirst(where predicate: @escaping (Output) throws -> Bool) -> Publishers.TryFirstWhere<Self> {
    Publishers.TryFirstWhere(upstream: self, predicate: predicate)
  }
}

extension Publishers {
  /// A publisher that publishes the first element of a stream, then finishes.
  public struct First<Upstream: Publisher>: Publisher {
    public typealias Output = Upstream.Output

    public typealias Failure = Upstream.Failure

    /// The publisher from which this publisher receives elements.
    public let upstream: Upstream

    /// Creates a publisher that publishes the first element of a stream, then finishes.
    @inlinable
    public init(upstream: Upstream) {
      self.upstream = upstream
    }

    @inlinable
    public func receive<S: Subscriber>(subscriber: S) where Upstream.Failure == S.Failure, Upstream.Output == S.Input {
      let rule = FirstLastRule<Upstream.Output, Failure, Failure>(
        name: "First",
        stopsAtMatch: true,
        mapFailure: { $0 },
        matches: { _ in .success(true) }
      )
      upstream.subscribe(ReducingSubscription(rule: rule, downstream: subscriber))
    }
  }

  /// A publisher that only publishes the first element of a stream to satisfy a predicate closure.
  public struct FirstWhere<Upstream: Publisher>: Publisher {
    public typealias Output = Upstream.Output

    public typealias Failure = Upstream.Failure

    /// The publisher from which this publisher receives elements.
    public let upstream: Upstream

    /// The closure that determines whether to publish an element.
    public let predicate: (Output) -> Bool

    /// Creates a publisher that only publishes the first element of a stream to satisfy a predicate closure.
    @inlinable
    public init(upstream: Upstream, predicate: @escaping (Output) -> Bool) {
      self.upstream = upstream
      self.predicate = predicate
    }

    @inlinable
    public func receive<S: Subscriber>(subscriber: S) where Upstream.Failure == S.Failure, Upstream.Output == S.Input {
      let predicate = self.predicate
      // Combine names this subscription "TryFirst", though it is not the throwing variant.
      let rule = FirstLastRule<Upstream.Output, Failure, Failure>(
        name: "TryFirst",
        stopsAtMatch: true,
        mapFailure: { $0 },
        matches: { .success(predicate($0)) }
      )
      upstream.subscribe(ReducingSubscription(rule: rule, downstream: subscriber))
    }
  }

  /// A publisher that only publishes the first element of a stream to satisfy a throwing predicate closure.
  public struct TryFirstWhere<Upstream: Publisher>: Publisher {
    public typealias Output = Upstream.Output

    public typealias Failure = any Error

    /// The publisher from which this publisher receives elements.
    public let upstream: Upstream

    /// The error-throwing closure that determines whether to publish an element.
    public let predicate: (Output) throws -> Bool

    /// Creates a publisher that only publishes the first element of a stream to satisfy a throwing predicate
    /// closure.
    @inlinable
    public init(upstream: Upstream, predicate: @escaping (Output) throws -> Bool) {
      self.upstream = upstream
      self.predicate = predicate
    }

    @inlinable
    public func receive<S: Subscriber>(subscriber: S) where Upstream.Output == S.Input, S.Failure == any Error {
      let predicate = self.predicate
      let rule = FirstLastRule<Upstream.Output, Upstream.Failure, any Error>(
        name: "TryFirstWhere",
        stopsAtMatch: true,
        mapFailure: { $0 },
        matches: { input in Result { try predicate(input) } }
      )
      upstream.subscribe(ReducingSubscription(rule: rule, downstream: subscriber))
    }
  }
}

extension Publishers.First: Equatable where Upstream: Equatable {}

extension Publishers.First: Sendable where Upstream: Sendable {}

/// Selects one element for `first` and `last` and their `where` variants: the last element that `matches`
/// accepts, stopping at the first one when `stopsAtMatch` is set.
@usableFromInline
struct FirstLastRule<Input, UpstreamFailure: Error, Failure: Error>: ReducingRule {
  @usableFromInline let name: String
  @usableFromInline let stopsAtMatch: Bool
  @usableFromInline let mapFailure: (UpstreamFailure) -> Failure
  @usableFromInline let matches: (Input) -> Result<Bool, Failure>

  @inlinable
  init(
    name: String,
    stopsAtMatch: Bool,
    mapFailure: @escaping (UpstreamFailure) -> Failure,
    matches: @escaping (Input) -> Result<Bool, Failure>
  ) {
    self.name = name
    self.stopsAtMatch = stopsAtMatch
    self.mapFailure = mapFailure
    self.matches = matches
  }

  @usableFromInline var initial: Input? { nil }

  @inlinable
  func fold(_ partial: inout Input?, _ input: Input) -> ReducingStep<Failure> {
    switch matches(input) {
    case .success(true):
      partial = input
      return stopsAtMatch ? .stop : .proceed
    case .success(false):
      return .proceed
    case .failure(let error):
      return .fail(error)
    }
  }

  @inlinable
  func result(_ partial: consuming Input?) -> Input? { partial }

  @inlinable
  func failure(_ error: UpstreamFailure) -> Failure { mapFailure(error) }
}
