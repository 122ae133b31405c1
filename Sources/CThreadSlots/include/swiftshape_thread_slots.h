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

#endif
