import Dispatch
import SwiftShape

/// Work done on other threads and taken in submission order on the submitting thread, as it
/// completes: the submitter goes on (reading input) while earlier work runs, and writes results
/// between submissions. `workers` threads take the pieces in the order they were submitted, each
/// the next one as soon as it is free (a piece that takes longer holds up no other thread); at most
/// `limit` are in flight, and submitting more waits for the oldest.
package final class OrderedPipeline<Output: Sendable> {
  /// One piece of work: its output, set once by the thread that did it before `done` is signalled.
  private final class Slot: @unchecked Sendable {
    // @unchecked: `output` is written once, before `done.signal()`, and read only after
    // `done.wait()` returns, which orders the two.
    var output: Output?
    let done = DispatchSemaphore(value: 0)
    let work: @Sendable () -> Output

    init(_ work: @escaping @Sendable () -> Output) { self.work = work }
  }

  /// The pieces in submission order, on the submitting thread; `head` is the first not yet taken.
  private var slots: [Slot] = []
  private var head = 0
  /// The pieces not yet started, oldest first, and the workers' count of pieces to start (or, at
  /// the end, of workers to stop).
  private let waiting = Protected<Queue>(Queue())
  private let ready = DispatchSemaphore(value: 0)
  private let stopped = DispatchGroup()
  private var running: Bool
  private let workerCount: Int
  private let limit: Int
  private let take: (inout Output) throws -> Void

  private struct Queue: Sendable {
    var slots: [Slot] = []
    var next = 0
  }

  /// A pipeline that hands each output, in order, to `take` (on the submitting thread), which may
  /// move parts out of it: the pipeline keeps no other copy.
  package init(workers: Int, limit: Int, take: @escaping (inout Output) throws -> Void) {
    workerCount = max(1, workers)
    self.limit = max(1, limit)
    self.take = take
    running = true
    let waiting = waiting
    let ready = ready
    for _ in 0..<workerCount {
      DispatchQueue.global().async(group: stopped) {
        // Pieces until a signal finds none waiting: the signal to stop.
        while true {
          ready.wait()
          let slot = waiting.withLock { queue -> Slot? in
            guard queue.next < queue.slots.count else { return nil }
            defer { queue.next += 1 }
            return queue.slots[queue.next]
          }
          guard let slot else { return }
          slot.output = slot.work()
          slot.done.signal()
        }
      }
    }
  }

  deinit { stop() }

  /// Starts `work` on another thread, then takes what has finished, in order (waiting while more
  /// than `limit` pieces are in flight).
  package func submit(_ work: @escaping @Sendable () -> Output) throws {
    let slot = Slot(work)
    slots.append(slot)
    waiting.withLock { queue in
      if queue.next > 1024 {
        queue.slots.removeFirst(queue.next)
        queue.next = 0
      }
      queue.slots.append(slot)
    }
    ready.signal()
    try takeFinished(leavingAtMost: limit)
  }

  /// Waits for every piece and takes them all, in order.
  package func finish() throws { try takeFinished(leavingAtMost: 0) }

  /// Waits for every piece without taking any more (after a failure, so that no work is left
  /// running when the caller returns), and stops the workers.
  package func abandon() {
    for slot in slots[head...] { slot.done.wait() }
    slots.removeAll()
    head = 0
    stop()
  }

  /// Stops the workers once every piece has started, and waits for them.
  private func stop() {
    guard running else { return }
    running = false
    for _ in 0..<workerCount { ready.signal() }
    stopped.wait()
  }

  private func takeFinished(leavingAtMost inFlight: Int) throws {
    while head < slots.count {
      let slot = slots[head]
      if slots.count - head > inFlight {
        slot.done.wait()
      } else if slot.done.wait(timeout: .now()) == .timedOut {
        break
      }
      head += 1
      guard var output = slot.output.take() else { continue }
      try take(&output)
    }
    if head > 1024 {
      slots.removeFirst(head)
      head = 0
    }
  }
}
