extension Publisher {
  /// Records the life of each subscription that goes through this point of the pipeline, and its values, on a
  /// timeline, under a lane's name.
  ///
  /// ```
  /// upstream:         -1-2-|
  /// lane("numbers"):  -1-2-|
  /// ```
  ///
  /// The lane passes everything through unchanged, and records on the way: the subscription's start, each demand
  /// requested (by `request(_:)` or returned from receiving a value), each value, and the finish, failure or
  /// cancellation, each stamped with the time and the thread. Each subscription is numbered within its lane, so
  /// two subscriptions of one lane are told apart (`search #1`, `search #2`).
  ///
  /// ```swift
  /// let timeline = Timeline()
  /// let cancellable = model.$query
  ///   .lane("typed", timeline: timeline)
  ///   .debounce(for: .milliseconds(300), scheduler: DispatchQueue.main)
  ///   .lane("searches", timeline: timeline) { "\"\($0)\"" }
  ///   .sink { print($0) }
  /// // later
  /// print(timeline.text())
  /// ```
  ///
  /// A lane costs a clock reading, one lock and the description of the value per event; a pipeline without
  /// a lane pays nothing. It is the same operator as TimelaneCombine's `lane`, with a ``Timeline`` in place of
  /// Instruments: see <doc:SeeingWhatYourPipelineDid>.
  ///
  /// - Parameters:
  ///   - name: The lane's name in renderings; lanes of one name share a row.
  ///   - filter: What to record: the subscription's life, its values, or both (the default).
  ///   - file: The file that writes the lane, recorded with each subscription.
  ///   - function: The function that writes the lane, recorded with each subscription.
  ///   - line: The line that writes the lane, recorded with each subscription.
  ///   - timeline: Where to record; ``Timeline/shared`` by default.
  ///   - transformValue: Describes a value for the timeline; `nil`, the default, describes it with
  ///     `String(describing:)`. It runs once per value, on the thread that delivers it. For a large value, describe
  ///     what matters (`"\($0.count) results"`).
  /// - Returns: A publisher that republishes this one's events and records them.
  @inlinable
  public func lane(
    _ name: String,
    filter: Timeline.LaneTypeOptions = .all,
    file: StaticString = #fileID,
    function: StaticString = #function,
    line: UInt = #line,
    timeline: Timeline = .shared,
    transformValue: ((_ value: Output) -> String)? = nil
  ) -> Publishers.Lane<Self> {
    Publishers.Lane(
      upstream: self,
      name: name,
      filter: filter,
      timeline: timeline,
      source: Timeline.Source(file: file, line: line, function: function),
      transformValue: transformValue
    )
  }
}

extension Publishers {
  /// A publisher that republishes its upstream's events and records them on a ``Timeline``.
  ///
  /// Create one with ``RillCore/Publisher/lane(_:filter:file:function:line:timeline:transformValue:)``.
  public struct Lane<Upstream: Publisher>: Publisher {
    public typealias Output = Upstream.Output

    public typealias Failure = Upstream.Failure

    /// The publisher whose events are recorded.
    public let upstream: Upstream

    /// The lane's name.
    public let name: String

    /// What the lane records.
    public let filter: Timeline.LaneTypeOptions

    /// Where the lane records.
    public let timeline: Timeline

    /// Describes each value for the timeline; `nil` describes it with `String(describing:)`.
    public let transformValue: ((Output) -> String)?

    @usableFromInline
    let source: Timeline.Source

    @usableFromInline
    init(
      upstream: Upstream,
      name: String,
      filter: Timeline.LaneTypeOptions,
      timeline: Timeline,
      source: Timeline.Source,
      transformValue: ((Output) -> String)?
    ) {
      self.upstream = upstream
      self.name = name
      self.filter = filter
      self.timeline = timeline
      self.source = source
      self.transformValue = transformValue
    }

    @inlinable
    public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
      let record = timeline.subscription(lane: name, source: source)
      upstream.subscribe(Inner(downstream: subscriber, lane: self, record: record))
    }
  }
}

