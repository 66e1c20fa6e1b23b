import Dispatch
import Rill
// The framework under test for Workloads.swift (shared with OpenCombineWorkloads through a symlink).
@_exported import RillCore

/// The framework's name, as shown in the benchmark table.
public let frameworkName = "Rill"

/// The scheduler that runs work on `queue`: Rill's DispatchQueue conformance.
func scheduler(for queue: DispatchQueue) -> DispatchQueue { queue }
