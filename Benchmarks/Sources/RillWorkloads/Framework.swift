// The framework under test for Workloads.swift (shared with OpenCombineWorkloads through a symlink).
@_exported import RillCore

/// The framework's name, as shown in the benchmark table.
public let frameworkName = "Rill"
