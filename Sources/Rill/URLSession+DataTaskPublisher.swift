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
  /// Each subscription starts its own data task at the first request; any HTTP response, a 404 included, is a
  /// value, and only a transport error is a failure. Cancelling the subscription cancels the task.
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
      let subscription = DataTaskSubscription(downstream: AnySubscriber(subscriber), request: request, session: session)
      subscriber.receive(subscription: subscription)
    }
  }
}

// SAFETY: all mutable state is in `state`; the downstream and the task are called outside the lock.
private final class DataTaskSubscription: Subscription, CustomStringConvertible, @unchecked Sendable {
  typealias Downstream = AnySubscriber<URLSession.DataTaskPublisher.Output, URLError>

  private struct State {
    var downstream: Downstream?
    var task: URLSessionDataTask?
    var hasStarted = false
  }

  private let state: FoundationLocked<State>
  private let request: URLRequest
  private let session: URLSession

  init(downstream: Downstream, request: URLRequest, session: URLSession) {
    state = FoundationLocked(State(downstream: downstream))
    self.request = request
    self.session = session
  }

  var description: String { "DataTaskPublisher" }

  func request(_ demand: Subscribers.Demand) {
    precondition(demand > 0, "DataTaskPublisher: a subscriber requested \(demand); demand must be greater than zero")
    let mustStart = state.withLock { state -> Bool in
      guard state.downstream != nil, !state.hasStarted else { return false }
      state.hasStarted = true
      return true
    }
    guard mustStart else { return }
    let task = session.dataTask(with: request) { [weak self] data, response, error in
      self?.finish(data: data, response: response, error: error)
    }
    let cancelled = state.withLock { state -> Bool in
      guard state.downstream != nil else { return true }
      state.task = task
      return false
    }
    if cancelled {
      task.cancel()
    } else {
      task.resume()
    }
  }

  private func finish(data: Data?, response: URLResponse?, error: (any Error)?) {
    let downstream = state.withLock { state -> Downstream? in
      defer {
        state.downstream = nil
        state.task = nil
      }
      return state.downstream
    }
    guard let downstream else { return }
    if let error {
      downstream.receive(completion: .failure(Self.urlError(error)))
    } else if let response {
      _ = downstream.receive((data ?? Data(), response))
      downstream.receive(completion: .finished)
    } else {
      downstream.receive(completion: .failure(URLError(.badServerResponse)))
    }
  }

  private static func urlError(_ error: any Error) -> URLError {
    if let error = error as? URLError { return error }
    let error = error as NSError
    guard error.domain == NSURLErrorDomain else { return URLError(.unknown) }
    return URLError(URLError.Code(rawValue: error.code) ?? .unknown, userInfo: error.userInfo)
  }

  func cancel() {
    let task = state.withLock { state -> URLSessionDataTask? in
      defer {
        state.downstream = nil
        state.task = nil
      }
      return state.task
    }
    task?.cancel()
  }
}
