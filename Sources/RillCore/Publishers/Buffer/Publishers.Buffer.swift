extension Publisher {
  /// Buffers elements received from an upstream publisher.
  ///
  /// ```
  /// upstream:                                                     -1-2-3-|
  /// buffer(size: 2, prefetch: .byRequest, whenFull: .dropNewest): -1-2-3-|
  /// ```
  ///
  /// Values that arrive while downstream has no demand wait in the buffer, and are delivered when demand
  /// arrives. With ``Publishers/PrefetchStrategy/keepFull`` the buffer asks upstream for `size` values on subscription and for one more each time it delivers one;
  /// with ``Publishers/PrefetchStrategy/byRequest`` it asks upstream for unlimited values. When the buffer is
  /// full, `whenFull` drops the newest value, drops the oldest one, or cancels upstream and fails with a custom
  /// error after the buffered values that downstream asks for next. As in Combine, upstream's `.finished` waits
  /// behind the buffered values and for demand: with an empty buffer it reaches downstream with the next request.
  /// A failure follows the values that downstream has already asked for, and drops the rest.
  ///
  /// A `size` of zero or less holds nothing, as in Combine: with `.byRequest`, every value is full on arrival, so
  /// `.dropNewest` and `.dropOldest` drop it and `.customError` fails on the first one. With `.keepFull` the buffer
  /// would ask upstream for a negative number of values, so a negative `size` traps, naming it.
  ///
  /// - Parameters:
  ///   - size: The maximum number of elements to store.
  ///   - prefetch: The strategy to initially populate the buffer.
  ///   - whenFull: The action to take when the buffer becomes full.
  /// - Returns: A publisher that buffers elements received from an upstream publisher.
  public func buffer(
    size: Int,
    prefetch: Publishers.PrefetchStrategy,
    whenFull: Publishers.BufferingStrategy<Failure>
  ) -> Publishers.Buffer<Self> {
    Publishers.Buffer(upstream: self, size: size, prefetch: prefetch, whenFull: whenFull)
  }
}

extension Publishers {
  /// A strategy for filling a buffer.
  public enum PrefetchStrategy: Equatable, Hashable, Sendable {
    /// A strategy to fill the buffer at subscription time, and keep it full thereafter.
    case keepFull

    /// A strategy that avoids prefetching and instead performs requests on demand.
    case byRequest
  }

  /// A strategy that handles exhaustion of a buffer's capacity.
  public enum BufferingStrategy<Failure: Error> {
    /// When the buffer is full, discard the newly received element.
    case dropNewest

    /// When the buffer is full, discard the oldest element in the buffer.
    case dropOldest

    /// When the buffer is full, execute the closure to provide a custom error.
    case customError(() -> Failure)
  }

  /// A publisher that buffers elements received from an upstream publisher.
  public struct Buffer<Upstream: Publisher>: Publisher {
    public typealias Output = Upstream.Output
    public typealias Failure = Upstream.Failure

    /// The publisher from which this publisher receives elements.
    public let upstream: Upstream

    /// The maximum number of elements to store.
    public let size: Int

    /// The strategy for initially populating the buffer.
    public let prefetch: Publishers.PrefetchStrategy

    /// The action to take when the buffer becomes full.
    public let whenFull: Publishers.BufferingStrategy<Upstream.Failure>

    /// Creates a publisher that buffers elements received from an upstream publisher.
    ///
    /// - Parameters:
    ///   - upstream: The publisher from which this publisher receives elements.
    ///   - size: The maximum number of elements to store.
    ///   - prefetch: The strategy for initially populating the buffer.
    ///   - whenFull: The action to take when the buffer becomes full.
    public init(
      upstream: Upstream,
      size: Int,
      prefetch: Publishers.PrefetchStrategy,
      whenFull: Publishers.BufferingStrategy<Upstream.Failure>
    ) {
      self.upstream = upstream
      self.size = size
      self.prefetch = prefetch
      self.whenFull = whenFull
    }

    @inlinable
    public func receive<S: Subscriber>(subscriber: S) where Upstream.Failure == S.Failure, Upstream.Output == S.Input {
      upstream.subscribe(Inner(downstream: subscriber, size: size, prefetch: prefetch, whenFull: whenFull))
    }
  }
}

