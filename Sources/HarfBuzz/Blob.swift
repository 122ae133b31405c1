import CHarfBuzz

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// An immutable run of bytes HarfBuzz reads fonts from.
///
/// Blobs are created read-only and never changed afterwards, and HarfBuzz's reference counting is
/// atomic, so one may be shared between threads.
///
/// The corresponding C type is `hb_blob_t`.
public final class Blob: @unchecked Sendable {
  // > Some objects are thread-safe after they have been constructed and set up. The general
  // > pattern is to create() the object, make a few set_*() calls to set up the object, and then
  // > use it without further modification.
  // https://harfbuzz.github.io/object-model-lifecycle.html
  // Every initializer below makes the blob immutable (hb_blob_make_immutable) before it is
  // published, and nothing changes it afterwards; reference counting is atomic.
  let pointer: OpaquePointer

  /// Takes over one reference to a blob.
  init(takingOwnership pointer: OpaquePointer) {
    hb_blob_make_immutable(pointer)
    self.pointer = pointer
  }

  deinit { hb_blob_destroy(pointer) }

  /// Maps a file into memory (or reads it where mapping is not possible).
  ///
  /// - Parameter path: the file's path.
  /// - Throws: `HarfBuzzError` with kind `.cannotReadFile` when the file does not exist, is a
  ///   folder, or cannot be opened or read. An empty blob is never returned for a failure.
  ///
  /// The corresponding C function is `hb_blob_create_from_file_or_fail`.
  public convenience init(contentsOfFile path: String) throws {
    var info = stat()
    guard stat(path, &info) == 0 else { throw HarfBuzzError.file(path, errno: errno) }
    guard (info.st_mode & S_IFMT) != S_IFDIR else { throw HarfBuzzError.file(path, errno: EISDIR) }
    // Opening first gives the precise errno (permission denied, …), which HarfBuzz does not report.
    let descriptor = open(path, O_RDONLY)
    guard descriptor >= 0 else { throw HarfBuzzError.file(path, errno: errno) }
    close(descriptor)
    guard let blob = hb_blob_create_from_file_or_fail(path) else {
      throw HarfBuzzError.file(path, errno: errno == 0 ? EIO : errno)
    }
    self.init(takingOwnership: blob)
  }

  /// Copies bytes into a new blob that HarfBuzz owns.
  ///
  /// The corresponding C function is `hb_blob_create` with `HB_MEMORY_MODE_DUPLICATE`.
  public convenience init(copying bytes: some Collection<UInt8>) throws {
    let blob = Array(bytes).withUnsafeBufferPointer { buffer -> OpaquePointer? in
      // DUPLICATE copies the bytes before hb_blob_create returns.
      buffer.withMemoryRebound(to: CChar.self) {
        hb_blob_create_or_fail(
          $0.baseAddress, UInt32(clamping: $0.count), HB_MEMORY_MODE_DUPLICATE, nil, nil)
      }
    }
    guard let blob else {
      throw HarfBuzzError(.allocationFailed, input: "\(bytes.count) bytes", reason: "cannot allocate a blob")
    }
    self.init(takingOwnership: blob)
  }

  /// Wraps bytes without copying them.
  ///
  /// The bytes must stay valid and unchanged until `deallocator` is called, which happens once,
  /// when HarfBuzz releases its last reference to the blob (possibly after this object is gone,
  /// as faces made from the blob keep it alive), on whichever thread releases it.
  ///
  /// - Parameters:
  ///   - bytes: the memory to read.
  ///   - deallocator: called exactly once when HarfBuzz no longer needs the bytes.
  ///
  /// The corresponding C function is `hb_blob_create` with `HB_MEMORY_MODE_READONLY`.
  public convenience init(
    bytesNoCopy bytes: UnsafeRawBufferPointer, deallocator: @escaping @Sendable () -> Void
  ) throws {
    let box = Unmanaged.passRetained(Deallocator(deallocator)).toOpaque()
    guard
      let blob = hb_blob_create_or_fail(
        bytes.baseAddress?.assumingMemoryBound(to: CChar.self), UInt32(clamping: bytes.count),
        HB_MEMORY_MODE_READONLY, box,
        { userData in
          guard let userData else { return }
          Unmanaged<Deallocator>.fromOpaque(userData).takeRetainedValue().run()
        })
    else {
      // When it fails, hb_blob_create_or_fail has already called the destroy callback (see
      // hb-blob.cc), so the deallocator has run and its box is released: nothing leaks.
      throw HarfBuzzError(.allocationFailed, input: "\(bytes.count) bytes", reason: "cannot allocate a blob")
    }
    self.init(takingOwnership: blob)
  }

  /// The number of bytes.
  public var count: Int { Int(hb_blob_get_length(pointer)) }

  /// Calls `body` with the blob's bytes, valid only for the duration of the call.
  public func withUnsafeBytes<R>(_ body: (UnsafeRawBufferPointer) throws -> R) rethrows -> R {
    var length: UInt32 = 0
    let data = hb_blob_get_data(pointer, &length)
    return try body(UnsafeRawBufferPointer(start: data, count: Int(length)))
  }

  /// A copy of the bytes.
  public var bytes: [UInt8] { withUnsafeBytes { Array($0) } }
}

/// Holds a blob's deallocator for HarfBuzz's `destroy` callback.
private final class Deallocator {
  let run: @Sendable () -> Void
  init(_ run: @escaping @Sendable () -> Void) { self.run = run }
}
