import RillTestSupport
import RillTesting
import Testing

private enum Light: Equatable, CustomStringConvertible {
  case red, green

  var description: String { self == .red ? "R" : "G" }
}

/// `Marbles` sources carry their own value types, so one helper call mixes them.
@Suite struct TypedMarbleTests {
  @Test func aStringSourceAndABoolSourceMixWithoutAnnotations() {
    let result = TestScheduler.marbles(
      Marbles("-a--b---c-|"),
      Marbles("t--f--t---|", values: ["t": true, "f": false])
    ) { query, isEnabled in
      query.combineLatest(isEnabled).filter { $1 }.map(\.0)
    }
    expectEqual(result, "-a----b-c-|")
  }

  @Test func threeSourcesOfThreeTypes() {
    let result = TestScheduler.marbles(
      Marbles("-a---b|"),
      Marbles("--1---|", as: Int.self),
      Marbles("---r-g|", values: ["r": Light.red, "g": .green])
    ) { letters, numbers, lights in
      letters.combineLatest(numbers, lights).map { "\($0)\($1)\($2)" }
    }
    expectEqual(result, "---'a1R'-['b1R''b1G']|")
  }

  @Test func aTableValueOfSeveralCharactersIsQuotedInTheDiagram() {
    let result = TestScheduler.marbles(Marbles("-'on'-'off'-|", values: ["on": true, "off": false])) {
      $0.map { $0 ? 1 : 0 }
    }
    expectEqual(result, "-1-0-|")
  }

  @Test func aValueMissingFromTheTableIsAMarbleError() {
    let result = TestScheduler.marbles(Marbles("-t-x-|", values: ["t": true])) { $0 }
    expectEqual(result, "marble error at index 3 of \"-t-x-|\": 'x' is not in the values table")
  }

  @Test func aValueThatDoesNotParseIsAMarbleError() {
    let result = TestScheduler.marbles(Marbles("-a-1-|"), Marbles("-1-a-|", as: Int.self)) { $0.zip($1) }
    expectEqual(result, "marble error at index 3 of \"-1-a-|\": 'a' is not a valid Int")
  }

  @Test func theInstanceFormRunsOnTheSchedulerAndTakesHotAndTick() {
    let scheduler = TestScheduler()
    let result = scheduler.marbles(
      Marbles("-a>-b-|"),
      Marbles("--t-f-|", values: ["t": true, "f": false]),
      hot: true,
      tick: .milliseconds(5)
    ) { letters, flags in
      letters.combineLatest(flags).map { $1 ? $0 : "_" }.delay(for: .milliseconds(5), scheduler: scheduler)
    }
    expectEqual(result, "-----[b_]-|")
  }
}
