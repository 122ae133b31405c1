// The variables the header's functions read and write.
#include "swiftshape_thread_slots.h"

__thread void *swiftshape_thread_cache = 0;
__thread void *swiftshape_thread_buffer = 0;
long swiftshape_live_caches = 0;
