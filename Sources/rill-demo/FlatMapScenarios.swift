import Rill

/// Values of inner publishers interleave in the one stream downstream sees.
func flatMapInterleaving() {
  let taps = PassthroughSubject<String, Never>()
  var timers: [String: PassthroughSubject<Int, Never>] = [:]
  let cancellable = log(
    "downstream",
    taps.flatMap { name -> AnyPublisher<String, Never> in
      let ticks = PassthroughSubject<Int, Never>()
      timers[name] = ticks
      return ticks.map { "\(name) tick \($0)" }.eraseToAnyPublisher()
    }
  )
  taps.send("A")
  timers["A"]?.send(1)
  taps.send("B")
  timers["B"]?.send(1)
  timers["A"]?.send(2)
  timers["B"]?.send(2)
  timers["A"]?.send(completion: .finished)
  print("  (A finished: its completion is swallowed)")
  timers["B"]?.send(3)
  _ = cancellable
}

/// `Empty` is the publisher that means "do nothing" when flatMap's closure must return something.
func flatMapEmptyDoesNothing() {
  let taps = PassthroughSubject<Void, Never>()
  var alreadyProduced = false
  let cancellable = log(
    "downstream",
    taps.flatMap { _ -> AnyPublisher<Int, Never> in
      guard !alreadyProduced else {
        print("  tap: already produced, returning Empty")
        return Empty<Int, Never>(completeImmediately: true).eraseToAnyPublisher()
      }
      alreadyProduced = true
      print("  tap: producing 1, 2, 3")
      return [1, 2, 3].publisher.eraseToAnyPublisher()
    }
  )
  taps.send()
  taps.send()
  taps.send()
  _ = cancellable
}

enum FetchError: Error, CustomStringConvertible {
  case badHost(String)

  var description: String {
    switch self {
    case .badHost(let host): "bad host \(host)"
    }
  }
}

/// A failure caught inside flatMap's inner pipeline does not end the outer one.
func flatMapFailingWithoutTerminating() {
  func fetch(_ name: String) -> AnyPublisher<String, FetchError> {
    name == "moe.jpg"
      ? Fail(error: FetchError.badHost("www.apethh.com")).eraseToAnyPublisher()
      : Just("data of \(name)").setFailureType(to: FetchError.self).eraseToAnyPublisher()
  }
  let names = ["manny.jpg", "moe.jpg", "jack.jpg"]

  print("  without catch, the failed fetch of moe.jpg ends everything, and jack.jpg is never fetched:")
  let failing = log("    downstream", names.publisher.setFailureType(to: FetchError.self).flatMap { fetch($0) })

  print("  with catch inside flatMap, moe.jpg gets a placeholder and the others still arrive:")
  let resilient = log(
    "    downstream",
    names.publisher.flatMap { name in
      fetch(name).catch { _ in Just("placeholder for \(name)") }
    }
  )
  _ = (failing, resilient)
}

/// `maxPublishers: .max(1)` asks upstream for its next value only when the current inner finishes.
func flatMapBackpressure() {
  var inners: [PassthroughSubject<String, Never>] = []
  let cancellable = log(
    "downstream",
    [1, 2, 3].publisher
      .handleEvents(
        receiveOutput: { print("  upstream: sends \($0)") },
        receiveRequest: { print("  upstream: asked for \($0)") }
      )
      .flatMap(maxPublishers: .max(1)) { value -> PassthroughSubject<String, Never> in
        let inner = PassthroughSubject<String, Never>()
        inners.append(inner)
        print("  flatMap: inner publisher for \(value) created")
        return inner
      }
  )
  var next = 0
  while next < inners.count {
    inners[next].send("result \(next + 1)")
    inners[next].send(completion: .finished)
    next += 1
  }
  _ = cancellable
}
