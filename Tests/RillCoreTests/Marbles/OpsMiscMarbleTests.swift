import RillCore
import RillTesting
import Testing

/// The marble diagrams of the error-handling, sharing, buffering, debugging and coding operators' docs.
@Suite struct OpsMiscMarbleTests {
  @Test func catchAndTryCatch() {
    #expect(TestScheduler.marbles("-1-2-^") { $0.catch { _ in Just(9) } } == "-1-2-[9|]")
    #expect(TestScheduler.marbles("-1-2-^") { $0.tryCatch { _ in Just(9) } } == "-1-2-[9|]")
  }

  @Test func retry() {
    #expect(TestScheduler.marbles("-1-^") { $0.retry(1) } == "-1--1-^")
    #expect(TestScheduler.marbles("-1-2-|") { $0.retry(1) } == "-1-2-|")
  }

  @Test func assertNoFailure() {
    #expect(TestScheduler.marbles("-1-2-|") { $0.assertNoFailure() } == "-1-2-|")
  }

  @Test func debugging() {
    let stream = OpsMiscTextStream()
    #expect(TestScheduler.marbles("-1-2-|") { $0.print("p", to: stream) } == "-1-2-|")
    #expect(TestScheduler.marbles("-1-2-|") { $0.handleEvents(receiveOutput: { _ in }) } == "-1-2-|")
    #expect(TestScheduler.marbles("-1-2-|") { $0.breakpoint(receiveOutput: { _ in false }) } == "-1-2-|")
    #expect(TestScheduler.marbles("-1-2-|") { $0.breakpointOnError() } == "-1-2-|")
  }

  @Test func sharing() {
    #expect(TestScheduler.marbles("-1-2-3-|") { $0.share() } == "-1-2-3-|")
    #expect(TestScheduler.marbles("-1-2-3-|") { $0.multicast { PassthroughSubject() }.autoconnect() } == "-1-2-3-|")
  }

  @Test func buffer() {
    #expect(
      TestScheduler.marbles("-1-2-3-|") { $0.buffer(size: 2, prefetch: .byRequest, whenFull: .dropNewest) }
        == "-1-2-3-|"
    )
  }
}