extension Publishers.Buffer {
  // SAFETY: all mutable state is in `state`; downstream, upstream and the error closure are called outside the
  // lock.
  @usableFromInline
  final class Inner<Downstream: Subscriber>: Subscriber, Subscription, CombineDescribable, @unchecked Sendable
  where Downstream.Input == Output, Downstream.Failure == Failure {
    @usableFromInline
    typealias Input = Upstream.Output
    @usableFromInline
    typealias Failure = Upstream.Failure

    @usableFromInline
    struct State {
      @usableFromInline
      var machine: BufferStateMachine<Output, Failure>
      @usableFromInline
      var downstream: Downstream?

      @inlinable
      init(machine: BufferStateMachine<Output, Failure>, downstream: Downstream? = nil) {
        self.machine = machine
        self.downstream = downstream
      }
    }

    @usableFromInline
    let state: Locked<State>
    @usableFromInline
    let makeError: (() -> Failure)?
    /// Runs `requestNow`, and the delivery of what the buffer holds, in specialised code: a request arrives through
    /// `any Subscription` (a specialised entry: WritingAnOperator.md, "Hot-path idioms").
    @usableFromInline
    let specialized: SpecializedEntry<Inner>

    @inlinable
    init(
      downstream: Downstream,
      size: Int,
      prefetch: Publishers.PrefetchStrategy,
      whenFull: Publishers.BufferingStrategy<Failure>
    ) {
      let full: BufferStateMachine<Output, Failure>.FullAction
      switch whenFull {
      case .dropNewest:
        full = .dropNewest
        makeError = nil
      case .dropOldest:
        full = .dropOldest
        makeError = nil
      case .customError(let make):
        full = .fail
        makeError = make
      }
      // Combine asks upstream for `.max(size)` here, which cannot be negative; say which argument is wrong
      // rather than letting the demand trap blame a subscriber. (`.byRequest` treats a negative size as 0.)
      precondition(
        size >= 0 || prefetch != .keepFull,
        "buffer(size:prefetch:whenFull:): size is \(size); with .keepFull it must not be negative"
      )
      let machine = BufferStateMachine<Output, Failure>(size: size, keepsFull: prefetch == .keepFull, whenFull: full)
      state = Locked(State(machine: machine, downstream: downstream))
      specialized = SpecializedEntry { $0.requestNow($1) }
    }

    @inlinable
    var description: String { "Buffer" }

    @inlinable
    var customMirror: Mirror {
      let (values, link, demand, completion) = state.withLock {
        ($0.machine.buffered, $0.machine.link, $0.machine.demand, $0.machine.completion)
      }
      return Mirror(
        self,
        children: ["values": values, "state": link, "downstreamDemand": demand, "terminal": completion as Any]
      )
    }

    @inlinable
    func receive(subscription: any Subscription) {
      guard let demand = state.withLock({ $0.machine.upstreamSubscribed(subscription) }) else {
        subscription.cancel()
        return
      }
      // A buffer of size 0 that keeps itself full asks for nothing: Combine asks for `.max(0)`, which most upstreams
      // trap on, blaming a subscriber.
      if demand > 0 { subscription.request(demand) }
      guard let downstream = state.withLock({ $0.downstream }) else { return }
      downstream.receive(subscription: self)
      state.withLock { $0.machine.downstreamSubscribed() }
      drain(refillUpstream: true)
    }

    @inlinable
    func receive(_ input: Upstream.Output) -> Subscribers.Demand {
      let (action, dropped) = state.withLock { $0.machine.upstreamValue(input) }
      switch action {
      case .ignore:
        return .none
      case .drain:
        _ = dropped
        return drain(refillUpstream: false)
      case .makeError:
        guard let makeError else { return .none }
        let error = makeError()
        state.withLock { $0.machine.failWhenFull(error) }?.cancel()
        return .none
      }
    }

    @inlinable
    func receive(completion: Subscribers.Completion<Upstream.Failure>) {
      let (drains, released) = state.withLock { $0.machine.upstreamCompleted(completion) }
      _ = released
      if drains {
        drain(refillUpstream: false)
      }
    }

    @inlinable
    func request(_ demand: Subscribers.Demand) {
      specialized(self, demand)
    }

    @inlinable
    func requestNow(_ demand: Subscribers.Demand) {
      if state.withLock({ $0.machine.request(demand) }) {
        drain(refillUpstream: true)
      }
    }

    @inlinable
    func cancel() {
      let (upstream, downstream, released) = state.withLock { state in
        let (releasesDownstream, upstream, released) = state.machine.cancel()
        return (upstream, releasesDownstream ? state.downstream.take() : nil, released)
      }
      upstream?.cancel()
      _ = (downstream, released)
    }

    /// Delivers what demand allows, then a due completion; returns, or requests from upstream when
    /// `refillUpstream` is set, the demand that keeps the buffer full.
    @discardableResult
    @inlinable
    func drain(refillUpstream: Bool) -> Subscribers.Demand {
      guard let downstream = state.withLock({ $0.machine.startDraining() ? $0.downstream : nil }) else { return .none }
      var delivered = 0
      while true {
        let (step, overflowed) = state.withLock {
          state -> (BufferStateMachine<Output, Failure>.Step, (any Subscription)?) in
          let step = state.machine.nextStep()
          guard case .complete = step else { return (step, nil) }
          return (step, state.machine.takeOverflowedUpstream())
        }
        switch step {
        case .deliver(let value):
          delivered += 1
          let more = downstream.receive(value)
          state.withLock { $0.machine.delivered(more) }
        case .complete(let completion):
          // As in Combine, the subscription keeps its downstream after the completion, until it is freed.
          downstream.receive(completion: completion)
          if refillUpstream, state.withLock({ $0.machine.keepsFull }), delivered > 0, let overflowed {
            overflowed.request(.max(delivered))
          }
        case .stop(let released):
          _ = released
          let (keepsFull, upstream) = state.withLock { ($0.machine.keepsFull, $0.machine.link.upstream) }
          guard keepsFull, delivered > 0, let upstream else { return .none }
          if refillUpstream {
            upstream.request(.max(delivered))
            return .none
          }
          return .max(delivered)
        }
      }
    }
  }
}
