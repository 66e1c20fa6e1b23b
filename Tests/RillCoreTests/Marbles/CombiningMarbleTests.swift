import RillCore
import RillTestSupport
import RillTesting
import Testing

/// The first test of each combining operator: its documented marble diagram, character for character.
@Suite struct CombiningMarbleTests {
  @Test func mergeMarble() {
    #expect(TestScheduler.marbles("-1--|", "--2-|") { $0.merge(with: $1) } == "-12-|")
  }

  @Test func mergeManyMarble() {
    #expect(TestScheduler.marbles("-1-3-|", "--2--4|") { $0.merge(with: $1) } == "-123-4|")
  }

  @Test func zipMarble() {
    #expect(TestScheduler.marbles("-1-2--|", "--a-b-|") { $0.zip($1) { $0 + $1 } } == "--'1a'-'2b'-|")
  }

  @Test func combineLatestMarble() {
    #expect(
      TestScheduler.marbles("-1-2--|", "--a-b-|") { $0.combineLatest($1) { $0 + $1 } } == "--'1a''2a''2b'-|"
    )
  }

  @Test func dropUntilOutputMarble() {
    #expect(TestScheduler.marbles("-1-2-3-4-|", "----x") { $0.drop(untilOutputFrom: $1) } == "-----3-4-|")
  }

  @Test func prefixUntilOutputMarble() {
    #expect(TestScheduler.marbles("-1-2-3-4-|", "------x") { $0.prefix(untilOutputFrom: $1) } == "-1-2-3|")
  }

  @Test func switchToLatestMarble() {
    let scheduler = TestScheduler()
    let result = scheduler.marbles("-a----b-----|", as: String.self) { upstream in
      upstream.map { (name: String) -> AnyPublisher<String, MarbleError> in
        (try? scheduler.marblePublisher(name == "a" ? "-1-2-3|" : "-4-|", as: String.self))
          ?? Empty<String, MarbleError>().eraseToAnyPublisher()
      }
      .switchToLatest()
    }
    expectEqual(result, "--1-2--4----|")
  }

  @Test func flatMapMarble() {
    let scheduler = TestScheduler()
    let result = scheduler.marbles("-a---b------|", as: String.self) { upstream in
      upstream.flatMap { (name: String) -> AnyPublisher<String, MarbleError> in
        (try? scheduler.marblePublisher(name == "a" ? "-1--2|" : "-3--4|", as: String.self))
          ?? Empty<String, MarbleError>().eraseToAnyPublisher()
      }
    }
    expectEqual(result, "--1--23--4--|")
  }
}
