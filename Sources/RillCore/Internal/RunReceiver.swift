/// A subscriber that can take a run of values from one caller without synchronising per value.
///
/// `Publishers.Sequence` delivers a run: it calls ``beginRun()``, delivers values from one thread with no call to
/// anything else in between, then calls ``endRun()``. Operators that only pass values on forward the run to their
/// downstream; `flatMap` of `Just` takes the run as its drainer and offers downstream a run of its own; a `Sink` at
/// the end pins its closures for the run, so a value costs it no lock and no atomic read-modify-write. Anything
/// else answers `false` and is delivered to value by value as usual.
@usableFromInline
protocol RunReceiver {
  /// Starts a run; `true` if the end of the chain takes runs, in which case ``endRun()`` must follow.
  func beginRun() -> Bool

  /// Ends a run that ``beginRun()`` started.
  func endRun()
}

extension Subscriber {
  /// Starts a run if this subscriber takes runs (``RunReceiver``).
  @inlinable
  func beginRunIfTaken() -> Bool {
    (self as? any RunReceiver)?.beginRun() ?? false
  }

  /// Ends a run that ``beginRunIfTaken()`` started.
  @inlinable
  func endTakenRun() {
    (self as? any RunReceiver)?.endRun()
  }
}

extension Publishers.Map.Inner: RunReceiver {
  @inlinable
  func beginRun() -> Bool { downstream.beginRunIfTaken() }

  @inlinable
  func endRun() { downstream.endTakenRun() }
}

extension Publishers.Filter.Inner: RunReceiver {
  @inlinable
  func beginRun() -> Bool { downstream.beginRunIfTaken() }

  @inlinable
  func endRun() { downstream.endTakenRun() }
}

extension AnyPublisherSubscriber: RunReceiver {
  @inlinable
  func beginRun() -> Bool { (base as? any RunReceiver)?.beginRun() ?? false }

  @inlinable
  func endRun() { (base as? any RunReceiver)?.endRun() }
}

extension Publishers.FlatMap.Inner: RunReceiver {
  /// Takes the run itself when every child is a `Just` (``FlatMapSubscription/beginOuterRun()``).
  @inlinable
  func beginRun() -> Bool { childIsJust && parent.beginOuterRun() }

  @inlinable
  func endRun() { parent.endOuterRun() }
}
