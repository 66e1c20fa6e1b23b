import Dispatch
import Rill
import RillTesting
import Testing

/// RillTesting's contract checker accepts a pipeline that ends in `receive(on:)`, whose first value may arrive on
/// the queue while the checker's initial request is still running.
@Suite struct ReceiveOnContractTests {
  @Test(arguments: ContractDemand.standard)
  func aPipelineEndingInReceiveOnAQueueKeepsTheContract(demand: ContractDemand) {
    let queue = DispatchQueue(label: "contract")
    let subject = PassthroughSubject<Int, Never>()
    let report = PublisherContract.check(subject.receive(on: queue), demand: demand) { _ in
      for value in 1...100 { subject.send(value) }
      subject.send(completion: .finished)
      queue.sync {}
    }
    #expect(report.isSatisfied, "\(report)")
  }

  @Test func aSequenceDeliveredOnAQueueKeepsTheContract() {
    let queue = DispatchQueue(label: "contract")
    let report = PublisherContract.check((1...1_000).publisher.receive(on: queue), expectsCompletion: true) { _ in
      queue.sync {}
    }
    #expect(report.isSatisfied, "\(report)")
  }
}
