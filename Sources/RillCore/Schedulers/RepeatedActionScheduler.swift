/// A scheduler that can prepare an action once and then schedule it again and again more cheaply than
/// `schedule(options:_:)` would schedule a fresh closure each time.
///
/// Not part of Combine's API, so it is visible only inside this package. `DispatchQueue` adopts it: it turns the
/// action into a heap block once, and scheduling it again only retains that block, where each call to
/// `schedule(options:_:)` copies a new block to the heap. `RunLoop` and `OperationQueue` adopt it to wrap the action
/// once. `receive(on:)`, which schedules one action per value, uses it when its scheduler adopts it.
package protocol RepeatedActionScheduler: Scheduler {
  /// Returns a function that schedules `action` with `options`, as `schedule(options:_:)` would, each time it
  /// is called.
  func prepareRepeatedAction(options: SchedulerOptions?, _ action: @escaping () -> Void) -> () -> Void
}

extension Scheduler {
  /// Prepares `action` for repeated scheduling when this scheduler adopts ``RepeatedActionScheduler``;
  /// otherwise `nil`.
  ///
  /// Called once per subscription, so it is not inlined: the dynamic cast costs nothing per value.
  @usableFromInline
  func repeatedActionPreparer(
    options: SchedulerOptions?
  ) -> ((@escaping () -> Void) -> () -> Void)? {
    guard let scheduler = self as? any RepeatedActionScheduler else { return nil }
    return scheduler.preparer(options: options)
  }
}

extension RepeatedActionScheduler {
  /// The preparer for options of the scheduler type this one was cast from, which is this type.
  func preparer<Options>(options: Options?) -> ((@escaping () -> Void) -> () -> Void)? {
    let own: SchedulerOptions?
    if let options {
      guard let options = options as? SchedulerOptions else { return nil }
      own = options
    } else {
      own = nil
    }
    return { action in self.prepareRepeatedAction(options: own, action) }
  }
}
