import RillTestSupport
import RillTesting
import Testing

@Suite struct ManySourceMarbleTests {
  @Test func mergeThreeAndFourSources() {
    #expect(
      TestScheduler.marbles(["-a----d-|", "--b-----|", "---c-|"]) { $0[0].merge(with: $0[1], $0[2]) }
        == "-abc--d-|"
    )
    #expect(
      TestScheduler.marbles(["-1---|", "--2--|", "---3-|", "----4|"]) {
        $0[0].merge(with: $0[1], $0[2], $0[3]).map { $0 * 10 }
      } == "-'10''20''30''40'|"
    )
    #expect(TestScheduler.marbles(["-a-|", "--b-|", "---c|"]) { Publishers.MergeMany($0) } == "-abc|")
  }

  @Test func combineLatestThreeAndFourSources() {
    #expect(
      TestScheduler.marbles(["-a---d-|", "--b-----|", "---c-e-|"]) {
        $0[0].combineLatest($0[1], $0[2]) { $0 + $1 + $2 }
      } == "---'abc'-['dbc''dbe']--|"
    )
    #expect(
      TestScheduler.marbles(["-1-|", "-2-|", "-3-|", "--4|"], as: Int.self) {
        $0[0].combineLatest($0[1], $0[2], $0[3]) { $0 + $1 + $2 + $3 }
      } == "--'10'|"
    )
  }

  @Test func zipThreeAndFourSources() {
    #expect(
      TestScheduler.marbles(["-a-b---|", "--1--2--|", "---x-y---|"]) { $0[0].zip($0[1], $0[2]) { $0 + $1 + $2 } }
        == "---'a1x'-'b2y'-|"
    )
    #expect(
      TestScheduler.marbles(["-1-2-|", "-1-2-|", "-1-2-|", "--1-2|"], as: Int.self) {
        $0[0].zip($0[1], $0[2], $0[3]) { $0 + $1 + $2 + $3 }
      } == "--4-8|"
    )
  }

  @Test func failureInAnySourceFailsTheMerge() {
    #expect(TestScheduler.marbles(["-a---|", "--b--|", "---^"]) { Publishers.MergeMany($0) } == "-ab^")
  }

  @Test func theValueTypeCanBeNamed() {
    #expect(
      TestScheduler.marbles(["-1-|", "-2-|", "-3-|"], as: Int.self) { sources in
        Publishers.MergeMany(sources).filter { $0.isMultiple(of: 2) }
      } == "-2-|"
    )
  }

  @Test func emptyDiagramsAndNoDiagrams() {
    #expect(TestScheduler.marbles(["", "", ""]) { Publishers.MergeMany($0) } == "")
    #expect(TestScheduler.marbles(["--", "", "----"]) { Publishers.MergeMany($0) } == "----")
    #expect(TestScheduler.marbles([]) { sources in Just("\(sources.count)") } == "[0|]")
  }

  @Test func hotSourcesShareOneSubscriptionPoint() {
    #expect(
      TestScheduler.marbles(["-a-b-|", "--c-d-|", "-->----|"], hot: true) { Publishers.MergeMany($0) } == "--cbd--|"
    )
  }

  @Test func instanceFormRunsOnTheGivenScheduler() {
    let scheduler = TestScheduler(now: 50)
    let result = scheduler.marbles(["-1-|", "-2-|", "-3-|"]) { sources in
      Publishers.MergeMany(sources).delay(for: 1, scheduler: scheduler)
    }
    expectEqual(result, "--[123]-|")
    expectEqual(scheduler.now, 54)
    #expect(scheduler.marbles(["-a", "-b", "-c", "-d"]) { $0[0].merge(with: $0[1], $0[2], $0[3]) } == "-[abcd]")
  }

  @Test func malformedDiagramsAreNamed() {
    #expect(
      TestScheduler.marbles(["-a", "-b", "-[c"]) { Publishers.MergeMany($0) }
        == "marble error at index 1 of \"-[c\": an unterminated group"
    )
    #expect(
      TestScheduler.marbles(["-1", "-2", "-3", "-x"]) { Publishers.MergeMany($0).map { $0 + 1 } }
        == "marble error at index 1 of \"-x\": 'x' is not a valid Int"
    )
    #expect(
      TestScheduler.marbles(["->a", "-b", "->c"], hot: true) { Publishers.MergeMany($0) }
        == "marble error at index 1 of \"->c\": a second '>'; the first is at index 1 of \"->a\""
    )
  }
}
