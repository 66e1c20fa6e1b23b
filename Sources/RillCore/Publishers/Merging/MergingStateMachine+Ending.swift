/// How a `flatMap` or `merge` subscription's state ends, on downstream's cancel or a failure, and what it lets go
/// of then, for the subscription to release after unlocking (WritingAnOperator.md, "Locks and threads").
extension MergingStateMachine {
  /// What the machine lets go of when the stream ends: the buffered values, the children's slots and the upstream's
  /// subscription, for the subscription to release after unlocking (WritingAnOperator.md, "Locks and threads").
  ///
  /// A class, allocated once when the stream ends, so that ``CompletionAction``, which every child's completion
  /// returns, stays small.
  @usableFromInline
  final class Released {
    @usableFromInline let buffer: FIFO<(child: MergingChildKey, value: Value)>
    @usableFromInline let children: [MergingChildren.Slot]
    @usableFromInline let upstream: MergingHeldSubscription

    @inlinable
    init(
      buffer: FIFO<(child: MergingChildKey, value: Value)>,
      children: [MergingChildren.Slot],
      upstream: MergingHeldSubscription
    ) {
      self.buffer = buffer
      self.children = children
      self.upstream = upstream
    }
  }

  /// Terminates on downstream's cancel; returns the subscriptions to cancel, and what the machine let go of, to
  /// release after unlocking.
  @inlinable
  mutating func cancel() -> (cancelling: [any Subscription], released: Released?) {
    guard !isCancelled else { return ([], nil) }
    downstream = .cancelled
    return releaseAll(except: nil, cancellingUpstream: true)
  }

  /// Decides a failure: drops the buffer, as Combine does, and cancels the live children but `except`, and the
  /// upstream if `cancellingUpstream`.
  @inlinable
  mutating func terminate(failure: Failure, except id: Int?, cancellingUpstream: Bool) -> CompletionAction {
    downstream = .terminal
    let (cancelling, released) = releaseAll(except: id, cancellingUpstream: cancellingUpstream)
    return .fail(failure, cancelling: cancelling, released: released)
  }

  /// Forgets the buffer, every child and the upstream; returns the subscriptions to cancel (the live children's but
  /// `except`, oldest first, then the upstream's if `cancellingUpstream`), and what the machine let go of, to
  /// release after unlocking.
  @inlinable
  mutating func releaseAll(
    except id: Int?,
    cancellingUpstream: Bool
  ) -> (cancelling: [any Subscription], released: Released) {
    var cancelling = children.subscriptions(except: id)
    upgradeAfterDrain = []
    if cancellingUpstream, case .subscribed = upstream, case .held(let subscription) = upstreamSubscription {
      cancelling.append(subscription)
    }
    upstream = .finished
    let released = Released(
      buffer: buffer.take(),
      children: children.removeAll(),
      upstream: upstreamSubscription.take()
    )
    return (cancelling, released)
  }
}
