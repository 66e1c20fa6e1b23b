import RillExt
import RillTestSupport
import RillTesting
import Testing

private final class Target {
  var a = 0
  var b = 0
  var c = 0
}

@Suite struct AssignTests {
  @Test func docMarbles() {
    let subject = PassthroughSubject<Int, Never>()
    let x = Target()
    let y = Target()
    let z = Target()
    var seen: [[Int]] = []
    let cancellable = subject.handleEvents(receiveOutput: { _ in seen.append([x.a, y.b, z.c]) })
      .assign(to: \.a, on: x, and: \.b, on: y, and: \.c, on: z)
    subject.send(1)
    subject.send(2)
    #expect([x.a, y.b, z.c] == [2, 2, 2] && seen == [[0, 0, 0], [1, 1, 1]])
    cancellable.cancel()
    subject.send(3)
    expectEqual(x.a, 2)
  }

  @Test func manyTargets() {
    let subject = PassthroughSubject<Int, Never>()
    let x = Target()
    let y = Target()
    let two = subject.assign(to: \.a, on: x, and: \.b, on: y)
    subject.send(4)
    #expect(x.a == 4 && y.b == 4)
    two.cancel()
    subject.send(5)
    expectEqual(x.a, 4)
    // Combine's own assign(to:on:) still resolves, and is the one a call without ownership picks.
    let combines = subject.assign(to: \.c, on: x)
    subject.send(6)
    expectEqual(x.c, 6)
    combines.cancel()
  }

  @Test func ownership() {
    for ownership in [ObjectOwnership.strong, .weak, .unowned] {
      let subject = PassthroughSubject<Int, Never>()
      weak var weakTarget: Target?
      var cancellables: [AnyCancellable] = []
      do {
        let target = Target()
        let second = Target()
        let third = Target()
        weakTarget = target
        cancellables.append(subject.assign(to: \.a, on: target, ownership: ownership))
        cancellables.append(subject.assign(to: \.a, on: target, and: \.b, on: second, ownership: ownership))
        cancellables.append(
          subject.assign(to: \.a, on: target, and: \.b, on: second, and: \.c, on: third, ownership: ownership)
        )
        subject.send(7)
        #expect(target.a == 7 && second.b == 7 && third.c == 7)
        if ownership == .unowned {
          for cancellable in cancellables { cancellable.cancel() }
        }
      }
      #expect((weakTarget == nil) == (ownership != .strong), "\(ownership)")
      if ownership == .weak { subject.send(8) }
      for cancellable in cancellables { cancellable.cancel() }
      #expect(weakTarget == nil)
    }
  }

  @Test func demandAndCompletion() {
    let upstream = TestPublisher<Int, Never>()
    let target = Target()
    let cancellable = upstream.assign(to: \.a, on: target, ownership: .weak)
    expectEqual(upstream.requestedDemands, [.unlimited])
    upstream.send(3)
    upstream.send(completion: .finished)
    upstream.send(4)
    expectEqual(target.a, 3)
    cancellable.cancel()
  }
}
