import CThreadSlots

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

// Speed: lending each thread one buffer saves allocating a buffer and growing its arrays at every
// call; lent through the thread's slot without reference counting, and only cleared between uses
// unless a setting changed (see README, Performance: what the hot path does).

extension Buffer {
  /// Runs `body` with a buffer kept for the current thread and reused by later calls, so that
  /// shaping many short texts does not allocate a buffer (and grow its arrays) each time. The
  /// buffer comes empty with default settings (after each use it is reset, or only cleared when no
  /// setting was changed); a nested call gets a buffer of its own. `body` must not keep it.
  ///
  /// The corresponding C functions are `hb_buffer_create` (once per thread), `hb_buffer_reset` and
  /// `hb_buffer_clear_contents`.
  @inlinable
  public static func withReusable<Result>(_ body: (Buffer) throws -> Result) throws -> Result {
    // The thread's own buffer is used through the slot's reference, without a retain and a
    // release of its own; a nested call's buffer is owned here.
    let (lent, owned) = try lendReusable()
    defer {
      lent._withUnsafeGuaranteedRef { $0.giveBack() }
      if owned { lent.release() }
    }
    return try lent._withUnsafeGuaranteedRef { try body($0) }
  }

  /// The current thread's reusable buffer, marked lent and still held by the thread's slot; or,
  /// when that one is lent already (a nested call), a new buffer retained for the caller (`owned`).
  @usableFromInline
  static func lendReusable() throws -> (buffer: Unmanaged<Buffer>, owned: Bool) {
    // (Read from a thread-local variable, `CThreadSlots`: through `pthread_getspecific`, 55
    // instructions a call more, callgrind.)
    if let slot = swiftshape_thread_buffer_get() {
      let buffer = Unmanaged<Buffer>.fromOpaque(slot)
      let lent = buffer._withUnsafeGuaranteedRef { buffer in
        guard !buffer.isLent else { return false }
        buffer.isLent = true
        return true
      }
      return lent ? (buffer, false) : (Unmanaged.passRetained(try Buffer()), true)
    }
    let buffer = try Buffer()
    buffer.isLent = true
    let held = Unmanaged.passRetained(buffer)
    pthread_setspecific(ReusableBufferKey.shared.key, held.toOpaque())
    swiftshape_thread_buffer_set(held.toOpaque())
    return (held, false)
  }

  /// Ends a loan of `lendReusable`: the buffer is reset for the next one. (Only cleared when no
  /// setting was changed: `hb_buffer_reset` also takes and lets go of a reference to the default
  /// Unicode functions, two atomic operations.)
  @usableFromInline
  func giveBack() {
    messageHandler = nil
    if hasSettings { reset() } else { clearContents() }
    isLent = false
  }
}

/// The thread-specific slot that holds each thread's reusable buffer; the buffer is released when
/// its thread exits.
private final class ReusableBufferKey: Sendable {
  static let shared = ReusableBufferKey()
  let key: pthread_key_t

  private init() {
    var key = pthread_key_t()
    // (Run on the ending thread: what it reads of its variable from here on is nothing.)
    #if canImport(Darwin)
      pthread_key_create(&key) {
        swiftshape_thread_buffer_set(nil)
        Unmanaged<Buffer>.fromOpaque($0).release()
      }
    #else
      pthread_key_create(&key) { slot in
        swiftshape_thread_buffer_set(nil)
        if let slot { Unmanaged<Buffer>.fromOpaque(slot).release() }
      }
    #endif
    self.key = key
  }
}
