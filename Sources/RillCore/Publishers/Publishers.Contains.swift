extension Publisher where Output: Equatable {
  /// Publishes a Boolean value upon receiving an element equal to the argument.
  ///
  /// ```
  /// upstream:     -1-2-3-|
  /// contains(2):  ---['true'|]
  /// contains(5):  -------['false'|]
  /// ```
  ///
  /// Upstream is cancelled as soon as a matching element arrives.
  ///
  /// - Parameter output: An element to match against.
  /// - Returns: A publisher that emits the Boolean value `true` when the upstream publisher emits a matching value.
  @inlinable
  public func contains(_ output: Output) -> Publishers.Contains<Self> {
    Publishers.Contains(upstream: self, output: output)
  }
}

extension Publisher {
  /// Publishes a Boolean value upon receiving an element that satisfies the predicate closure.
  ///
  /// ```
  /// upstream:                 -1-2-3-|
  /// contains { $0 > 1 }:      ---['true'|]
  /// contains { $0 > 5 }:      -------['false'|]
  /// ```
  ///
  /// Upstream is cancelled as soon as an element satisfies the predicate.
  ///
  /// - Parameter predicate: A closure that takes an element as its parameter and returns a Boolean value that
  ///   indicates whether the element satisfies the closure's comparison logic.
  /// - Returns: A publisher that emits the Boolean value `true` when the upstream publisher emits a matching value.
  @inlinable
  public func contains(where predicate: @escaping (Output) -> Bool) -> Publishers.ContainsWhere<Self> {
    Publishers.ContainsWhere(upstream: self, predicate: predicate)
  }

  /// Publishes a Boolean value upon receiving an element that satisfies the throwing predicate closure.
  ///
  /// ```
  /// upstream:                   -1-2-3-|
  /// tryContains { $0 > 1 }:     ---['true'|]
  /// tryContains { _ in throw e }: -^
  /// ```
  ///
  /// When the predicate throws, the operator cancels upstream and fails with the thrown error.
  ///
  /// - Parameter predicate: A closure that takes an element as its parameter and returns a Boolean value that
  ///   indicates whether the element satisfies the closure's comparison logic.
  /// - Returns: A publisher that emits the Boolean value `true` when the upstream publisher emits a matching value.
  @inlinable
  public func tryContains(where predicate: @escaping (Output) throws -> Bool) -> Publishers.TryContainsWhere<Self> {
    Publishers.TryContainsWhere(upstream: self, predicate: predicate)
  }
}

extension Publishers {
  /// A publisher that emits a Boolean value when it receives a specified element from its upstream publisher.
  public struct Contains<Upstream: Publisher>: Publisher where Upstream.Output: Equatable {
    public typealias Output = Bool
    public typealias Failure = Upstream.Failure

    /// The publisher from which this publisher receives elements.
    public let upstream: Upstream

    /// The element to scan for in the upstream publisher.
    public let output: Upstream.Output

    /// Creates a publisher that emits a Boolean value when it receives a specified element from its upstream
    /// publisher.
    @inlinable
    public init(upstream: Upstream, output: Upstream.Output) {
      self.upstream = upstream
      self.output = output
    }

    @inlinable
    public func receive<S: Subscriber>(subscriber: S) where Upstream.Failure == S.Failure, S.Input == Bool {
      let output = self.output
      let rule = ContainsRule<Upstream.Output, Failure, Failure>(
        name: "Contains",
        mapFailure: { $0 },
        matches: { .success($0 == output) }
      )
      upstream.subscribe(ReducingSubscription(rule: rule, downstream: subscriber))
    }
  }

  /// A publisher that emits a Boolean value upon receiving an element that satisfies the predicate closure.
  public struct ContainsWhere<Upstream: Publisher>: Publisher {
    public typealias Output = Bool
    public typealias Failure = Upstream.Failure

    /// The publisher from which this publisher receives elements.
    public let upstream: Upstream

    /// The closure that determines whether the publisher should consider an element as a match.
    public let predicate: (Upstream.Output) -> Bool

    /// Creates a publisher that emits a Boolean value upon receiving an element that satisfies the predicate
    /// closure.
    @inlinable
    public init(upstream: Upstream, predicate: @escaping (Upstream.Output) -> Bool) {
      self.upstream = upstream
      self.predicate = predicate
    }

    @inlinable
    public func receive<S: Subscriber>(subscriber: S) where Upstream.Failure == S.Failure, S.Input == Bool {
      let predicate = self.predicate
      let rule = ContainsRule<Upstream.Output, Failure, Failure>(
        name: "ContainsWhere",
        mapFailure: { $0 },
        matches: { .success(predicate($0)) }
      )
      upstream.subscribe(ReducingSubscription(rule: rule, downstream: subscriber))
    }
  }

  /// A publisher that emits a Boolean value upon receiving an element that satisfies the throwing predicate
  /// closure.
  public struct TryContainsWhere<Upstream: Publisher>: Publisher {
    public typealias Output = Bool
    public typealias Failure = any Error

    /// The publisher from which this publisher receives elements.
    public let upstream: Upstream

    /// The error-throwing closure that determines whether this publisher should emit a `true` element.
    public let predicate: (Upstream.Output) throws -> Bool

    /// Creates a publisher that emits a Boolean value upon receiving an element that satisfies the throwing
    /// predicate closure.
    @inlinable
    public init(upstream: Upstream, predicate: @escaping (Upstream.Output) throws -> Bool) {
      self.upstream = upstream
      self.predicate = predicate
    }

    @inlinable
    public func receive<S: Subscriber>(subscriber: S) where S.Failure == any Error, S.Input == Bool {
      let predicate = self.predicate
      let rule = ContainsRule<Upstream.Output, Upstream.Failure, any Error>(
        name: "TryContainsWhere",
        mapFailure: { $0 },
        matches: { input in Result { try predicate(input) } }
      )
      upstream.subscribe(ReducingSubscription(rule: rule, downstream: subscriber))
    }
  }
}

extension Publishers.Contains: Equatable where Upstream: Equatable {}

extension Publishers.Contains: Sendable where Upstream: Sendable, Upstream.Output: Sendable {}

/// Publishes `true` and stops at the first match; `false` when upstream finishes without one.
@usableFromInline
struct ContainsRule<Input, UpstreamFailure: Error, Failure: Error>: ReducingRule {
  @usableFromInline let name: String
  @usableFromInline let mapFailure: (UpstreamFailure) -> Failure
  @usableFromInline let matches: (Input) -> Result<Bool, Failure>

  @inlinable
  init(
    name: String,
    mapFailure: @escaping (UpstreamFailure) -> Failure,
    matches: @escaping (Input) -> Result<Bool, Failure>
  ) {
    self.name = name
    self.mapFailure = mapFailure
    self.matches = matches
  }

  @usableFromInline var initial: Bool { false }

  @inlinable
  func fold(_ partial: inout Bool, _ input: Input) -> ReducingStep<Failure> {
    switch matches(input) {
    case .success(true):
      partial = true
      return .stop
    case .success(false):
      return .proceed
    case .failure(let error):
      return .fail(error)
    }
  }

  @inlinable
  func result(_ partial: consuming Bool) -> Bool? { partial }

  @inlinable
  func failure(_ error: UpstreamFailure) -> Failure { mapFailure(error) }
}
