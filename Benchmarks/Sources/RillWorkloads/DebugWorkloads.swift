// The price of looking at a pipeline: `print` (Combine's) and `lane` (RillExt's), each between a subject and a sink,
// against the same pipeline without them ("PassthroughSubject send, 1 sink"). Compiled against Rill and, through a
// symlink, against OpenCombine, which has `print` but no `lane`.
#if RILL
import RillExt
#endif

/// A text stream that drops what it is given, so that `print` is measured without the cost of writing to a file.
struct DiscardingStream: TextOutputStream {
  mutating func write(_ string: String) {}
}

extension Workloads {
  /// The debugging workloads, in table order; `lane` is Rill's only.
  static var debugging: [Workload] {
    #if RILL
    [
      Workload(name: "subject → print(to: discarding stream) → sink", run: subjectPrint),
      Workload(name: "subject → lane → sink (RillExt)", run: { subjectLane($0, filter: .all) }),
      Workload(
        name: "subject → lane(filter: .subscription) → sink (RillExt)",
        run: { subjectLane($0, filter: .subscription) }
      ),
    ]
    #else
    [
      Workload(name: "subject → print(to: discarding stream) → sink", run: subjectPrint),
      Workload(name: "subject → lane → sink (RillExt)", run: nil),
      Workload(name: "subject → lane(filter: .subscription) → sink (RillExt)", run: nil),
    ]
    #endif
  }

  static func subjectPrint(_ n: Int) -> Int {
    let sum = Accumulator()
    let subject = PassthroughSubject<Int, Never>()
    let cancellable = subject.print("p", to: DiscardingStream()).sink { sum.add($0) }
    for i in 0..<n { subject.send(i) }
    cancellable.cancel()
    return sum.value
  }

  #if RILL
  /// Records into a timeline of its own, large enough to keep every event of the run.
  static func subjectLane(_ n: Int, filter: Timeline.LaneTypeOptions) -> Int {
    let sum = Accumulator()
    let timeline = Timeline(capacity: max(1, 3 * n))
    let subject = PassthroughSubject<Int, Never>()
    let cancellable = subject.lane("bench", filter: filter, timeline: timeline).sink { sum.add($0) }
    for i in 0..<n { subject.send(i) }
    cancellable.cancel()
    return sum.value &+ timeline.droppedEventCount
  }
  #endif
}
