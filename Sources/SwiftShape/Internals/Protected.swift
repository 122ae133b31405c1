#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// A value guarded by a pthread mutex: every access goes through `withLock`.
///
/// SwiftShape uses this rather than the standard library's `Mutex`, which on Linux waits on futexes
/// directly: ThreadSanitizer does not see those as synchronization and reports races that are not
/// there, while it understands pthread mutexes.
package final class Protected<Value: Sendable>: @unchecked Sendable {
  // @unchecked: `value` is only read or written inside `withLock`, with `mutex` held.
  private var value: Value
  private let mutex: UnsafeMutablePointer<pthread_mutex_t>

  package init(_ value: Value) {
    self.value = value
    mutex = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
    pthread_mutex_init(mutex, nil)
  }

  deinit {
    pthread_mutex_destroy(mutex)
    mutex.deallocate()
  }

  /// Runs `body` with the value, the mutex held.
  package func withLock<Result>(_ body: (inout Value) throws -> Result) rethrows -> Result {
    pthread_mutex_lock(mutex)
    defer { pthread_mutex_unlock(mutex) }
    return try body(&value)
  }
}
