public import Foundation
public import RillCore

#if canImport(FoundationNetworking)
public import FoundationNetworking
#endif

extension URLSession {
  /// Returns a publisher that wraps a URL session data task for a given URL.
  ///
  /// ```
  /// dataTaskPublisher(for: url):   ---(data, response)|
  /// ```
  ///
  /// - Parameter url: The URL for which to create a data task.
  /// - Returns: A publisher that wraps a data task for the URL.
  public func dataTaskPublisher(for url: URL) -> URLSession.DataTaskPublisher {
    DataTaskPublisher(request: URLRequest(url: url), session: self)
  }

  /// Returns a publisher that wraps a URL session data task for a given URL request.
  ///
  /// ```
  /// dataTaskPublisher(for: request):   ---(data, response)|
  /// ```
  ///
  /// - Parameter request: The URL request for which to create a data task.
  /// - Returns: A publisher that wraps a data task for the URL request.
  public func dataTaskPublisher(for request: URLRequest) -> URLSession.DataTaskPublisher {
    DataTaskPublisher(request: request, session: self)
  }

  /// A publisher that delivers the results of performing URL session data tasks.
  ///
  /// ```
  /// success:   ---(data, response)|
  /// failure:   ---^
  /// ```
  ///
  /// Each subscription creates its own data task at the first request and, as in Combine, resumes it at every
  /// request; any HTTP response, a 404 included, is a value, and only a transport error is a failure.
  /// Cancelling the subscription cancels the task.
  public struct DataTaskPublisher: Publisher, Sendable {
    public typealias Output = (data: Data, response: URLResponse)
    public typealias Failure = URLError

    /// The URL request performed by the data task associated with this publisher.
    public let request: URLRequest

    /// The URL session that performs the data task associated with this publisher.
    public let session: URLSession

    /// Creates a data task publisher from the provided URL request and URL session.
    public init(request: URLRequest, session: URLSession) {
      self.request = request
      self.session = session
    }

    public func receive<S: Subscriber>(subscriber: S) where S.Failure == URLError, S.Input == Output {
      subscriber.receive(subscription: DataTaskSubscription(downstream: subscriber, parent: self))
    }
  }
}

// SAFETY: all mutable state is in `state`; the downstream, the session and the task are called outside the lock.
private final class DataTaskSubscription<Downstream: Subscriber>: Subscription, DataTaskFinishing,
  CombineDescribable, @unchecked Sendable
where Downstream.Input == URLSession.DataTaskPublisher.Output, Downstream.Failure == URLError {
  /// Everything is dropped once the subscription ends (the task completed, or a cancel): `parent` is `nil` then.
  private struct State {
    var parent: URLSession.DataTaskPublisher?
    var downstream: Downstream?
    var demand = Subscribers.Demand.none
    var task: URLSessionDataTask?

    /// Drops everything; returns what it held, for the caller to release after unlocking.
    mutating func terminate() -> State {
      defer { self = State(parent: nil, downstream: nil) }
      return self
    }
  }

  private let state: Locked<State>

  init(downstream: Downstream, parent: URLSession.DataTaskPublisher) {
    state = Locked(State(parent: parent, downstream: downstream))
  }

  var description: String { "DataTaskPublisher" }

  var customMirror: Mirror {
    let (task, downstream, parent, demand) = state.withLock { ($0.task, $0.downstream, $0.parent, $0.demand) }
    let children: [(label: String?, value: Any)] = [
      ("task", task as Any),
      ("downstream", downstream as Any),
      ("parent", parent as Any),
      ("demand", demand),
    ]
    return Mirror(self, children: children)
  }

  func request(_ demand: Subscribers.Demand) {
    precondition(demand > 0, "DataTaskPublisher: a subscriber requested \(demand); demand must be greater than zero")
    guard let (parent, existing) = state.withLock({ state in state.parent.map { ($0, state.task) } }) else { return }
    // The task is created once, outside the lock (the session may call out); a concurrent request that created
    // one first wins, and the other task is never resumed.
    // The completion handler sees the subscription through a non-generic protocol: Foundation's handler is
    // `@Sendable`, and the subscriber's type is not.
    weak let target: (any DataTaskFinishing)? = self
    let created =
      existing == nil
      ? parent.session.dataTask(with: parent.request) { data, response, error in
        target?.finish(data: data, response: response, error: error)
      } : nil
    let task = state.withLock { state -> URLSessionDataTask? in
      guard state.parent != nil else { return nil }
      if state.task == nil { state.task = created }
      state.demand += demand
      return state.task
    }
    task?.resume()
  }

  func finish(data: Data?, response: URLResponse?, error: (any Error)?) {
    let ended = state.withLock { state -> State? in
      guard state.demand > 0, state.parent != nil, state.downstream != nil else { return nil }
      return state.terminate()
    }
    guard let downstream = ended?.downstream else { return }
    if let error {
      downstream.receive(completion: .failure(Self.urlError(error)))
    } else if let response {
      _ = downstream.receive((data ?? Data(), response))
      downstream.receive(completion: .finished)
    } else {
      downstream.receive(completion: .failure(URLError(.unknown)))
    }
  }

  private static func urlError(_ error: any Error) -> URLError {
    if let error = error as? URLError { return error }
    let error = error as NSError
    guard error.domain == NSURLErrorDomain else { return URLError(.unknown) }
    return URLError(URLError.Code(rawValue: error.code) ?? .unknown, userInfo: error.userInfo)
  }

  func cancel() {
    // What the subscription held, the subscriber included, is released after unlocking.
    let ended = state.withLock { state -> State? in
      guard state.parent != nil else { return nil }
      return state.terminate()
    }
    ended?.task?.cancel()
  }
}

/// What a data task's completion handler calls.
private protocol DataTaskFinishing: AnyObject, Sendable {
  /// Delivers the task's result, once, if the subscription is still waiting for it.
  func finish(data: Data?, response: URLResponse?, error: (any Error)?)
}
