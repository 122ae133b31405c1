#include "SwiftShapeArguments.h"

// The command's arguments, taken from the C library at start instead of found by the Swift
// runtime.
//
// On Linux, the Swift runtime finds argv for `CommandLine` with a static initializer that reads
// and parses /proc/self/maps to locate the process's stack (a fifth of a million instructions and
// the kernel's work of writing the map: about 5% of the command's start-up). glibc hands argc and
// argv to every function in .init_array, so this file captures them there and defines the two
// runtime entry points that `CommandLine` calls, with the runtime's signatures. A program linked
// with the static Swift runtime then never pulls the runtime's own definitions (nor their
// initializer) from its archive; with a dynamic runtime either answers the same. Should a future
// runtime need something else from that archive member, the link fails on the duplicate
// definitions rather than doing anything silently.
#if defined(__linux__) && defined(__ELF__)

static int captured_count;
static char **captured_vector;
static int override_count;
static char **override_vector;

static void capture(int argc, char **argv, char **envp) {
  (void)envp;
  captured_count = argc;
  captured_vector = argv;
}

// glibc calls each function of .init_array with argc, argv and envp.
__attribute__((section(".init_array"), used)) static void (*const capture_at_start)(int, char **,
                                                                                    char **) = capture;

// The runtime's signatures (swift/stdlib/public/CommandLineSupport): called with Swift's calling
// convention.
__attribute__((swiftcall)) char **_swift_stdlib_getUnsafeArgvArgc(int *outArgLen) {
  if (override_vector) {
    *outArgLen = override_count;
    return override_vector;
  }
  static char *empty[] = {0};
  *outArgLen = captured_vector ? captured_count : 0;
  return captured_vector ? captured_vector : empty;
}

__attribute__((swiftcall)) void _swift_stdlib_overrideUnsafeArgvArgc(char **argv, int argc) {
  override_vector = argv;
  override_count = argc;
}

#endif
