import Dispatch
// The framework under test for Workloads.swift (a symlink to RillWorkloads/Workloads.swift).
@_exported import OpenCombine
import OpenCombineDispatch

/// The framework's name, as shown in the benchmark table.
public let frameworkName = "OpenCombine"

/// The scheduler that runs work on `queue`: OpenCombine's wrapper around it.
func scheduler(for queue: DispatchQueue) -> DispatchQueue.OCombine { queue.ocombine }
