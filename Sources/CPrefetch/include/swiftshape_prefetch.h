// A hint to the processor, which Swift has no way to give: bring the memory at an address into its
// cache before it is read. It changes no result and never faults, whatever the address.
//
// The shaping cache uses it where it knows, a line ahead, which memory it will read: the slots of
// a line's pieces, then the pieces found (`PieceTable.find(_:into:)` in
// Sources/SwiftShape/Cache/PieceStorage.swift says what it bought).
#ifndef SWIFTSHAPE_PREFETCH_H
#define SWIFTSHAPE_PREFETCH_H

static inline void swiftshape_prefetch(const void *address) { __builtin_prefetch(address); }

#endif
