import RillCore
import RillTestSupport
import RillTesting
import Testing

@Suite struct AsyncPublisherTests {
  @Test func iteratesValuesRequestingOneAtATime() async {
    let upstream = TestPublisher<Int, Never>()
    var iterator = upstream.values.makeAsyncIterator()
    #expect(upstream.requestedDemands.isEmpty)
    async let first = iterator.next()
    while upstream.requestedDemands.isEmpty { await Task.yield() }
    expectEqual(upstream.requestedDemands, [.max(1)])
    expectEqual(upstream.send(10), .none)
    #expect(await first == 10)
    var received: [Int] = []
    for await value in [1, 2, 3].publisher.values { received.append(value) }
    expectEqual(received, [1, 2, 3])
  }

  @Test func finishedEndsTheLoop() async {
    let subject = PassthroughSubject<Int, Never>()
    let task = Task {
      var received: [Int] = []
      for await value in subject.values { received.append(value) }
      return received
    }
    subject.send(completion: .finished)
    #expect(await task.value == [])
    var empty = Empty<Int, Never>().values.makeAsyncIterator()
    #expect(await empty.next() == nil)
  }

  @Test func throwingSequenceThrowsTheFailureOnceThenEnds() async throws {
    let publisher = [1, 2].publisher.setFailureTypeForTest(TimeOpsError.self).appendingFailure(.boom)
    var iterator = publisher.values.makeAsyncIterator()
    #expect(try await iterator.next() == 1)
    #expect(try await iterator.next() == 2)
    await #expect(throws: TimeOpsError.boom) { try await iterator.next() }
    #expect(try await iterator.next() == nil)
  }

  @Test func cancellingTheTaskCancelsTheSubscription() async {
    let upstream = TestPublisher<Int, Never>()
    let task = Task {
      var count = 0
      for await _ in upstream.values { count += 1 }
      return count
    }
    while upstream.requestedDemands.isEmpty { await Task.yield() }
    task.cancel()
    #expect(await task.value == 0)
    expectEqual(upstream.cancelCount, 1)
  }

  @Test func futureValue() async throws {
    #expect(await Future<Int, Never> { $0(.success(4)) }.value == 4)
    var fulfil: Future<String, TimeOpsError>.Promise?
    let later = Future<String, TimeOpsError> { fulfil = $0 }
    async let value = later.value
    await Task.yield()
    fulfil?(.success("x"))
    #expect(try await value == "x")
    let failing = Future<Int, TimeOpsError> { $0(.failure(.boom)) }
    await #expect(throws: TimeOpsError.boom) { try await failing.value }
  }
}

/// A publisher of some values then a failure, for the throwing-sequence tests: it sends one value per request, then
/// the failure.
private struct ValuesThenFailure<Output>: Publisher {
  typealias Failure = TimeOpsError

  /// Kept here, since a subscription does not keep its `TestPublisher`.
  let upstream: TestPublisher<Output, TimeOpsError>

  init(values: [Output], failure: TimeOpsError) {
    upstream = TestPublisher(onRequest: { upstream, _ in
      let count = upstream.requestedDemands.count
      if count <= values.count {
        upstream.send(values[count - 1])
      } else if count == values.count + 1 {
        upstream.send(completion: .failure(failure))
      }
    })
  }

  func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == TimeOpsError {
    upstream.receive(subscriber: subscriber)
  }
}

extension Publishers.Sequence where Failure == Never {
  fileprivate func setFailureTypeForTest(_: TimeOpsError.Type) -> [Elements.Element] {
    Array(sequence)
  }
}

extension Array {
  fileprivate func appendingFailure(_ failure: TimeOpsError) -> ValuesThenFailure<Element> {
    ValuesThenFailure(values: self, failure: failure)
  }
}
