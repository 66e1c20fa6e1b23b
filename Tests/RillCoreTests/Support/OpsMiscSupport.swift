import RillCore
import RillTesting

/// An error for the error-handling, sharing, buffering and debugging operator tests.
struct OpsMiscError: Error, Equatable, CustomStringConvertible {
  let code: Int

  init(_ code: Int = 1) {
    self.code = code
  }

  var description: String { "OpsMiscError(\(code))" }
}

/// An event a ``TestSubscriber`` received, as ``TestSubscriber/opsMiscEvents`` renders it.
enum OpsMiscEvent<Value: Equatable>: Equatable {
  case subscription
  case value(Value)
  case finished
  /// A failure, recorded by its description.
  case failure(String)
}

extension TestSubscriber where Input: Equatable {
  /// The events received, with each failure recorded by its description, so that they compare for any failure
  /// type, `any Error` included.
  var opsMiscEvents: [OpsMiscEvent<Input>] {
    events.map { event in
      switch event {
      case .subscription: return .subscription
      case .value(let value): return .value(value)
      case .completion(.finished): return .finished
      case .completion(.failure(let error)): return .failure("\(error)")
      }
    }
  }
}

/// A hand-driven upstream that records every subscription and the demand and cancellation it receives.
///
/// Each `subscribe` creates a new ``OpsMiscSubscription``; `send` and `complete` go to the latest subscriber.
final class OpsMiscUpstream<Output, Failure: Error>: Publisher {
  private(set) var subscriptions: [OpsMiscSubscription] = []
  private var subscribers: [AnySubscriber<Output, Failure>] = []
  var onSubscribe: ((OpsMiscUpstream) -> Void)?
  /// Called with each new subscription before the subscriber receives it.
  var prepareSubscription: ((OpsMiscSubscription) -> Void)?

  init(onSubscribe: ((OpsMiscUpstream) -> Void)? = nil) {
    self.onSubscribe = onSubscribe
  }

  func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
    let subscription = OpsMiscSubscription()
    prepareSubscription?(subscription)
    subscriptions.append(subscription)
    subscribers.append(AnySubscriber(subscriber))
    subscriber.receive(subscription: subscription)
    onSubscribe?(self)
  }

  /// The latest subscription.
  var subscription: OpsMiscSubscription { subscriptions[subscriptions.count - 1] }

  /// All demand requested from the latest subscription.
  var requests: [Subscribers.Demand] { subscription.requests }

  @discardableResult
  func send(_ value: Output) -> Subscribers.Demand {
    subscribers[subscribers.count - 1].receive(value)
  }

  func complete(_ completion: Subscribers.Completion<Failure> = .finished) {
    subscribers[subscribers.count - 1].receive(completion: completion)
  }

  /// Hands a second subscription to the latest subscriber.
  func sendExtraSubscription() -> OpsMiscSubscription {
    let extra = OpsMiscSubscription()
    subscribers[subscribers.count - 1].receive(subscription: extra)
    return extra
  }

  /// Drops the references to subscribers so that memory tests can observe them being released.
  func releaseSubscribers() {
    subscribers = []
  }
}

/// A subscription that records the demand it is asked for and whether it was cancelled.
final class OpsMiscSubscription: Subscription, CustomStringConvertible {
  var description: String { "OpsMiscSubscription" }

  private(set) var requests: [Subscribers.Demand] = []
  private(set) var cancelCount = 0
  var onRequest: ((Subscribers.Demand) -> Void)?

  var isCancelled: Bool { cancelCount > 0 }

  func request(_ demand: Subscribers.Demand) {
    requests.append(demand)
    onRequest?(demand)
  }

  func cancel() {
    cancelCount += 1
  }
}

/// A weak reference, for checking that a pipeline's objects are freed.
final class OpsMiscWeakBox {
  weak var object: AnyObject?

  init(_ object: AnyObject) {
    self.object = object
  }
}

/// Builds objects in `body`, drops the strong references, and reports whether all of them were freed.
func opsMiscAllReleased(_ body: () -> [AnyObject]) -> Bool {
  let boxes = body().map(OpsMiscWeakBox.init)
  return boxes.allSatisfy { $0.object == nil }
}

/// A text stream that keeps what is written, for `print(_:to:)` tests.
final class OpsMiscTextStream: TextOutputStream {
  private(set) var text = ""

  func write(_ string: String) {
    text += string
  }

  /// The lines written so far.
  var lines: [String] { text.split(separator: "\n", omittingEmptySubsequences: false).dropLast().map(String.init) }
}
