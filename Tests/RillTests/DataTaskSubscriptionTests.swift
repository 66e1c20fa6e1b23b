import Foundation
import Rill
import RillTestSupport
import Testing

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The data task publisher's subscription against a session that records its calls and completes on command.
@Suite struct DataTaskSubscriptionTests {
  private let request = URLRequest(url: URL(string: "https://example.com")!)

  /// As in Combine, the task is created at the first request and resumed at every request; a cancel cancels it,
  /// and a completion after the cancel is not delivered.
  @Test func everyRequestResumesTheOneTask() {
    let session = ScriptedSession()
    var events: [String] = []
    var subscription: (any Subscription)?
    session.dataTaskPublisher(for: request)
      .subscribe(
        AnySubscriber(
          receiveSubscription: { subscription = $0 },
          receiveValue: { _ in
            events.append("value")
            return .none
          },
          receiveCompletion: { _ in events.append("completion") }
        )
      )
    #expect(session.tasks.isEmpty)
    subscription?.request(.max(2))
    subscription?.request(.max(1))
    expectEqual(session.tasks.count, 1)
    expectEqual(session.tasks.first?.calls, ["resume", "resume"])
    subscription?.cancel()
    subscription?.request(.max(1))
    subscription?.cancel()
    expectEqual(session.tasks.first?.calls, ["resume", "resume", "cancel"])
    let response = URLResponse(url: request.url!, mimeType: nil, expectedContentLength: 0, textEncodingName: nil)
    session.complete(Data(), response, nil)
    #expect(events.isEmpty)
  }

  /// As in Combine, a task that ends with neither a response nor an error fails with `URLError.unknown`.
  @Test func neitherResponseNorErrorIsAnUnknownError() {
    let session = ScriptedSession()
    var completion: Subscribers.Completion<URLError>?
    let cancellable = session.dataTaskPublisher(for: request)
      .sink(receiveCompletion: { completion = $0 }, receiveValue: { _ in })
    session.complete(Data(), nil, nil)
    session.complete(Data(), nil, nil)
    expectEqual(completion, .failure(URLError(.unknown)))
    cancellable.cancel()
  }

  /// The mirror shows the task, the subscriber, the publisher and the demand, as Combine's does.
  @Test func mirrorShowsTaskDownstreamParentAndDemand() {
    let session = ScriptedSession()
    let publisher = session.dataTaskPublisher(for: request)
    var subscription: (any Subscription)?
    publisher.subscribe(AnySubscriber(receiveSubscription: { subscription = $0 }))
    let children = subscription.map { Mirror(reflecting: $0).children.map { $0 } } ?? []
    expectEqual(children.map(\.label), ["task", "downstream", "parent", "demand"])
    #expect(String(describing: children[0].value) == "nil")
    expectEqual(String(describing: children[2].value), String(describing: Optional(publisher)))
    expectEqual(String(describing: children[3].value), "max(0)")
    #expect(subscription.map { String(describing: $0) } == "DataTaskPublisher")
  }
}

/// A data task that records `resume` and `cancel`.
// SAFETY: touched from the test's thread only.
private final class RecordingDataTask: URLSessionDataTask, @unchecked Sendable {
  var calls: [String] = []

  override func resume() {
    calls.append("resume")
  }

  override func cancel() {
    calls.append("cancel")
  }
}

/// A session whose data tasks record their calls and complete when the test says.
// SAFETY: touched from the test's thread only.
private final class ScriptedSession: URLSession, @unchecked Sendable {
  var tasks: [RecordingDataTask] = []
  private var handlers: [@Sendable (Data?, URLResponse?, (any Error)?) -> Void] = []

  init() {
    super.init(configuration: .default)
  }

  override func dataTask(
    with request: URLRequest,
    completionHandler: @escaping @Sendable (Data?, URLResponse?, (any Error)?) -> Void
  ) -> URLSessionDataTask {
    handlers.append(completionHandler)
    let task = RecordingDataTask()
    tasks.append(task)
    return task
  }

  func complete(_ data: Data?, _ response: URLResponse?, _ error: (any Error)?) {
    for handler in handlers { handler(data, response, error) }
  }
}
