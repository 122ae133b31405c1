import SwiftShapeUnicode
import Testing

/// The arrays the layout writes in place (`Array.init(capacity:writing:)`): what the writer
/// writes, no more, whatever room it was given.
@Suite("Arrays written in place")
struct ArrayFillingTests {
  @Test func holdsWhatTheWriterWrites() {
    let squares = [Int](capacity: 10) { room in
      #expect(room.count == 10)
      for index in room.indices { room[index] = index * index }
      return room.count
    }
    #expect(squares == (0..<10).map { $0 * $0 })
  }

  @Test func dropsTheRoomLeftUnwritten() {
    // Bools and glyph-like structures read back only what was written: the rest is removed
    // before anything reads it.
    let flags = [Bool](capacity: 64) { room in
      for index in 0..<3 { room[index] = index != 1 }
      return 3
    }
    #expect(flags == [true, false, true])
    var grown = flags
    grown.append(false)
    #expect(grown == [true, false, true, false])
    let none = [Int32](capacity: 8) { _ in 0 }
    #expect(none.isEmpty)
  }

  @Test func callsTheWriterWithoutRoom() {
    var called = false
    let empty = [UInt16](capacity: 0) { room in
      called = true
      #expect(room.isEmpty)
      return 0
    }
    #expect(called && empty.isEmpty)
  }
}
