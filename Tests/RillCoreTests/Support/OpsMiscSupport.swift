import RillCore
import RillTestSupport
import RillTesting
import Testing

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

extension TestPublisher {
  /// Sends a value to the latest subscriber only, and returns the demand it returned.
  ///
  /// `send(_:)` reaches every subscriber so far. A retry subscribes the same subscriber again after a failure, and
  /// a connectable publisher that reconnects or serves each subscriber on its own leaves earlier subscribers in
  /// place; these tests talk to the one a publisher still serves, as a publisher that let go of the others would.
  @discardableResult
  func sendToLatest(_ value: Output) -> Subscribers.Demand {
    subscribers.last?.receive(value) ?? .none
  }

  /// Sends a completion to the latest subscriber only; see ``sendToLatest(_:)``.
  func sendToLatest(completion: Subscribers.Completion<Failure>) {
    subscribers.last?.receive(completion: completion)
  }
}

/// A publisher that runs `beforeSubscribing` with each subscriber, then subscribes it to `upstream`.
///
/// `TestPublisher` hands each subscriber its subscription at once; this lets a test act in between, while the
/// operator waits for its subscription: send a value before it, or cancel downstream.
struct BeforeSubscribing<Upstream: Publisher>: Publisher {
  typealias Output = Upstream.Output
  typealias Failure = Upstream.Failure

  let upstream: Upstream
  let beforeSubscribing: (AnySubscriber<Output, Failure>) -> Void

  init(_ upstream: Upstream, beforeSubscribing: @escaping (AnySubscriber<Output, Failure>) -> Void) {
    self.upstream = upstream
    self.beforeSubscribing = beforeSubscribing
  }

  func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
    beforeSubscribing(AnySubscriber(subscriber))
    upstream.receive(subscriber: subscriber)
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

/// Checks that a subscriber of the publisher `make` builds on a subject may request and send from inside
/// `receive`: on 1 it asks for one more and sends 2, which arrives after 1; 3 then finds no demand.
func expectRequestAndSendFromInsideReceive<P: Publisher>(
  _ make: (PassthroughSubject<Int, Never>) -> P,
  sourceLocation: SourceLocation = #_sourceLocation
) where P.Output == Int, P.Failure == Never {
  let subject = PassthroughSubject<Int, Never>()
  let publisher = make(subject)
  let recorder = TestSubscriber<Int, Never>(
    initialDemand: .max(1),
    onValue: { recorder, value in
      if value == 1 {
        recorder.request(.max(1))
        subject.send(2)
      }
      return .none
    }
  )
  publisher.subscribe(recorder)
  subject.send(1)
  subject.send(3)
  expectEqual(recorder.values, [1, 2], sourceLocation: sourceLocation)
}

/// Checks that a subscriber of the connectable publisher `make` builds on a subject may request, send and cancel
/// from inside `receive`: on 1 it asks for two more and sends 2, which arrives after 1; on 3 it cancels, so 4 does
/// not arrive.
func expectConnectableHandlesCallsFromInsideReceive<C: ConnectablePublisher>(
  _ make: (PassthroughSubject<Int, Never>) -> C,
  sourceLocation: SourceLocation = #_sourceLocation
) where C.Output == Int, C.Failure == Never {
  let subject = PassthroughSubject<Int, Never>()
  let connectable = make(subject)
  let recorder = TestSubscriber<Int, Never>(
    initialDemand: .max(1),
    onValue: { recorder, value in
      switch value {
      case 1:
        recorder.request(.max(2))
        subject.send(2)
      case 2: break
      default: recorder.cancel()
      }
      return .none
    }
  )
  connectable.subscribe(recorder)
  let connection = connectable.connect()
  subject.send(1)
  subject.send(3)
  subject.send(4)
  expectEqual(recorder.values, [1, 2, 3], sourceLocation: sourceLocation)
  connection.cancel()
}
