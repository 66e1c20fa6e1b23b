// RillTesting's marble diagrams run over Rill's publishers, so this file builds only where Rill stands in for
// Combine. Everything else in the tests is shared with Apple platforms.
#if !canImport(Combine)
import Foundation
import Rill
import RillExt
import RillTesting
import SearchFeature
import Testing

@Suite struct SettledQueriesMarbleTests {
  @Test func aQuerySettlesAfterThreeHundredMilliseconds() {
    let scheduler = DispatchQueue.test
    let settled = scheduler.marbles("-a-b-----c----|", tick: .milliseconds(100)) {
      $0.settledQueries(on: scheduler)
    }
    #expect(settled == "------b-----c-|")
  }

  @Test func aQueryLikeTheLastOneIsSkipped() {
    let scheduler = DispatchQueue.test
    let settled = scheduler.marbles("-a----a----b----|", tick: .milliseconds(100)) {
      $0.settledQueries(on: scheduler)
    }
    #expect(settled == "----a---------b-|")
  }
}
#endif
