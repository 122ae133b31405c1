import Dispatch

/// Work done on other threads and taken in submission order on the submitting thread, as it
/// completes: the submitter goes on (reading input) while earlier work runs, and writes results
/// between submissions. `workers` serial queues take the pieces in turn, so at most that many run
/// at once; at most `limit` are in flight, and submitting more waits for the oldest.
final class OrderedPipeline<Output: Sendable> {
  /// One piece of work: its output, set once by the thread that did it before `done` is signalled.
  private final class Slot: @unchecked Sendable {
    // @unchecked: `output` is written once, before `done.signal()`, and read only after
    // `done.wait()` returns, which orders the two.
    var output: Output?
    let done = DispatchSemaphore(value: 0)
  }

  private var slots: [Slot] = []
  /// The first slot not yet taken.
  private var head = 0
  private let limit: Int
  private let workers: [DispatchQueue]
  private var submitted = 0
  private let take: (Output) throws -> Void

  /// A pipeline that hands each output, in order, to `take` (on the submitting thread).
  init(workers: Int, limit: Int, take: @escaping (Output) throws -> Void) {
    self.workers = (0..<max(1, workers)).map { DispatchQueue(label: "swiftshape.worker.\($0)") }
    self.limit = max(1, limit)
    self.take = take
  }

  /// Starts `work` on another thread, then takes what has finished, in order (waiting while more
  /// than `limit` pieces are in flight).
  func submit(_ work: @escaping @Sendable () -> Output) throws {
    let slot = Slot()
    slots.append(slot)
    submitted += 1
    workers[submitted % workers.count].async {
      slot.output = work()
      slot.done.signal()
    }
    try takeFinished(leavingAtMost: limit)
  }

  /// Waits for every piece and takes them all, in order.
  func finish() throws { try takeFinished(leavingAtMost: 0) }

  /// Waits for every piece without taking any more (after a failure, so that no work is left
  /// running when the caller returns).
  func abandon() {
    for slot in slots[head...] { slot.done.wait() }
    slots.removeAll()
    head = 0
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
      guard let output = slot.output else { continue }
      slot.output = nil
      try take(output)
    }
    if head > 1024 {
      slots.removeFirst(head)
      head = 0
    }
  }
}
