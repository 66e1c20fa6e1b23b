import Dispatch
import Foundation
import Rill
import RillLoopbackServer
import RillTesting

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

// Scenarios that need a network, a run loop or real time; the HTTP ones run against the loopback server.

/// `flatMap(maxPublishers: .max(1))` fetches one URL at a time, so the results keep the URLs'
/// order even though the first answers last.
func flatMapMaxPublishersKeepsOrder() {
  let server = startLoopbackServer(slowDelay: 0.2)
  defer { server.stop() }
  let urls = [server.url("/slow"), server.url("/echo/b"), server.url("/echo/c")]
  print("  /slow answers after 0.2 s, the /echo routes at once")
  logUntilCompletion(
    "sink",
    urls.publisher
      .setFailureType(to: URLError.self)
      .flatMap(maxPublishers: .max(1)) { url in
        demoSession.dataTaskPublisher(for: url)
      }
      .map { String(decoding: $0.data, as: UTF8.self) }
  )
  print("  the server saw, in order: \(server.requests.joined(separator: ", "))")
}

/// A failing inner publisher ends the whole pipeline, unless the failure is caught inside `flatMap`.
func networkFailingWithoutTerminating() {
  let server = startLoopbackServer()
  defer { server.stop() }
  let urls = [server.url("/echo/manny"), LoopbackHTTPServer.refusedURL(), server.url("/echo/jack")]
  print("  the second URL is a port where nothing listens")

  print("  without catch, its failure ends everything:")
  logUntilCompletion(
    "    sink",
    urls.publisher
      .setFailureType(to: URLError.self)
      .flatMap(maxPublishers: .max(1)) { url in
        demoSession.dataTaskPublisher(for: url)
      }
      .map { String(decoding: $0.data, as: UTF8.self) }
      .mapError { DemoFailure(description: "URLError \($0.code.rawValue)") }
  )

  print("  replaceError inside flatMap, with empty data:")
  logUntilCompletion(
    "    sink",
    urls.publisher
      .flatMap(maxPublishers: .max(1)) { url in
        demoSession.dataTaskPublisher(for: url)
          .replaceError(
            with: (
              data: Data(),
              response: URLResponse(url: url, mimeType: nil, expectedContentLength: 0, textEncodingName: nil)
            )
          )
      }
      .map { "\($0.data.count) bytes" }
  )

  print("  catch inside flatMap, into a Result:")
  logUntilCompletion(
    "    sink",
    urls.publisher
      .flatMap(maxPublishers: .max(1)) { url in
        demoSession.dataTaskPublisher(for: url)
          .map { Result<Data, any Error>.success($0.data) }
          .catch { Just(Result<Data, any Error>.failure($0)) }
      }
      .map { result -> String in
        switch result {
        case .success(let data): "success \(String(decoding: data, as: UTF8.self))"
        case .failure(let error): "failure \(type(of: error))"
        }
      }
  )
}

/// A failure that prints as its text.
struct DemoFailure: Error, CustomStringConvertible {
  let description: String
}

/// `Timer.publish(every:on:in:).autoconnect().scan` counts the firings of a timer on the run loop.
func timerAutoconnectScan() {
  var counts: [Int] = []
  var cancellable: AnyCancellable?
  cancellable = Timer.publish(every: 0.01, on: .current, in: .default)
    .autoconnect()
    .scan(0) { count, _ in count + 1 }
    .sink { count in
      guard counts.count < 3 else { return }
      counts.append(count)
      print("  sink: value \(count)")
      if counts.count == 3 {
        print("  sink: cancels after three firings")
        cancellable?.cancel()
      }
    }
  let deadline = Date().addingTimeInterval(10)
  while counts.count < 3 && Date() < deadline {
    _ = RunLoop.current.run(mode: .default, before: Date().addingTimeInterval(0.01))
  }
  guard counts.count == 3 else {
    print("rill-demo: the timer did not fire three times within ten seconds")
    exit(1)
  }
  cancellable = nil
}

/// With `maxPublishers: .max(1)`, the second delayed `Just` is not even created until the first has
/// published; virtual time shows the dates exactly, then a real queue shows the same gap.
func maxPublishersWithDelay() {
  for maxPublishers in [Subscribers.Demand.unlimited, .max(1)] {
    print("  flatMap(maxPublishers: \(maxPublishers)), each Just delayed by 10 ticks of virtual time:")
    let scheduler = TestScheduler()
    let cancellable = [1, 2].publisher
      .flatMap(maxPublishers: maxPublishers) { value in
        Just("Just(\(value)) made at \(scheduler.now)").delay(for: 10, scheduler: scheduler)
      }
      .sink { print("    sink: \($0), out at \(scheduler.now)") }
    scheduler.advance(by: 100)
    cancellable.cancel()
  }

  print("  flatMap(maxPublishers: .max(1)), each Just(Date()) delayed by 60 ms on DispatchQueue.global():")
  var dates: [Date] = []
  let done = DispatchSemaphore(value: 0)
  let cancellable = [1, 2].publisher
    .flatMap(maxPublishers: .max(1)) { _ in
      Just(Date()).delay(for: .milliseconds(60), scheduler: DispatchQueue.global())
    }
    .sink(receiveCompletion: { _ in done.signal() }, receiveValue: { dates.append($0) })
  waitOrExit(done, for: "the delayed Justs")
  cancellable.cancel()
  guard dates.count == 2 else {
    print("rill-demo: expected 2 dates, got \(dates.count)")
    exit(1)
  }
  let gap = dates[1].timeIntervalSince(dates[0])
  print("    sink: 2 dates; the second made at least 50 ms after the first: \(gap >= 0.05 ? "yes" : "no")")
}
