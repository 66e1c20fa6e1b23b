// The hand-written loops: the least a pipeline can cost, the same arithmetic with no framework at all.
import Dispatch

/// A sink stand-in: adds through a pointer, like the workloads' sinks.
final class LoopSink: @unchecked Sendable {
  let pointer = UnsafeMutablePointer<Int>.allocate(capacity: 1)

  init() { pointer.initialize(to: 0) }

  deinit { pointer.deallocate() }

  @inline(never) func receive(_ value: Int) { pointer.pointee &+= value }
}

/// A subject stand-in: an array of receivers called one by one.
final class LoopSubject: @unchecked Sendable {
  var receivers: [(Int) -> Void] = []

  @inline(never) func send(_ value: Int) {
    for receiver in receivers { receiver(value) }
  }
}

public enum HandLoops {
  nonisolated(unsafe) public static let byWorkload: [String: (Int) -> Int] = [
    "sequence → map → filter → sink": { n in
      let sink = LoopSink()
      for i in 0..<n {
        let v = i &* 3
        if v & 1 == 0 { sink.receive(v) }
      }
      return sink.pointer.pointee
    },
    "subject → 10 stacked maps → sink": { n in
      let sink = LoopSink()
      let subject = LoopSubject()
      subject.receivers = [{ sink.receive($0 &+ 1 &+ 2 &+ 3 &+ 4 &+ 5 &+ 6 &+ 7 &+ 8 &+ 9 &+ 10) }]
      for i in 0..<n { subject.send(i) }
      return sink.pointer.pointee
    },
    "PassthroughSubject send, 1 sink": { n in
      let sink = LoopSink()
      let subject = LoopSubject()
      subject.receivers = [sink.receive]
      for i in 0..<n { subject.send(i) }
      return sink.pointer.pointee
    },
    "PassthroughSubject send, 10 sinks": { n in
      let sink = LoopSink()
      let subject = LoopSubject()
      subject.receivers = Array(repeating: sink.receive, count: 10)
      for i in 0..<n { subject.send(i) }
      return sink.pointer.pointee
    },
    "CurrentValueSubject send, 1 sink": { n in
      let sink = LoopSink()
      let subject = LoopSubject()
      subject.receivers = [sink.receive]
      for i in 0..<n { subject.send(i) }
      return sink.pointer.pointee
    },
    "sink + cancel churn (per subscription)": { n in
      let sink = LoopSink()
      let subject = LoopSubject()
      for i in 0..<n {
        subject.receivers.append(sink.receive)
        subject.receivers.removeLast()
        sink.receive(i)
      }
      return sink.pointer.pointee
    },
    "two threads send into one subject": { n in
      let sink = LoopSink()
      let subject = LoopSubject()
      subject.receivers = [sink.receive]
      let half = n / 2
      DispatchQueue.concurrentPerform(iterations: 2) { _ in
        for i in 0..<half { subject.send(i) }
      }
      return sink.pointer.pointee
    },
    "sequence → scan → sink": { n in
      let sink = LoopSink()
      var acc = 0
      for i in 0..<n {
        acc &+= i
        sink.receive(acc)
      }
      return sink.pointer.pointee
    },
    "subject → scan → sink": { n in
      let sink = LoopSink()
      let subject = LoopSubject()
      var acc = 0
      subject.receivers = [
        {
          acc &+= $0
          sink.receive(acc)
        }
      ]
      for i in 0..<n { subject.send(i) }
      return sink.pointer.pointee
    },
    "sequence → map → erase → filter → erase → sink": { n in
      let sink = LoopSink()
      for i in 0..<n {
        let v = i &* 3
        if v & 1 == 0 { sink.receive(v) }
      }
      return sink.pointer.pointee
    },
    "subject → 20 mixed operators → sink": { n in
      let sink = LoopSink()
      let subject = LoopSubject()
      var a = 0
      var b = 0
      var c = 1
      subject.receivers = [
        { value in
          let v1 = value &+ 1
          guard v1 >= 0 else { return }
          a &+= v1
          let v2 = a & 0xFFFF
          guard v2 != -1 else { return }
          let v3 = v2 &* 3
          guard v3 >= 0 else { return }
          b ^= v3
          let v4 = b &+ 7
          guard v4 != -2 else { return }
          let v5 = v4 >> 1
          guard v5 != -3 else { return }
          c &+= v5
          let v6 = c & 0xFFFFF
          guard v6 != -4 else { return }
          sink.receive(v6 &+ 2)
        }
      ]
      for i in 0..<n { subject.send(i) }
      return sink.pointer.pointee
    },
    "sequence → flatMap { Just } → sink": { n in
      let sink = LoopSink()
      for i in 0..<n { sink.receive(i) }
      return sink.pointer.pointee
    },
    "merge of two subjects": { n in
      let sink = LoopSink()
      let first = LoopSubject()
      let second = LoopSubject()
      first.receivers = [sink.receive]
      second.receivers = [sink.receive]
      for i in 0..<n / 2 {
        first.send(i)
        second.send(i)
      }
      return sink.pointer.pointee
    },
    "zip of two subjects (per pair)": { n in
      let sink = LoopSink()
      let first = LoopSubject()
      let second = LoopSubject()
      var pending: [Int] = []
      var head = 0
      first.receivers = [{ pending.append($0) }]
      second.receivers = [
        {
          sink.receive(pending[head] &+ $0)
          head += 1
          if head == pending.count {
            pending.removeAll(keepingCapacity: true)
            head = 0
          }
        }
      ]
      for i in 0..<n {
        first.send(i)
        second.send(i)
      }
      return sink.pointer.pointee
    },
    "combineLatest of two subjects": { n in
      let sink = LoopSink()
      let first = LoopSubject()
      let second = LoopSubject()
      var a: Int?
      var b: Int?
      first.receivers = [
        {
          a = $0
          if let b { sink.receive($0 &+ b) }
        }
      ]
      second.receivers = [
        {
          b = $0
          if let a { sink.receive(a &+ $0) }
        }
      ]
      for i in 0..<n / 2 {
        first.send(i)
        second.send(i)
      }
      return sink.pointer.pointee
    },
    "subject → receive(on: DispatchQueue) → sink": { n in
      // One block per value, as receive(on:) schedules: the cost of the queue itself.
      let sink = LoopSink()
      let queue = DispatchQueue(label: "rill.benchmarks.loop")
      let done = DispatchSemaphore(value: 0)
      for i in 0..<n { queue.async { sink.receive(i) } }
      queue.async { done.signal() }
      done.wait()
      return sink.pointer.pointee
    },
    "subject → reduce → sink": { n in
      let sink = LoopSink()
      let subject = LoopSubject()
      var acc = 0
      subject.receivers = [{ acc &+= $0 }]
      for i in 0..<n { subject.send(i) }
      sink.receive(acc)
      return sink.pointer.pointee
    },
    // The RillExt workloads: a subject that also keeps its latest value for replay.
    "subject → share(replay: 1) → 1 sink (RillExt)": { n in replayLoop(n, sinks: 1) },
    "subject → share(replay: 1) → 10 sinks (RillExt)": { n in replayLoop(n, sinks: 10) },
    "subject → withLatestFrom(subject) → sink (RillExt)": { n in
      let sink = LoopSink()
      let driver = LoopSubject()
      let other = LoopSubject()
      var latest = 0
      driver.receivers = [{ sink.receive($0 &+ latest) }]
      other.receivers = [{ latest = $0 }]
      other.send(0)
      for i in 0..<n {
        if i % 100 == 0 { other.send(i) }  // Workloads.latestUpdateInterval
        driver.send(i)
      }
      return sink.pointer.pointee
    },
    "ReplaySubject(bufferSize: 1) send, 1 sink (RillExt)": { n in replayLoop(n, sinks: 1) },
    "ReplaySubject(bufferSize: 1) send, 10 sinks (RillExt)": { n in replayLoop(n, sinks: 10) },
    // Not a workload's loop: Combine's model of a send, by hand (ModelFloor.swift).
    "model floor: PassthroughSubject send, 1 sink": modelFloorSend,
  ]

  /// A subject that keeps its latest value and calls `sinks` receivers with each value.
  static func replayLoop(_ n: Int, sinks: Int) -> Int {
    let sink = LoopSink()
    let subject = LoopSubject()
    let kept = LoopSink()
    subject.receivers = [{ kept.pointer.pointee = $0 }] + Array(repeating: sink.receive, count: sinks)
    for i in 0..<n { subject.send(i) }
    return sink.pointer.pointee
  }
}
