extension Publisher {
  /// Publishes a single Boolean value that indicates whether all received elements pass a given predicate.
  ///
  /// ```
  /// upstream:               -1-2-3-|
  /// allSatisfy { $0 > 0 }:  -------['true'|]
  /// allSatisfy { $0 < 2 }:  ---['false'|]
  /// ```
  ///
  /// Upstream is cancelled as soon as an element fails the predicate.
  ///
  /// - Parameter predicate: A closure that evaluates each received element. Return `true` to continue, or `false`
  ///   to cancel the upstream and complete.
  /// - Returns: A publisher that publishes a Boolean value that indicates whether all received elements pass a given
  ///   predicate.
  @inlinable
  public func allSatisfy(_ predicate: @escaping (Output) -> Bool) -> Publishers.AllSatisfy<Self> {
    Publishers.AllSatisfy(upstream: self, predicate: predicate)
  }

  /// Publishes a single Boolean value that indicates whether all received elements pass a given error-throwing
  /// predicate.
  ///
  /// ```
  /// upstream:                    -1-2-3-|
  /// tryAllSatisfy { $0 > 0 }:    -------['true'|]
  /// tryAllSatisfy { _ in throw e }: -^
  /// ```
  ///
  /// When the predicate throws, the operator cancels upstream and fails with the thrown error.
  ///
  /// - Parameter predicate: A closure that evaluates each received element. Return `true` to continue, or `false`
  ///   to cancel the upstream and complete. The closure may throw an error, in which case the publisher cancels
  ///   the upstream publisher and fails with the thrown error.
  /// - Returns: A publisher that publishes a Boolean value that indicates whether all received elements pass a given
  ///   predicate.
  @inlinable
  public func tryAllSatisfy(_ predicate: @escaping (Output) throws -> Bool) -> Publishers.TryAllSatisfy<Self> {
    Publishers.TryAllSatisfy(upstream: self, predicate: predicate)
  }
}

extension Publishers {
  /// A publisher that publishes a single Boolean value that indicates whether all received elements pass a given
  /// predicate.
  public struct AllSatisfy<Upstream: Publisher>: Publisher {
    public typealias Output = Bool
    public typealias Failure = Upstream.Failure

    /// The publisher from which this publisher receives elements.
    public let upstream: Upstream

    /// A closure that evaluates each received element.
    public let predicate: (Upstream.Output) -> Bool

    /// Creates a publisher that publishes a single Boolean value that indicates whether all received elements pass
    /// a given predicate.
    @inlinable
    public init(upstream: Upstream, predicate: @escaping (Upstream.Output) -> Bool) {
      self.upstream = upstream
      self.predicate = predicate
    }

    @inlinable
    public func receive<S: Subscriber>(subscriber: S) where Upstream.Failure == S.Failure, S.Input == Bool {
      let predicate = self.predicate
      let rule = AllSatisfyRule<Upstream.Output, Failure, Failure>(
        name: "AllSatisfy",
        mapFailure: { $0 },
        satisfies: { .success(predicate($0)) }
      )
      upstream.subscribe(ReducingSubscription(rule: rule, downstream: subscriber))
    }
  }

  /// A publisher that publishes a single Boolean value that indicates whether all received elements pass a given
  /// error-throwing predicate.
  public struct TryAllSatisfy<Upstream: Publisher>: Publisher {
    public typealias Output = Bool
    public typealias Failure = any Error

    /// The publisher from which this publisher receives elements.
    public let upstream: Upstream

    /// A closure that evaluates each received element.
    public let predicate: (Upstream.Output) throws -> Bool

    /// Returns a publisher that publishes a single Boolean value that indicates whether all received elements pass
    /// a given error-throwing predicate.
    @inlinable
    public init(upstream: Upstream, predicate: @escaping (Upstream.Output) throws -> Bool) {
      self.upstream = upstream
      self.predicate = predicate
    }

    @inlinable
    public func receive<S: Subscriber>(subscriber: S) where S.Failure == any Error, S.Input == Bool {
      let predicate = self.predicate
      let rule = AllSatisfyRule<Upstream.Output, Upstream.Failure, any Error>(
        name: "TryAllSatisfy",
        mapFailure: { $0 },
        satisfies: { input in Result { try predicate(input) } }
      )
      upstream.subscribe(ReducingSubscription(rule: rule, downstream: subscriber))
    }
  }
}

/// Publishes `false` and stops at the first element that fails the predicate; `true` when upstream finishes.
@usableFromInline
struct AllSatisfyRule<Input, UpstreamFailure: Error, Failure: Error>: ReducingRule {
  @usableFromInline let name: String
  @usableFromInline let mapFailure: (UpstreamFailure) -> Failure
  @usableFromInline let satisfies: (Input) -> Result<Bool, Failure>

  @inlinable
  init(
    name: String,
    mapFailure: @escaping (UpstreamFailure) -> Failure,
    satisfies: @escaping (Input) -> Result<Bool, Failure>
  ) {
    self.name = name
    self.mapFailure = mapFailure
    self.satisfies = satisfies
  }

  @usableFromInline var initial: Bool { true }

  @inlinable
  func fold(_ partial: inout Bool, _ input: Input) -> ReducingStep<Failure> {
    switch satisfies(input) {
    case .success(true):
      return .proceed
    case .success(false):
      partial = false
      return .stop
    case .failure(let error):
      return .fail(error)
    }
  }

  @inlinable
  func result(_ partial: consuming Bool) -> Bool? { partial }

  @inlinable
  func failure(_ error: UpstreamFailure) -> Failure { mapFailure(error) }
}
