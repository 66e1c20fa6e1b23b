import Foundation
import RillShim
import SearchFeature
import Testing

#if canImport(Combine)
import CombineSchedulers
#else
import RillExt
#endif

// Written in combine-schedulers' spelling: on Apple platforms this file builds against Combine and
// combine-schedulers, on Linux against Rill and RillExt.
@Suite struct SearchModelTests {
  @Test func searchesOnceTheQueryHasSettled() {
    let mainQueue = DispatchQueue.test
    var searched: [String] = []
    let model = SearchModel(
      search: { query in
        searched.append(query)
        return Just(["\(query) 1", "\(query) 2"]).eraseToAnyPublisher()
      },
      mainQueue: mainQueue.eraseToAnyScheduler()
    )

    model.query = "ri"
    mainQueue.advance(by: .milliseconds(200))
    model.query = "rill "
    mainQueue.advance(by: .milliseconds(299))
    #expect(searched == [])
    #expect(model.results == [])

    mainQueue.advance(by: .milliseconds(1))
    #expect(searched == ["rill"])
    #expect(model.results == ["rill 1", "rill 2"])
  }

  @Test func aQueryThatComesBackToTheLastSearchDoesNotSearchAgain() {
    let mainQueue = DispatchQueue.test
    var searched: [String] = []
    let model = SearchModel(
      search: { query in
        searched.append(query)
        return Just([query]).eraseToAnyPublisher()
      },
      mainQueue: mainQueue.eraseToAnyScheduler()
    )

    model.query = "rill"
    mainQueue.advance(by: .seconds(1))
    model.query = "rills"
    mainQueue.advance(by: .milliseconds(100))
    model.query = "rill"
    mainQueue.run()
    #expect(searched == ["rill"])
  }

  @Test func favoritingNeedsNoScheduler() {
    // An unimplemented scheduler fails the test if the model schedules anything.
    let model = SearchModel(search: { _ in Empty().eraseToAnyPublisher() }, mainQueue: .unimplemented)
    model.toggleFavorite("rill")
    #expect(model.favorites == ["rill"])
    model.toggleFavorite("rill")
    #expect(model.favorites == [])
  }

  @Test func resultsArriveOnTheMainQueue() async {
    // The live scheduler, `.main` by default. Apps run the main queue, and so do test runners. (On Linux, a
    // program in `dispatchMain()` runs the main queue's blocks on a worker thread: ask the queue, not the thread.)
    let mainQueue = DispatchSpecificKey<Bool>()
    DispatchQueue.main.setSpecific(key: mainQueue, value: true)
    let model = SearchModel(search: { query in
      Just([query]).subscribe(on: DispatchQueue.global()).eraseToAnyPublisher()
    })
    let delivered = model.$results.dropFirst().first()
      .map { ($0, DispatchQueue.getSpecific(key: mainQueue) == true) }
      .values
    model.query = "rill"
    for await (results, onMainQueue) in delivered {
      #expect(results == ["rill"])
      #expect(onMainQueue)
    }
  }
}
