import Rill

// rill-demo: runs the seed scenarios and prints each pipeline's events; the network ones run against a
// loopback HTTP server that the demo starts itself.

var demos: [(title: String, run: () -> Void)] = []

demos.append(("The shadow subscription graph: one scan, two independent subscriptions", shadowGraph))
demos.append(("Subscribers joining a Deferred subject mid-stream", overlappingSubscriptions))
demos.append(("Future runs once and replays; Deferred runs per subscriber", futureAndDeferred))
demos.append(("sink and assign", sinkAndAssign))
demos.append(("Backpressure: a subscriber that asks for one value at a time", backpressure))
demos.append(("flatMap: inner publishers' values interleave", flatMapInterleaving))
demos.append(("flatMap: Empty as \"do nothing\"", flatMapEmptyDoesNothing))
demos.append(("flatMap: failing without terminating, with catch inside", flatMapFailingWithoutTerminating))
demos.append(("flatMap(maxPublishers: .max(1)): backpressure on upstream", flatMapBackpressure))
demos.append(("Seed 001, loopback HTTP: dataTaskPublisher, map, decode", decodeJSONFromDataTask))
demos.append(("Seed 001, loopback HTTP: tryMap turns a non-200 status into an error", tryMapOnStatusCode))
demos.append(("Seed 001, loopback HTTP: mapError folds every failure into APIError", mapErrorIntoAPIError))
demos.append(("Seed 001, loopback HTTP: Futures in sequence with flatMap and Zip3", futureFlatMapZip3Sequencing))
demos.append(("Seed 002, loopback HTTP: flatMap(maxPublishers: .max(1)) keeps order", flatMapMaxPublishersKeepsOrder))
demos.append(("Seed 002, loopback HTTP: failing without terminating", networkFailingWithoutTerminating))
demos.append(("Seed 002: Timer.publish(every:on:in:).autoconnect().scan", timerAutoconnectScan))
demos.append(("Seed 002: maxPublishers with delay, backpressure in time", maxPublishersWithDelay))

for (index, demo) in demos.enumerated() {
  print("\(index + 1). \(demo.title)")
  demo.run()
  print("")
}
print("rill-demo: \(demos.count) scenarios ran")
