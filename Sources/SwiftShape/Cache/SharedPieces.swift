// Speed: the pieces one thread shaped, offered to the others. Each thread keeps its own tables
// (no lock where a piece is found); while more than one thread has a cache, a piece a thread does
// not find in its own tables is looked for here before it is shaped, and a piece it shapes is put
// here for the others. Only a line with pieces not found takes the lock, twice at most, where it
// also calls HarfBuzz. Two threads shaping eight copies of the English text (`--jobs 2`) called
// HarfBuzz 3,545 times where one thread calls it 1,769 times, each worker learning every word for
// itself; sharing, 1,810 to 1,830 (746 M instructions in all, where they were 872 M and one thread
// takes 729 M, callgrind). See the README's "The shaping cache".

/// The pieces every thread's table of one key (a font, its options, a direction, script and
/// language) has shaped and kept, for the other threads' tables of that key (`ThreadCache.Table`).
/// Holds at most `ShapingCache.limit` bytes of pieces, emptied when more (as a thread's tables
/// are); the pieces themselves are shared with the tables that keep them, never copied.
final class SharedPieces: Sendable {
  // A piece is immutable once made (its text and glyphs written before it is put here), and
  // retained by a thread before the lock is let go, so a piece found lives while that thread uses
  // it, whatever this table drops.
  private let state = Protected(State())

  private struct State: @unchecked Sendable {
    // @unchecked: read and written only under `Protected`'s lock.
    var pieces = PieceTable()
    var bytes = 0

    /// Stores `piece` under `key` (unless one is stored under it), emptied past the limit.
    mutating func add(_ key: UInt64, _ piece: ThreadCache.Piece) {
      guard pieces.insert(key, piece) else { return }
      bytes += piece.byteCount
      if bytes > ShapingCache.limit {
        pieces = PieceTable()
        bytes = 0
      }
    }
  }

  /// Finds the pieces missing from `found` (nil there) under their `keys`, each compared with its
  /// text by `holds`; each found is appended to `retained` (which keeps it alive for the caller)
  /// and put in `found`. Returns how many were found.
  func find(
    _ keys: [UInt64], into found: inout [Unmanaged<ThreadCache.Piece>?], retained: inout [ThreadCache.Piece],
    holds: (Int, ThreadCache.Piece) -> Bool
  ) -> Int {
    state.withLock { state in
      var hits = 0
      for index in keys.indices where found[index] == nil {
        guard let stored = state.pieces.find(keys[index]) else { continue }
        let piece = stored.takeUnretainedValue()
        guard holds(index, piece) else { continue }
        retained.append(piece)
        found[index] = Unmanaged.passUnretained(piece)
        hits += 1
      }
      return hits
    }
  }

  /// Offers `pieces`, each under its key, to the other threads.
  func insert(_ keys: UnsafeBufferPointer<UInt64>, _ offered: UnsafeBufferPointer<ThreadCache.Piece>) {
    state.withLock { state in
      for (key, piece) in zip(keys, offered) { state.add(key, piece) }
    }
  }

  /// Offers every piece of a thread's table (which that thread shaped before another came).
  func insert(contentsOf table: PieceTable) {
    state.withLock { state in table.forEach { state.add($0, $1) } }
  }
}

extension FontCacheState {
  /// The shared pieces of the tables of `key` (made when first asked for).
  func sharedPieces(_ key: ThreadCache.TableKey) -> SharedPieces {
    sharedTables.withLock { tables in
      if let known = tables[key] { return known }
      let made = SharedPieces()
      tables[key] = made
      return made
    }
  }
}
