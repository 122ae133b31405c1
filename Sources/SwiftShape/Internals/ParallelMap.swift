import Dispatch
import Synchronization

/// Maps items on several threads, keeping their order.
package enum ParallelMap {
  /// `items.map(body)`, computed by `jobs` threads taking the next item as they finish one.
  package static func run<Item: Sendable, Mapped: Sendable>(
    _ items: [Item], jobs: Int, _ body: @Sendable (Item) -> Mapped
  ) -> [Mapped] {
    guard jobs > 1, items.count > 1 else { return items.map(body) }
    let results = Protected<[Mapped?]>(Array(repeating: nil, count: items.count))
    let next = Atomic<Int>(0)
    DispatchQueue.concurrentPerform(iterations: min(jobs, items.count)) { _ in
      while true {
        let index = next.add(1, ordering: .relaxed).oldValue
        guard index < items.count else { return }
        let result = body(items[index])
        results.withLock { $0[index] = result }
      }
    }
    return results.withLock { $0.map { $0! } }
  }
}
