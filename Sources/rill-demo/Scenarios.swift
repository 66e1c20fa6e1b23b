import Rill

/// Two sinks on one `scan` each get their own running total: state lives in the subscriptions, and each
/// subscription runs the sequence from its first value.
func eachSubscriberGetsItsOwnRun() {
  let numbers = [1, 2, 3, 4].publisher.handleEvents(receiveOutput: { print("  the sequence sends \($0)") })
  let totals = numbers.scan(10) { total, next in total + next }
  print("  C subscribes")
  let sinkC = log("C", totals)
  print("  D subscribes")
  let sinkD = log("D", totals)
  _ = (sinkC, sinkD)
}

/// A second subscriber joins halfway through the first one's values, and still sees a fresh run: `Deferred` makes
/// a new subject for each subscriber.
func subscriberJoiningMidStream() {
  var subjects: [PassthroughSubject<Int, Never>] = []
  let deferred = Deferred { () -> PassthroughSubject<Int, Never> in
    let subject = PassthroughSubject<Int, Never>()
    subjects.append(subject)
    print("  Deferred: made subject \(subjects.count)")
    return subject
  }
  let scanB = Publishers.Scan(upstream: deferred, initialResult: 10) { state, next in state + next }
  func send(_ values: ClosedRange<Int>, to index: Int) {
    for value in values {
      print("  subject \(index + 1): send \(value)")
      subjects[index].send(value)
    }
  }
  print("  C subscribes")
  let sinkC = log("C", scanB)
  send(1...2, to: 0)
  print("  D subscribes")
  let sinkD = log("D", scanB)
  send(3...4, to: 0)
  send(1...4, to: 1)
  subjects[0].send(completion: .finished)
  subjects[1].send(completion: .finished)
  _ = (sinkC, sinkD)
}

/// A `Future` runs its closure once, at creation; wrapped in `Deferred`, once per subscriber.
func futureAndDeferred() {
  var calls = 0
  let future = Future<Int, Never> { promise in
    calls += 1
    promise(.success(calls * 100))
  }
  let first = log("future, first subscriber", future)
  let second = log("future, second subscriber", future)
  print("  the future's closure ran \(calls) time(s)")

  var deferredCalls = 0
  let deferred = Deferred {
    Future<Int, Never> { promise in
      deferredCalls += 1
      promise(.success(deferredCalls))
    }
  }
  let third = log("deferred, first subscriber", deferred)
  let fourth = log("deferred, second subscriber", deferred)
  print("  the deferred future's closure ran \(deferredCalls) time(s)")
  _ = (first, second, third, fourth)
}

/// A `sink` with both closures, and an `assign` that writes into an object's property.
func sinkAndAssign() {
  final class Thermometer {
    var celsius = 0 {
      didSet { print("  assign: celsius is now \(celsius)") }
    }
  }
  let readings = PassthroughSubject<Int, Never>()
  let thermometer = Thermometer()
  let assign = readings.assign(to: \.celsius, on: thermometer)
  let sink = log("sink", readings.map { "\($0)°C" })
  readings.send(21)
  readings.send(23)
  readings.send(completion: .finished)
  _ = (assign, sink)
}

/// Demand in action: a hand-written subscriber asks for one value each time it receives one.
func backpressure() {
  let subscriber = AnySubscriber<Int, Never>(
    receiveSubscription: { subscription in
      print("  subscriber: request max(1)")
      subscription.request(.max(1))
    },
    receiveValue: { value in
      print("  subscriber: value \(value), request max(1)")
      return .max(1)
    },
    receiveCompletion: { _ in print("  subscriber: finished") }
  )
  (1...3).publisher.subscribe(subscriber)
}
