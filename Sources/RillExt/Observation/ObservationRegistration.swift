#if canImport(Observation)
/// A subscription to an `@Observable` property, as the trackings it installs see it.
///
/// Seen through this protocol, the closures that Observation keeps capture no generic type.
protocol ObservationTrackingTarget: AnyObject, Sendable {
  /// The tracking numbered `generation` saw a change begin.
  func changeObserved(generation: Int)

  /// The model of the tracking numbered `generation` was freed.
  func modelWasFreed(generation: Int)
}

/// What ties one tracking to its model's life.
///
/// Observation keeps a tracking's `onChange` closure, and with it this object, until the change comes or the model
/// is freed. Released without having fired, once installed, it means the model is gone. It holds its target weakly,
/// so a tracking left with the model after a cancel keeps nothing of the subscription.
// SAFETY: its mutable state is in `flags`; the target is called outside the lock.
final class ObservationRegistration: @unchecked Sendable {
  private let flags = Locked((fired: false, installed: false))

  private weak var target: (any ObservationTrackingTarget)?

  private let generation: Int

  init(target: any ObservationTrackingTarget, generation: Int) {
    self.target = target
    self.generation = generation
  }

  /// The change came: tells the target, the first time.
  func fire() {
    let first = flags.withLock { flags in
      defer { flags.fired = true }
      return !flags.fired
    }
    if first { target?.changeObserved(generation: generation) }
  }

  /// Marks the closure as kept by the model.
  func install() {
    flags.withLock { $0.installed = true }
  }

  deinit {
    let flags = flags.withLock { $0 }
    if flags.installed, !flags.fired { target?.modelWasFreed(generation: generation) }
  }
}
#endif
