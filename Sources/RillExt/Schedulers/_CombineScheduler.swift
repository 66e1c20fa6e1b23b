public import RillCore

/// Combine's `Scheduler` protocol, under a name that a generic parameter called `Scheduler` does not hide.
///
/// combine-schedulers declares it so that ``Publishers/Timer`` can name its generic parameter `Scheduler`; RillExt
/// declares it for the same reason, and so that code that spells it builds unchanged.
public typealias _CombineScheduler = RillCore.Scheduler
