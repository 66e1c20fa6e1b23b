import RillExt
import RillTestSupport
import RillTesting
import Testing

@Suite struct SimpleOperatorsTests {
  @Test func docMarbles() {
    #expect(TestScheduler.marbles("---|", as: Int.self) { $0.ignoreOutput().setOutputType(to: Int.self) } == "---|")
    #expect(TestScheduler.marbles("-1-2-|") { $0.ignoreOutput(setOutputType: Int.self) } == "-----|")
    #expect(TestScheduler.marbles("-1-2-^") { $0.ignoreFailure() } == "-1-2-|")
    #expect(TestScheduler.marbles("-1-2-^") { $0.ignoreFailure(completeImmediately: false) } == "-1-2--")
    #expect(TestScheduler.marbles("-1-2-^") { $0.ignoreFailure(setFailureType: ExtTestError.self) } == "-1-2-|")
    #expect(
      TestScheduler.marbles("-1-^", as: Int.self) { $0.mapToResult() } == "-'success(1)'-['failure(MarbleError)'|]"
    )
    #expect(TestScheduler.marbles("-1-2-|") { $0.mapToValue(0) } == "-0-0-|")
    #expect(TestScheduler.marbles("-1-2-|", as: Int.self) { $0.mapToVoid() } == "-'()'-'()'-|")
    #expect(TestScheduler.marbles("-'ab'-'c'-|") { $0.mapMany { $0.uppercased() } } == "-'[\"A\", \"B\"]'-'[\"C\"]'-|")
    #expect(TestScheduler.marbles("-'abc'-'b'-|") { $0.filterMany { $0 != "b" } } == "-'[\"a\", \"c\"]'-'[]'-|")
    #expect(TestScheduler.marbles("-'true'-'false'-|") { $0.toggle() } == "-'false'-'true'-|")
    #expect(TestScheduler.marbles("-1-2-3-4-|", as: Int.self) { $0.nwise(3) } == "-----'[1, 2, 3]'-'[2, 3, 4]'-|")
    #expect(TestScheduler.marbles("-1-2-3-|", as: Int.self) { $0.pairwise() } == "---'(1, 2)'-'(2, 3)'-|")
    #expect(
      TestScheduler.marbles("-5-6-|", as: Int.self) { $0.enumerated() }
        == "-'(index: 0, element: 5)'-'(index: 1, element: 6)'-|"
    )
    #expect(TestScheduler.marbles("-1-1-2-1-3-|", as: Int.self) { $0.removeAllDuplicates() } == "-1---2---3-|")
    #expect(
      TestScheduler.marbles("-1-3-2-5-4-|", as: Int.self) { $0.removeAllDuplicates { $0 % 2 == $1 % 2 } }
        == "-1---2-----|"
    )
  }

  @Test func theReturnTypesAreCombineExts() {
    let never = Empty<Never, ExtTestError>()
    let _: Publishers.Map<Empty<Never, ExtTestError>, Int> = never.setOutputType(to: Int.self)
    let just = Just(1)
    let _: Publishers.Map<Publishers.IgnoreOutput<Just<Int>>, String> = just.ignoreOutput(setOutputType: String.self)
    let _: AnyPublisher<Int, Never> = just.ignoreFailure()
    let _: AnyPublisher<Int, ExtTestError> = just.ignoreFailure(setFailureType: ExtTestError.self)
    let _: AnyPublisher<Result<Int, Never>, Never> = just.mapToResult()
    let _: Publishers.Map<Just<Int>, String> = just.mapToValue("a")
    let _: Publishers.Map<Just<Int>, Void> = just.mapToVoid()
    let _: Publishers.Map<Just<[Int]>, [String]> = Just([1]).mapMany { "\($0)" }
    let _: AnyPublisher<[Int], Never> = Just([1]).filterMany { $0 > 0 }
    let _: Publishers.Map<Just<Bool>, Bool> = Just(true).toggle()
    let _: AnyPublisher<[Int], Never> = just.nwise(2)
    let _: AnyPublisher<(Int, Int), Never> = just.pairwise()
    let enumerated: Publishers.Enumerated<Just<Int>> = just.enumerated(initial: 3)
    #expect(enumerated.initial == 3 && enumerated.upstream == just)
    expectEqual(Publishers.Enumerated(upstream: just).initial, 0)
    let _: Publishers.Filter<Just<Int>> = just.removeAllDuplicates()
    let _: Publishers.Filter<Just<Int>> = just.removeAllDuplicates { $0 == $1 }
    struct OnlyEquatable: Equatable { let value: Int }
    let _: Publishers.Filter<Just<OnlyEquatable>> = Just(OnlyEquatable(value: 1)).removeAllDuplicates()
  }

  @Test func failuresAndCompletions() {
    #expect(extRun({ $0.ignoreFailure() }, [1], then: .failure(.upstream)) == ["subscription", "value(1)", "finished"])
    #expect(
      extRun({ $0.ignoreFailure(completeImmediately: false) }, [1], then: .failure(.upstream))
        == ["subscription", "value(1)"]
    )
    let (upstream, subscriber) = extSubscribe { $0.mapToResult() }
    upstream.send(1)
    upstream.send(completion: .failure(.upstream))
    #expect(subscriber.values == [.success(1), .failure(.upstream)] && subscriber.isFinished)
    #expect(extRun({ $0.mapToResult() }, [1]) == ["subscription", "value(success(1))", "finished"])
    #expect(extRun({ $0.nwise(2) }, [1], then: .failure(.upstream)) == ["subscription", "failure(upstream)"])
    #expect(
      extRun({ $0.enumerated(initial: 10) }, [7, 8], then: .failure(.upstream))
        == ["subscription", "value((index: 10, element: 7))", "value((index: 11, element: 8))", "failure(upstream)"]
    )
  }

  @Test func demand() {
    // A failure's result waits for demand.
    let (upstream, subscriber) = extSubscribe({ $0.mapToResult() }, initialDemand: .max(1))
    expectEqual(upstream.requestedDemands, [.max(1)])
    upstream.send(1)
    upstream.send(completion: .failure(.upstream))
    expectEqual(subscriber.values.count, 1)
    subscriber.request(.max(1))
    #expect(subscriber.values == [.success(1), .failure(.upstream)] && subscriber.isFinished)

    // Values held back by nwise and removeAllDuplicates ask for one more.
    let (windowed, _) = extSubscribe({ $0.nwise(3) }, initialDemand: .max(1))
    #expect(windowed.send(1) == .max(1) && windowed.send(2) == .max(1) && windowed.send(3) == .none)
    let (deduplicated, _) = extSubscribe({ $0.removeAllDuplicates() }, initialDemand: .max(5))
    #expect(deduplicated.send(1) == .none && deduplicated.send(1) == .max(1))

    // Enumerated passes demand straight through.
    let (counted, countedSubscriber) = extSubscribe(
      { $0.enumerated() },
      initialDemand: .max(2),
      demandPerValue: .max(3)
    )
    #expect(counted.requestedDemands == [.max(2)] && counted.send(1) == .max(3))
    countedSubscriber.request(.max(4))
    expectEqual(counted.requestedDemands, [.max(2), .max(4)])
  }

  @Test func eachSubscriptionOfEnumeratedCountsOnItsOwn() {
    let enumerated = [5, 6].publisher.enumerated()
    var indexes: [Int] = []
    _ = enumerated.sink { indexes.append($0.index) }
    _ = enumerated.sink { indexes.append($0.index) }
    expectEqual(indexes, [0, 1, 0, 1])
  }

  @Test func removeAllDuplicatesSharesItsMemoryAcrossSubscriptionsAsCombineExtDoes() {
    let deduplicated = [1, 2, 1].publisher.removeAllDuplicates()
    var first: [Int] = []
    var second: [Int] = []
    _ = deduplicated.sink { first.append($0) }
    _ = deduplicated.sink { second.append($0) }
    #expect(first == [1, 2] && second.isEmpty)
  }

  @Test func cancellationReentrancyAndMemory() {
    let operators: [(String, (ExtUpstream) -> AnyPublisher<String, Never>)] = [
      ("ignoreFailure", { $0.ignoreFailure().map { "\($0)" }.eraseToAnyPublisher() }),
      ("mapToResult", { $0.mapToResult().map { "\($0)" }.eraseToAnyPublisher() }),
      ("nwise", { $0.nwise(2).map { "\($0)" }.ignoreFailure() }),
      ("pairwise", { $0.pairwise().map { "\($0)" }.ignoreFailure() }),
      ("enumerated", { $0.enumerated().map { "\($0)" }.ignoreFailure() }),
      ("removeAllDuplicates", { $0.removeAllDuplicates().map { "\($0)" }.ignoreFailure() }),
      ("mapToValue", { $0.mapToValue("v").ignoreFailure() }),
    ]
    for (name, make) in operators {
      let (upstream, subscriber) = extSubscribe(make)
      upstream.send(1)
      upstream.send(2)
      subscriber.cancel()
      #expect(upstream.isCancelled, "\(name)")

      let (source, cancelling) = extSubscribe(
        make,
        onValue: { subscriber, _ in
          subscriber.cancel()
          return .none
        }
      )
      source.send(1)
      source.send(2)
      source.send(3)
      #expect(cancelling.values.count <= 1 && (cancelling.values.isEmpty || source.isCancelled), "\(name)")

      #expect(extPipelineIsFreed(make, drive: { upstream, _ in upstream.send(completion: .finished) }), "\(name)")
      #expect(extPipelineIsFreed(make, drive: { _, subscriber in subscriber.cancel() }), "\(name)")
    }
  }

  @Test func contract() {
    let failing = { Record<Int, ExtTestError>(output: [1, 2, 3, 3], completion: .failure(.upstream)) }
    expectContract("setOutputType") { Empty<Never, ExtTestError>().setOutputType(to: Int.self) }
    expectContract("ignoreOutput(setOutputType:)") { failing().ignoreOutput(setOutputType: String.self) }
    expectContract("ignoreFailure") { failing().ignoreFailure() }
    expectContract("mapToResult") { failing().mapToResult() }
    expectContract("mapToValue") { failing().mapToValue("a") }
    expectContract("mapMany") { failing().map { [$0, $0] }.mapMany { $0 + 1 } }
    expectContract("filterMany") { failing().map { [$0, $0 + 1] }.filterMany { $0.isMultiple(of: 2) } }
    expectContract("toggle") { failing().map { $0 > 1 }.toggle() }
    expectContract("nwise") { failing().nwise(2) }
    expectContract("pairwise") { failing().pairwise() }
    expectContract("enumerated") { failing().enumerated() }
    expectContract("removeAllDuplicates") { failing().removeAllDuplicates() }
    expectContract("removeAllDuplicates(by:)") { failing().removeAllDuplicates(by: ==) }
  }
}
