import Rill
import RillExt

private enum ServerError: Error {
  case failedRequest
}

/// A screen asks a server for a random number each time the user taps a button.
///
/// The second request fails; the failure is shown, and the third tap still sends a request.
///
/// Each request's events are turned into values (`materialize`) inside `flatMap`, so a failed request does not
/// end the stream of taps. `share()` runs each request once for both observers: one watches the numbers
/// (`values()`), the other the errors (`failures()`).
func failedRequestDoesNotEndTheScreen() {
  let answers: [Result<Int, ServerError>] = [.success(17), .failure(.failedRequest), .success(42)]
  var sent = 0
  func fetchRandomNumber() -> AnyPublisher<Int, ServerError> {
    let answer = answers[sent]
    sent += 1
    print("  server: request \(sent)")
    return answer.publisher.eraseToAnyPublisher()
  }

  let taps = PassthroughSubject<Void, Never>()
  let events = taps.flatMap { fetchRandomNumber().materialize() }.share()
  let numbers = log("screen shows number", events.values())
  let errors = log("screen shows error", events.failures())
  for tap in 1...3 {
    print("  user taps the button (\(tap))")
    taps.send(())
  }
  _ = (numbers, errors)
}

/// A publisher that finds zero or one value, handled with `sinkMaybe`: one `switch` over exactly three cases.
func lookUpWithSinkMaybe() {
  let names = [1: "Alice", 2: "Bob"]
  func namePublisher(id: Int) -> AnyMaybePublisher<String, Never> {
    guard let name = names[id] else { return .empty() }
    return .just(name)
  }
  var cancellables: [AnyCancellable] = []
  for id in [1, 3] {
    print("  look up person \(id)")
    namePublisher(id: id)
      .sinkMaybe { result in
        switch result {
        case .finished: print("  no one with id \(id)")
        case .success(let name): print("  found \(name)")
        case .failure(let error): print("  lookup failed: \(error)")
        }
      }
      .store(in: &cancellables)
  }
}
