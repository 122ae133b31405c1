// Pointers of each thread's own, read as thread-local variables: the thread's shaping cache
// (`ThreadCache.current`, Sources/SwiftShape/Cache/ShapingCache.swift) and its reusable HarfBuzz
// buffer (`Buffer.withReusable`, Sources/HarfBuzz/Internals/ReusableBuffer.swift), each also held
// by a thread-specific slot (`pthread_setspecific`), which releases it when the thread ends.
//
// Swift reads thread-specific data only through `pthread_getspecific`, a call into the C library,
// with a key made lazily and checked for having been made at each read: about 75 instructions,
// where a thread-local variable is a load. Those two are read once or twice for each text shaped.
#ifndef SWIFTSHAPE_THREAD_SLOTS_H
#define SWIFTSHAPE_THREAD_SLOTS_H

extern __thread void *swiftshape_thread_cache;
extern __thread void *swiftshape_thread_buffer;

static inline void *swiftshape_thread_cache_get(void) { return swiftshape_thread_cache; }
static inline void swiftshape_thread_cache_set(void *value) { swiftshape_thread_cache = value; }
static inline void *swiftshape_thread_buffer_get(void) { return swiftshape_thread_buffer; }
static inline void swiftshape_thread_buffer_set(void *value) { swiftshape_thread_buffer = value; }

// How many threads have a shaping cache now, written under the caches' registry's lock and read
// without it (a relaxed atomic load: a plain load) on the way of each line with pieces not
// found: whether another thread may have shaped them, or may want those this one shapes
// (`SharedPieces`, Sources/SwiftShape/Cache/SharedPieces.swift).
extern long swiftshape_live_caches;

static inline long swiftshape_live_caches_get(void) {
  return __atomic_load_n(&swiftshape_live_caches, __ATOMIC_RELAXED);
}
static inline void swiftshape_live_caches_set(long value) {
  __atomic_store_n(&swiftshape_live_caches, value, __ATOMIC_RELAXED);
}

#endif
