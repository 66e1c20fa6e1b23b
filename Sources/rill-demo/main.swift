import Rill

// rill-demo: runs the seed scenarios and prints each pipeline's events.

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

for (index, demo) in demos.enumerated() {
  print("\(index + 1). \(demo.title)")
  demo.run()
  print("")
}
print("rill-demo: \(demos.count) scenarios ran")
