import Dispatch
import Foundation
import Rill
import RillLoopbackServer

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

// HTTP recipes, run against a loopback HTTP server that the demo starts for each scenario.

/// The session of the network scenarios: ephemeral, so no run depends on a cache.
let demoSession = URLSession(configuration: .ephemeral)

/// Starts the loopback server, or stops the demo with exit status 1 when it cannot.
func startLoopbackServer(slowDelay: Double = 3) -> LoopbackHTTPServer {
  do {
    return try LoopbackHTTPServer(slowDelay: slowDelay)
  } catch {
    print("rill-demo: cannot start the loopback HTTP server: \(error)")
    exit(1)
  }
}

/// The JSON that the server's `/json` route answers, as a timestamp-check API answers.
struct TimeStampCheck: Decodable, Hashable {
  let valid: Bool
}

enum TestFailureCondition: Error {
  case invalidServerResponse
}

/// The error enum that `mapError` folds every failure into.
enum APIError: Error {
  case unknown
  case apiError(reason: String)
  case parserError(reason: String)
  case networkError(from: URLError)
}

extension APIError: CustomStringConvertible {
  var description: String {
    switch self {
    case .unknown: "APIError.unknown"
    case .apiError(let reason): "APIError.apiError(\"\(reason)\")"
    case .parserError(let reason): "APIError.parserError(\"\(reason)\")"
    case .networkError(let error): "APIError.networkError(URLError \(error.code.rawValue))"
    }
  }
}

/// `dataTaskPublisher`, `map { $0.data }`, then `decode` into a `Decodable` struct.
func decodeJSONFromDataTask() {
  let server = startLoopbackServer()
  defer { server.stop() }
  print("  GET /json")
  logUntilCompletion(
    "sink",
    demoSession.dataTaskPublisher(for: server.url("/json"))
      .map { $0.data }
      .decode(type: TimeStampCheck.self, decoder: JSONDecoder())
  )
}

/// `tryMap` inspects the response and throws for any status but 200.
func tryMapOnStatusCode() {
  let server = startLoopbackServer()
  defer { server.stop() }
  for path in ["/json", "/missing"] {
    print("  GET \(path)")
    logUntilCompletion(
      "sink",
      demoSession.dataTaskPublisher(for: server.url(path))
        .tryMap { data, response -> Data in
          guard let httpResponse = response as? HTTPURLResponse, httpResponse.statusCode == 200 else {
            throw TestFailureCondition.invalidServerResponse
          }
          return data
        }
        .decode(type: TimeStampCheck.self, decoder: JSONDecoder())
    )
  }
}

/// Fetches a URL, with `tryMap` on the status code and `mapError` into `APIError`.
func fetch(url: URL) -> AnyPublisher<Data, APIError> {
  URLSession.DataTaskPublisher(request: URLRequest(url: url), session: demoSession)
    .tryMap { data, response in
      guard let httpResponse = response as? HTTPURLResponse else { throw APIError.unknown }
      switch httpResponse.statusCode {
      case 401: throw APIError.apiError(reason: "Unauthorized")
      case 403: throw APIError.apiError(reason: "Resource forbidden")
      case 404: throw APIError.apiError(reason: "Resource not found")
      case 405..<500: throw APIError.apiError(reason: "client error")
      case 500..<600: throw APIError.apiError(reason: "server error")
      default: return data
      }
    }
    .mapError { error in
      if let error = error as? APIError { return error }
      if let urlError = error as? URLError { return APIError.networkError(from: urlError) }
      return APIError.unknown
    }
    .eraseToAnyPublisher()
}

/// Every failure, HTTP status or network error, arrives as one `APIError`.
func mapErrorIntoAPIError() {
  let server = startLoopbackServer()
  defer { server.stop() }
  let requests: [(String, URL)] = [
    ("GET /json", server.url("/json")),
    ("GET /missing", server.url("/missing")),
    ("GET /status/503", server.url("/status/503")),
    ("GET a port where nothing listens", LoopbackHTTPServer.refusedURL()),
  ]
  for (title, url) in requests {
    print("  \(title)")
    logUntilCompletion("sink", fetch(url: url).map { String(decoding: $0, as: UTF8.self) })
  }
}

/// Futures created inside `flatMap` run one step after another, step 2's three in parallel
/// through `Publishers.Zip3`; each step delivers on a serial queue with `receive(on:)`.
func futureFlatMapZip3Sequencing() {
  let server = startLoopbackServer()
  defer { server.stop() }
  let uiQueue = DispatchQueue(label: "rill-demo.ui")
  var stepsDone: [String] = []
  /// A completion-handler call wrapped in a `Future`.
  func createFuturePublisher(step: String) -> AnyPublisher<Bool, any Error> {
    Future<Bool, any Error> { promise in
      // A Future's promise may be called from any thread: here, URLSession's.
      nonisolated(unsafe) let promise = promise
      demoSession.dataTask(with: server.url("/echo/\(step)")) { _, _, error in
        promise(error.map { .failure($0) } ?? .success(true))
      }
      .resume()
    }
    .receive(on: uiQueue)
    .map { _ -> Bool in
      stepsDone.append(step)
      return true
    }
    .eraseToAnyPublisher()
  }
  let coordinatedPipeline = createFuturePublisher(step: "1")
    .handleEvents(receiveOutput: { _ in print("  step 1 done") })
    .flatMap { _ -> AnyPublisher<Bool, any Error> in
      Publishers.Zip3(
        createFuturePublisher(step: "2a"),
        createFuturePublisher(step: "2b"),
        createFuturePublisher(step: "2c")
      )
      .map { _ -> Bool in
        print("  step 2 done: \(stepsDone.dropFirst().sorted().joined(separator: ", ")), in parallel")
        return true
      }
      .eraseToAnyPublisher()
    }
    .flatMap { _ in createFuturePublisher(step: "3") }
    .handleEvents(receiveOutput: { _ in print("  step 3 done") })
    .flatMap { _ in createFuturePublisher(step: "4") }
    .handleEvents(receiveOutput: { _ in print("  step 4 done") })
  logUntilCompletion("sink", coordinatedPipeline)
}
