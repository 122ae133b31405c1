#ifndef SWIFTSHAPE_ARGUMENTS_H
#define SWIFTSHAPE_ARGUMENTS_H

// Nothing to call: linking Arguments.c is what counts (it gives the Swift runtime the command's
// arguments on Linux; see there).

#endif
