/// Gives other tasks a chance to run, for the virtual-time schedulers' `async` advances.
///
/// A test that drives code awaiting `values` or a `Future` moves the clock, then expects the awaiting task to have
/// seen what the clock released. That task runs on the cooperative pool, so each round hops to a fresh background
/// task and yields there, which lets waiting tasks be scheduled before the clock moves on. No number of rounds
/// proves that every task has run; `rounds` is enough for tasks that resume right away.
package func yieldToOtherTasks(rounds: Int = 100) async {
  for _ in 0..<rounds {
    await Task.detached(priority: .background) { await Task.yield() }.value
  }
}
