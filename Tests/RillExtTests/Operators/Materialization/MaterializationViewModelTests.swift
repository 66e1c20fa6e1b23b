import RillExt
import RillTestSupport
import RillTesting
import Testing

/// A materialization scenario: a screen asks a server for a random number each time the user taps a
/// button. A request can fail; the failure must show on screen, and the next tap must still send a request.

private enum RandomDotOrgError: Error, Equatable {
  case failedRequest
}

/// What the screen shows.
private enum DataLoadState: Equatable {
  case idle
  case loading
  case loaded(Int)
  case failed(RandomDotOrgError)
}

/// A fake server whose requests stay open until the test answers them.
private final class FakeRandomServer {
  private(set) var requests: [PassthroughSubject<Int, RandomDotOrgError>] = []

  func fetch() -> AnyPublisher<Int, RandomDotOrgError> {
    let request = PassthroughSubject<Int, RandomDotOrgError>()
    requests.append(request)
    return request.eraseToAnyPublisher()
  }

  func answer(_ index: Int, with number: Int) {
    requests[index].send(number)
    requests[index].send(completion: .finished)
  }

  func fail(_ index: Int) {
    requests[index].send(completion: .failure(.failedRequest))
  }
}

private final class RandomNumberViewModel: ObservableObject {
  @Published private(set) var state = DataLoadState.idle

  /// Sent when the user taps the button.
  let randomNumberPing = PassthroughSubject<Void, Never>()

  /// The numbers that arrived, one per successful request.
  let numbers: AnyPublisher<Int, Never>

  /// The errors of the failed requests.
  let errors: AnyPublisher<RandomDotOrgError, Never>

  private var subscriptions = Set<AnyCancellable>()

  init(fetch: @escaping () -> AnyPublisher<Int, RandomDotOrgError>) {
    // Each request is materialized inside flatMap, so its failure is a value and the outer stream lives on.
    // share() runs the requests once for every observer of the events.
    let events =
      randomNumberPing
      .flatMap { fetch().materialize() }
      .share()
    numbers = events.values()
    errors = events.failures()
    randomNumberPing.map { DataLoadState.loading }
      .merge(with: numbers.map(DataLoadState.loaded), errors.map(DataLoadState.failed))
      .sink { [weak self] in self?.state = $0 }
      .store(in: &subscriptions)
  }
}

@Suite struct MaterializationViewModelTests {
  @Test func aFailedRequestIsShownAndTheNextRequestStillRuns() {
    let server = FakeRandomServer()
    let viewModel = RandomNumberViewModel(fetch: server.fetch)
    let numbers = TestSubscriber<Int, Never>()
    let errors = TestSubscriber<RandomDotOrgError, Never>()
    viewModel.numbers.subscribe(numbers)
    viewModel.errors.subscribe(errors)
    var shown: [DataLoadState] = []
    let watching = viewModel.$state.sink { shown.append($0) }

    viewModel.randomNumberPing.send()
    expectEqual(viewModel.state, .loading)
    server.fail(0)
    expectEqual(viewModel.state, .failed(.failedRequest))

    viewModel.randomNumberPing.send()
    expectEqual(server.requests.count, 2)
    server.answer(1, with: 42)
    expectEqual(viewModel.state, .loaded(42))

    viewModel.randomNumberPing.send()
    server.answer(2, with: 7)

    expectEqual(server.requests.count, 3)
    expectEqual(numbers.values, [42, 7])
    expectEqual(errors.values, [.failedRequest])
    #expect(!numbers.isCompleted && !errors.isCompleted)
    #expect(
      shown == [.idle, .loading, .failed(.failedRequest), .loading, .loaded(42), .loading, .loaded(7)]
    )
    watching.cancel()
  }

  @Test func withoutMaterializeTheFirstFailureEndsThePipeline() {
    let server = FakeRandomServer()
    let ping = PassthroughSubject<Void, Never>()
    let subscriber = TestSubscriber<Int, RandomDotOrgError>()
    ping.flatMap { server.fetch() }.subscribe(subscriber)
    ping.send()
    server.fail(0)
    ping.send()
    expectEqual(server.requests.count, 1)
    expectEqual(subscriber.failure, .failedRequest)
  }
}