extension Publishers.Lane {
  /// Describes a value as `String(describing:)` does, cheaply in the common case.
  ///
  /// Inlined into a client that knows `Output`, the checks below are decided at compile time, and a value whose
  /// type is `CustomStringConvertible` (and not `TextOutputStreamable`, which `String(describing:)` asks first) costs
  /// one call to its `description`. The checks are on the type, because a cast of the value would look inside an
  /// optional.
  @inlinable
  static func describe(_ value: Output) -> String {
    if Output.self == String.self, let string = value as? String { return string }
    if Output.self is any CustomStringConvertible.Type, !(Output.self is any TextOutputStreamable.Type),
      !(value is any TextOutputStreamable), let value = value as? any CustomStringConvertible
    {
      return value.description
    }
    return String(describing: value)
  }

  /// One subscription through the lane: passes each event on, and records it first.
  ///
  /// A value takes no lock of the subscription's own: it is described, recorded and passed on. Like `map`, the
  /// lane passes on whatever upstream sends, also after the subscription ended; it records the end once. Its
  /// methods are inlinable, so that a client specialises them and pays no run-time generic-metadata lookup per
  /// value, as RillCore's operators do.
  // SAFETY: the only mutable state is `link`; upstream, downstream and `transformValue` are called outside its lock
  // (the timeline's lock calls out to nothing).
  @usableFromInline
  final class Inner<Downstream: Subscriber>: Subscriber, Subscription, CustomStringConvertible, @unchecked Sendable
  where Downstream.Input == Output, Downstream.Failure == Failure {
    @usableFromInline typealias Input = Upstream.Output

    @usableFromInline typealias Failure = Upstream.Failure

    @usableFromInline
    enum Link {
      case awaitingSubscription
      case subscribed(any Subscription)
      /// Finished, failed or cancelled.
      case ended
    }

    @usableFromInline let downstream: Downstream

    @usableFromInline let timeline: Timeline

    @usableFromInline let record: Timeline.SubscriptionRecord

    @usableFromInline let transformValue: ((Output) -> String)?

    @usableFromInline let recordsLife: Bool

    @usableFromInline let recordsValues: Bool

    @usableFromInline let link = Locked(Link.awaitingSubscription)

    @inlinable
    init(downstream: Downstream, lane: Publishers.Lane<Upstream>, record: Timeline.SubscriptionRecord) {
      self.downstream = downstream
      self.record = record
      timeline = lane.timeline
      transformValue = lane.transformValue
      recordsLife = lane.filter.contains(.subscription)
      recordsValues = lane.filter.contains(.event)
    }

    @usableFromInline var description: String { "Lane" }

    @inlinable
    func receive(subscription: any Subscription) {
      let accepted = link.withLock { link -> Bool in
        guard case .awaitingSubscription = link else { return false }
        link = .subscribed(subscription)
        return true
      }
      guard accepted else {
        subscription.cancel()
        return
      }
      if recordsLife { timeline.record(.subscription, for: record) }
      downstream.receive(subscription: self)
    }

    @inlinable
    func receive(_ input: Input) -> Subscribers.Demand {
      if recordsValues {
        timeline.record(
          .value(transformValue.map { $0(input) } ?? Publishers.Lane<Upstream>.describe(input)),
          for: record
        )
      }
      let demand = downstream.receive(input)
      if recordsLife, demand != .none { timeline.record(.request(demand), for: record) }
      return demand
    }

    @inlinable
    func receive(completion: Subscribers.Completion<Failure>) {
      let ending = link.withLock { link -> (upstream: (any Subscription)?, wasLive: Bool) in
        defer { link = .ended }
        switch link {
        case .awaitingSubscription: return (nil, false)
        case .subscribed(let upstream): return (upstream, true)
        case .ended: return (nil, false)
        }
      }
      if ending.wasLive, recordsLife || recordsValues {
        switch completion {
        case .finished: timeline.record(.finished, for: record)
        case .failure(let error): timeline.record(.failure(String(describing: error)), for: record)
        }
      }
      _ = ending.upstream
      downstream.receive(completion: completion)
    }

    @inlinable
    func request(_ demand: Subscribers.Demand) {
      guard case .subscribed(let upstream) = link.withLock({ $0 }) else { return }
      if recordsLife { timeline.record(.request(demand), for: record) }
      upstream.request(demand)
    }

    @inlinable
    func cancel() {
      let upstream = link.withLock { link -> (any Subscription)? in
        defer { link = .ended }
        guard case .subscribed(let upstream) = link else { return nil }
        return upstream
      }
      guard let upstream else { return }
      if recordsLife || recordsValues { timeline.record(.cancel, for: record) }
      upstream.cancel()
    }
  }
}
