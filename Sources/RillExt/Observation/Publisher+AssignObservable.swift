#if canImport(Observation)
public import Observation

@available(macOS 14.0, iOS 17.0, tvOS 17.0, watchOS 10.0, *)
extension Publisher where Failure == Never {
  /// Assigns each value to a property of an `@Observable` model, holding the model as `ownership` says.
  ///
  /// ```
  /// upstream:                                              -1-2-|
  /// assign(to: \.count, on: model, ownership: .weak), count:  -1-2-|
  /// ```
  ///
  /// Each value goes through the property's setter, on the thread that delivers it, so everything that observes
  /// the model sees the change: SwiftUI, `withObservationTracking`, and
  /// ``Observation/Observable/publisher(for:options:scheduler:)``. For a `@MainActor` model, deliver on the main
  /// queue first (`receive(on: DispatchQueue.main)`). The subscription requests unlimited values.
  ///
  /// ```swift
  /// let cancellable = searchResults
  ///   .receive(on: DispatchQueue.main)
  ///   .assign(to: \.results, on: model, ownership: .weak)
  /// ```
  ///
  /// The ownership options are those of ``RillCore/Publisher/assign(to:on:ownership:)-4jvfx``:
  /// - `.strong`, the default, keeps the model alive as long as the subscription, as Combine's `assign(to:on:)`.
  /// - `.weak` does not keep it alive, which breaks the cycle of a model that stores the cancellable of an
  ///   assignment to itself. Once the model is freed, the subscription ends: it cancels its upstream at the next
  ///   value (or at once, if the model is gone when the subscription starts), where the assignment to any other
  ///   object skips the value and stays subscribed. A model that is gone will never be observed again, so the
  ///   work upstream is stopped, as a publisher of a freed model finishes.
  /// - `.unowned` does not keep it alive either; the model must outlive the subscription, or an assignment traps.
  ///
  /// - Parameters:
  ///   - keyPath: The property to assign.
  ///   - object: The model that has the property.
  ///   - ownership: How the subscription holds `object`; `.strong` by default.
  /// - Returns: A cancellable that ends the assignments, when cancelled or released.
  public func assign<Root: Observable & AnyObject>(
    to keyPath: ReferenceWritableKeyPath<Root, Output>,
    on object: Root,
    ownership: ObjectOwnership = .strong
  ) -> AnyCancellable {
    let subscriber: ObservableAssign<Root, Output>
    switch ownership {
    case .strong: subscriber = ObservableAssign(keyPath: keyPath, model: .strong(object))
    case .weak: subscriber = ObservableAssign(keyPath: keyPath, model: .weak(WeakModel(object)))
    case .unowned: subscriber = ObservableAssign(keyPath: keyPath, model: .unowned(UnownedModel(object)))
    }
    subscribe(subscriber)
    return AnyCancellable(subscriber)
  }
}

/// An unowned reference to a model, as an enum payload.
private struct UnownedModel<Root: AnyObject> {
  unowned let object: Root

  init(_ object: Root) {
    self.object = object
  }
}

/// A weak reference to a model, as an enum payload.
private struct WeakModel<Root: AnyObject> {
  weak var object: Root?

  init(_ object: Root) {
    self.object = object
  }
}

/// Assigns each value to a model's property; ends the subscription once a weakly held model is gone.
// SAFETY: all mutable state is in `state`; upstream and the model's setter are called outside its lock.
private final class ObservableAssign<Root: AnyObject, Input>: Subscriber, Cancellable, @unchecked Sendable {
  typealias Failure = Never

  enum Model {
    case strong(Root)
    case weak(WeakModel<Root>)
    case unowned(UnownedModel<Root>)
  }

  private enum Link {
    case awaitingSubscription
    case subscribed(any Subscription)
    case ended
  }

  private let keyPath: ReferenceWritableKeyPath<Root, Input>

  private let state: Locked<(link: Link, model: Model?)>

  init(keyPath: ReferenceWritableKeyPath<Root, Input>, model: Model) {
    self.keyPath = keyPath
    state = Locked((.awaitingSubscription, model))
  }

  func receive(subscription: any Subscription) {
    let accepted = state.withLock { state -> Bool in
      guard case .awaitingSubscription = state.link else { return false }
      state.link = .subscribed(subscription)
      return true
    }
    guard accepted else { return subscription.cancel() }
    if case .weak(let model) = state.withLock({ $0.model }), model.object == nil { return cancel() }
    subscription.request(.unlimited)
  }

  func receive(_ input: Input) -> Subscribers.Demand {
    switch state.withLock({ $0.model }) {
    case .strong(let object):
      object[keyPath: keyPath] = input
    case .unowned(let model):
      model.object[keyPath: keyPath] = input
    case .weak(let model):
      guard let object = model.object else {
        cancel()
        return .none
      }
      object[keyPath: keyPath] = input
    case nil:
      break
    }
    return .none
  }

  func receive(completion: Subscribers.Completion<Never>) {
    let ended = state.withLock { state in
      defer { state = (.ended, nil) }
      return state
    }
    _ = ended
  }

  func cancel() {
    let ended = state.withLock { state in
      defer { state = (.ended, nil) }
      return state
    }
    if case .subscribed(let subscription) = ended.link { subscription.cancel() }
  }
}
#endif
