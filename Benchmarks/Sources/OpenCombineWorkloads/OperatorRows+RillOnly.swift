// OpenCombine has no merge, no combineLatest, no virtual-time scheduler and nothing of RillExt's: those rows are
// Rill's alone (RillWorkloads/OperatorRows+RillOnly.swift and OperatorRows+RillExt.swift), and the table shows n/a
// for OpenCombine.
extension OperatorRows {
  static let rillOnlyCombining: [Workload] = []
  static let virtualTime: [Workload] = []
  static let rillExt: [Workload] = []
}
