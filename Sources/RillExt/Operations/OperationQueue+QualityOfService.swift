public import Foundation

extension OperationQueue {
  /// Creates an operation queue with a name, a quality of service and a limit of concurrent operations.
  ///
  /// ```swift
  /// let serialQueue = OperationQueue(name: "Downloads", qualityOfService: .utility, maxConcurrentOperationCount: 1)
  /// ```
  ///
  /// - Parameters:
  ///   - name: The queue's name.
  ///   - qualityOfService: The default quality of service of the queue's operations.
  ///   - maxConcurrentOperationCount: How many operations may run at once.
  public convenience init(
    name: String? = nil,
    qualityOfService: QualityOfService,
    maxConcurrentOperationCount: Int = OperationQueue.defaultMaxConcurrentOperationCount
  ) {
    self.init()
    self.name = name
    self.qualityOfService = qualityOfService
    self.maxConcurrentOperationCount = maxConcurrentOperationCount
  }
}
