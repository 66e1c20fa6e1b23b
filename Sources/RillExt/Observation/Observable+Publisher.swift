#if canImport(Observation)
public import Dispatch
public import Observation
public import Rill

/// What a publisher of an `@Observable` property sends besides the values after each change.
///
/// The counterpart of key-value observing's options for
/// ``Observation/Observable/publisher(for:options:scheduler:)``.
public struct ObservationOptions: OptionSet, Hashable, Sendable {
  public let rawValue: Int

  /// Creates a set of options from its raw value.
  ///
  /// - Parameter rawValue: The bits of the options.
  public init(rawValue: Int) {
    self.rawValue = rawValue
  }

  /// Send the property's current value on subscription, before any change, as KVO's `.initial` does.
  public static let initial = ObservationOptions(rawValue: 1 << 0)
}

@available(macOS 14.0, iOS 17.0, tvOS 17.0, watchOS 10.0, *)
extension Observable where Self: AnyObject {
  /// Publishes a property of this `@Observable` model: its current value, then its new value after each change.
  ///
  /// ```
  /// count set to:                          --1-[23]-
  /// publisher(for: \.count, scheduler: s):  0-1-3
  /// ```
  ///
  /// The current value, 0, goes out on subscription; 2 and 3, set before the scheduler ran, are one value.
  ///
  /// It is to Observation what `publisher(for:options:)` is to key-value observing:
  ///
  /// ```swift
  /// @Observable final class SearchModel {
  ///   var query = ""
  /// }
  ///
  /// let model = SearchModel()
  /// let cancellable = model.publisher(for: \.query, scheduler: DispatchQueue.main)
  ///   .debounce(for: .milliseconds(300), scheduler: DispatchQueue.main)
  ///   .sink { print("search for", $0) }
  /// ```
  ///
  /// **When it observes.** The first request reads the property, tracking it with `withObservationTracking`,
  /// and (with `.initial`) sends its value at once, on the requesting thread. Observation reports a change as it
  /// begins (`willSet`), when the new value is not there yet, so the publisher schedules a read on `scheduler`
  /// and sends what it reads then: always the new value, never the old one. Each read tracks the property again.
  /// Setting a property to an equal value is no change, as `@Observable` makes it.
  ///
  /// **On which thread.** The initial value goes out on the thread of the first request; every later value, and
  /// the finish, on `scheduler`. Change the model where the scheduler runs: for a `@MainActor` model, on the main
  /// queue with `DispatchQueue.main` (or `RunLoop.main`). A change made on another thread while the scheduler reads
  /// may be read before it is stored, as for any model shared between threads without a lock. The scheduler must run
  /// its actions later, not inside `schedule` (so not `ImmediateScheduler`): a read inside `willSet` would see the
  /// old value.
  ///
  /// **Coalescing.** Changes made before the scheduled read runs are one change: everything one main-queue job
  /// changes, a whole transaction, goes out as one value, the latest. While downstream has no demand, changes are
  /// remembered the same way, and the latest value goes out when it asks again. Changing a value and changing it
  /// back before the read sends the value again.
  ///
  /// **Cancellation.** Cancel stops the stream at once. Observation has no way to withdraw a tracking, so the
  /// last one stays with the model until its next change or until the model is freed; it holds nothing of the
  /// subscription, and does nothing then.
  ///
  /// **A freed model.** Neither the publisher nor its subscriptions keep the model alive. Once the model is freed,
  /// the stream finishes, on the scheduler; a subscription made after that finishes at its first request.
  ///
  /// - Parameters:
  ///   - keyPath: The property to publish; any key path whose reads Observation tracks, including a chain through
  ///     other `@Observable` models (`\.selection.title`).
  ///   - options: `.initial` (the default) to send the current value on subscription, `[]` for changes only.
  ///   - scheduler: Where to read the property after a change, and deliver it.
  /// - Returns: A publisher of the property's values.
  public func publisher<Value, Context: Scheduler>(
    for keyPath: KeyPath<Self, Value>,
    options: ObservationOptions = [.initial],
    scheduler: Context
  ) -> Publishers.ObservationPublisher<Self, Value, Context> {
    Publishers.ObservationPublisher(object: self, keyPath: keyPath, options: options, scheduler: scheduler)
  }

  /// Publishes a property of this `@Observable` model, reading it after each change on the main queue.
  ///
  /// ```
  /// count set to:           --1-[23]-
  /// publisher(for: \.count):  0-1-3
  /// ```
  ///
  /// 2 and 3, set in one main-queue job, are one value.
  ///
  /// The same as ``publisher(for:options:scheduler:)`` with `DispatchQueue.main`, which suits a `@MainActor`
  /// model: changes made in one main-queue job go out as one value, after the job. The main queue must be running
  /// (an app, `dispatchMain()`, or an `async` main).
  ///
  /// - Parameters:
  ///   - keyPath: The property to publish.
  ///   - options: `.initial` (the default) to send the current value on subscription, `[]` for changes only.
  /// - Returns: A publisher of the property's values.
  public func publisher<Value>(
    for keyPath: KeyPath<Self, Value>,
    options: ObservationOptions = [.initial]
  ) -> Publishers.ObservationPublisher<Self, Value, DispatchQueue> {
    publisher(for: keyPath, options: options, scheduler: DispatchQueue.main)
  }
}
#endif
