import Dispatch
import Foundation
import Rill
import RillLoopbackServer
import RillTestSupport
import RillTesting
import Testing

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Everyday networking pipelines (decoding a response, checking its status, normalising errors, sequencing
/// requests, fetching one URL at a time, recovering from a bad URL), run end to end against the loopback server.
@Suite(.serialized) struct RecipeTests {
  private struct TimeStampCheck: Decodable, Hashable {
    let valid: Bool
  }

  private enum TestFailureCondition: Error {
    case invalidServerResponse
  }

  private enum APIError: Error, Equatable {
    case networkError(code: URLError.Code)
    case apiError(reason: String)
    case parserError
    case unknown
  }

  private static let session = URLSession(configuration: .ephemeral)

  /// The response that `replaceError(with:)` puts in place of a failed request; Foundation on Linux has no
  /// argument-less `URLResponse()`.
  private static let emptyResponse = URLResponse(
    url: URL(string: "about:blank")!,
    mimeType: nil,
    expectedContentLength: 0,
    textEncodingName: nil
  )

  /// "Making a network request": `map { $0.data }` then decode the JSON.
  @Test func decodeJSONFromDataTask() throws {
    let server = try LoopbackHTTPServer()
    defer { server.stop() }
    let recorder = FoundationRecorder<TimeStampCheck>()
    var failure: (any Error)?
    let cancellable = Self.session.dataTaskPublisher(for: server.url("/json"))
      .map { $0.data }
      .decode(type: TimeStampCheck.self, decoder: JSONDecoder())
      .sink(
        receiveCompletion: {
          if case .failure(let error) = $0 { failure = error }
          recorder.finish()
        },
        receiveValue: recorder.append
      )
    #expect(recorder.wait())
    expectEqual(recorder.values, [TimeStampCheck(valid: true)])
    #expect(failure == nil)
    cancellable.cancel()
  }

  /// "Stricter request processing": `tryMap` turns a non-200 status into an error.
  @Test func tryMapOnStatusCode() throws {
    let server = try LoopbackHTTPServer()
    defer { server.stop() }
    func check(_ path: String) -> Result<TimeStampCheck, any Error>? {
      let recorder = FoundationRecorder<Result<TimeStampCheck, any Error>>()
      let cancellable = Self.session.dataTaskPublisher(for: server.url(path))
        .tryMap { data, response -> Data in
          guard let httpResponse = response as? HTTPURLResponse, httpResponse.statusCode == 200 else {
            throw TestFailureCondition.invalidServerResponse
          }
          return data
        }
        .decode(type: TimeStampCheck.self, decoder: JSONDecoder())
        .sink(
          receiveCompletion: {
            if case .failure(let error) = $0 { recorder.append(.failure(error)) }
            recorder.finish()
          },
          receiveValue: { recorder.append(.success($0)) }
        )
      _ = recorder.wait()
      cancellable.cancel()
      return recorder.values.first
    }
    #expect(try check("/json")?.get() == TimeStampCheck(valid: true))
    guard case .failure(let error)? = check("/missing") else {
      Issue.record("a 404 must fail")
      return
    }
    #expect(error is TestFailureCondition)
  }

  /// "Normalizing errors": `mapError` folds every failure into one API error enum.
  @Test func mapErrorIntoAPIError() throws {
    let server = try LoopbackHTTPServer()
    defer { server.stop() }
    func fetch(_ url: URL) -> Result<TimeStampCheck, APIError>? {
      let recorder = FoundationRecorder<Result<TimeStampCheck, APIError>>()
      let cancellable = Self.session.dataTaskPublisher(for: url)
        .tryMap { data, response -> Data in
          guard let httpResponse = response as? HTTPURLResponse else { throw APIError.unknown }
          if httpResponse.statusCode == 401 { throw APIError.apiError(reason: "Unauthorized") }
          if httpResponse.statusCode == 404 { throw APIError.apiError(reason: "Resource not found") }
          if (500..<600).contains(httpResponse.statusCode) { throw APIError.apiError(reason: "Internal Server Error") }
          return data
        }
        .tryMap { data -> TimeStampCheck in
          do {
            return try JSONDecoder().decode(TimeStampCheck.self, from: data)
          } catch {
            throw APIError.parserError
          }
        }
        .mapError { error -> APIError in
          if let error = error as? APIError { return error }
          if let urlError = error as? URLError { return .networkError(code: urlError.code) }
          return .unknown
        }
        .sink(
          receiveCompletion: {
            if case .failure(let error) = $0 { recorder.append(.failure(error)) }
            recorder.finish()
          },
          receiveValue: { recorder.append(.success($0)) }
        )
      _ = recorder.wait()
      cancellable.cancel()
      return recorder.values.first
    }
    expectEqual(fetch(server.url("/json")), .success(TimeStampCheck(valid: true)))
    expectEqual(fetch(server.url("/missing")), .failure(.apiError(reason: "Resource not found")))
    expectEqual(fetch(server.url("/status/503")), .failure(.apiError(reason: "Internal Server Error")))
    expectEqual(fetch(server.url("/echo/x")), .failure(.parserError))
    guard case .failure(.networkError)? = fetch(LoopbackHTTPServer.refusedURL()) else {
      Issue.record("a refused connection must become a network error")
      return
    }
  }

  /// "Sequencing asynchronous operations": futures created in `flatMap` run in order, the three of
  /// step 2 in parallel through `Publishers.Zip3`, each delivering on a serial queue with `receive(on:)`.
  @Test func futureFlatMapZip3Sequencing() throws {
    let server = try LoopbackHTTPServer()
    defer { server.stop() }
    let queue = DispatchQueue(label: "rill.tests.recipe.ui")
    let log = FoundationRecorder<String>()
    func step(_ name: String) -> AnyPublisher<Bool, any Error> {
      Future<Bool, any Error> { promise in
        // A completion-handler API wrapped in a Future: the promise is called on URLSession's thread.
        nonisolated(unsafe) let promise = promise
        let task = Self.session.dataTask(with: server.url("/echo/\(name)")) { _, _, error in
          if let error {
            promise(.failure(error))
          } else {
            promise(.success(true))
          }
        }
        task.resume()
      }
      .receive(on: queue)
      .map { value -> Bool in
        log.append(name)
        return value
      }
      .eraseToAnyPublisher()
    }
    let done = FoundationRecorder<Bool>()
    let cancellable = step("1")
      .flatMap { _ -> AnyPublisher<Bool, any Error> in
        Publishers.Zip3(step("2a"), step("2b"), step("2c"))
          .map { _ in true }
          .eraseToAnyPublisher()
      }
      .flatMap { _ in step("3") }
      .flatMap { _ in step("4") }
      .sink(receiveCompletion: { _ in done.finish() }, receiveValue: done.append)
    #expect(done.wait())
    expectEqual(done.values, [true])
    let order = log.values
    expectEqual(order.count, 6)
    expectEqual(order.first, "1")
    expectEqual(Set(order.dropFirst().prefix(3)), ["2a", "2b", "2c"])
    expectEqual(Array(order.suffix(2)), ["3", "4"])
    cancellable.cancel()
  }

  /// "Exerting backpressure": `flatMap(maxPublishers: .max(1))` fetches one URL at a time, so the
  /// results keep the URLs' order even when the first is the slowest.
  @Test func flatMapMaxPublishersKeepsOrder() throws {
    let server = try LoopbackHTTPServer(slowDelay: 0.3)
    defer { server.stop() }
    let urls = [server.url("/slow"), server.url("/echo/b"), server.url("/echo/c")]
    let recorder = FoundationRecorder<String>()
    let cancellable = urls.publisher
      .setFailureType(to: URLError.self)
      .flatMap(maxPublishers: .max(1)) { url in
        Self.session.dataTaskPublisher(for: url)
      }
      .map { String(decoding: $0.data, as: UTF8.self) }
      .sink(receiveCompletion: { _ in recorder.finish() }, receiveValue: recorder.append)
    #expect(recorder.wait())
    #expect(recorder.values == [#"{"valid":false}"#, #"{"value":"b"}"#, #"{"value":"c"}"#])
    expectEqual(server.requests, ["/slow", "/echo/b", "/echo/c"])
    cancellable.cancel()
  }

  /// "Failing without terminating": catching inside the `flatMap` keeps a bad URL from ending the
  /// whole pipeline.
  @Test func failingWithoutTerminating() throws {
    let server = try LoopbackHTTPServer()
    defer { server.stop() }
    let urls = [server.url("/echo/manny"), LoopbackHTTPServer.refusedURL(), server.url("/echo/jack")]
    let recorder = FoundationRecorder<Result<Data, any Error>>()
    var completion: Subscribers.Completion<Never>?
    let cancellable = urls.publisher
      .flatMap(maxPublishers: .max(1)) { url in
        Self.session.dataTaskPublisher(for: url)
          .map { Result<Data, any Error>.success($0.data) }
          .catch { Just(Result<Data, any Error>.failure($0)) }
      }
      .sink(
        receiveCompletion: {
          completion = $0
          recorder.finish()
        },
        receiveValue: recorder.append
      )
    #expect(recorder.wait())
    let bodies = recorder.values.map { result -> String in
      switch result {
      case .success(let data): String(decoding: data, as: UTF8.self)
      case .failure: "failure"
      }
    }
    #expect(bodies == [#"{"value":"manny"}"#, "failure", #"{"value":"jack"}"#])
    expectEqual(completion, .finished)
    cancellable.cancel()

    let replaced = FoundationRecorder<Int>()
    let second = urls.publisher
      .flatMap(maxPublishers: .max(1)) { url in
        Self.session.dataTaskPublisher(for: url)
          .replaceError(with: (data: Data(), response: Self.emptyResponse))
      }
      .sink(receiveCompletion: { _ in replaced.finish() }, receiveValue: { replaced.append($0.data.count) })
    #expect(replaced.wait())
    expectEqual(replaced.values.count, 3)
    expectEqual(replaced.values[1], 0)
    second.cancel()
  }

  /// With `maxPublishers: .max(1)`, the second delayed `Just` is not even created until the first has
  /// published, so the dates come one delay apart; virtual time makes it exact.
  @Test func maxPublishersWithDelayShowsBackpressureInTime() {
    func run(_ maxPublishers: Subscribers.Demand) -> [String] {
      let scheduler = TestScheduler()
      var events: [String] = []
      let cancellable = [1, 2].publisher
        .flatMap(maxPublishers: maxPublishers) { value in
          Just("\(value) made at \(scheduler.now)").delay(for: 10, scheduler: scheduler)
        }
        .sink { events.append("\($0), out at \(scheduler.now)") }
      scheduler.advance(by: 100)
      cancellable.cancel()
      return events
    }
    expectEqual(run(.max(1)), ["1 made at 0, out at 10", "2 made at 10, out at 20"])
    expectEqual(run(.unlimited), ["1 made at 0, out at 10", "2 made at 0, out at 10"])
  }

  /// The same on a real queue: the same backpressure, with coarse timing only.
  @Test func maxPublishersWithDelayOnDispatchQueue() {
    let recorder = FoundationRecorder<DispatchTime>()
    let cancellable = [1, 2].publisher
      .flatMap(maxPublishers: .max(1)) { _ in
        Just(DispatchTime.now()).delay(for: .milliseconds(60), scheduler: DispatchQueue.global())
      }
      .sink(receiveCompletion: { _ in recorder.finish() }, receiveValue: recorder.append)
    #expect(recorder.wait())
    let dates = recorder.values
    expectEqual(dates.count, 2)
    if dates.count == 2 {
      #expect(dates[1].uptimeNanoseconds - dates[0].uptimeNanoseconds >= 50_000_000)
    }
    cancellable.cancel()
  }
}
