// Bounds how many test cases Swift Testing runs at once in the test process.
//
// Left to itself, Swift Testing starts every test case of the run together: on a 2-core
// machine hundreds of tests each hold a PassSandbox, a loopback HTTP server and its threads
// (nearly a thousand threads), and share two threads of Swift concurrency. Each one then
// moves at the pace of the whole run, not its own: at load 20, steps that take milliseconds
// alone went a minute without a turn, healthy requests reached their timeouts, and a third
// of the suite failed. With a bounded width the same run on the same machine passes,
// because a test that has started gets its share of the machine until it ends.
//
// Swift Testing reads the bound from SWT_EXPERIMENTAL_MAXIMUM_PARALLELIZATION_WIDTH when the
// run starts, after this constructor has run (it runs as the test binary is loaded, before
// main), so a plain `swift test` gets it. A width set by the person running the tests wins.
// Tests/EndToEndTests/SuiteParallelismTests.swift checks it is in force.
#include "SuiteParallelism.h"

#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

static const char *const variable = "SWT_EXPERIMENTAL_MAXIMUM_PARALLELIZATION_WIDTH";

// Four test cases per core, at least eight and at most 64: most tests spend their time
// waiting (a back-off, a timeout, a browser), so the cores stay busy, and no test waits
// behind more than a few others for the CPU. Past 64, a big machine gains little and the
// tests that start child processes only queue longer for their turn.
__attribute__((constructor)) static void bound_suite_parallelism(void) {
    if (getenv(variable) != NULL) return;
    long cores = sysconf(_SC_NPROCESSORS_ONLN);
    long width = cores * 4 > 8 ? cores * 4 : 8;
    if (width > 64) width = 64;
    char text[24];
    snprintf(text, sizeof text, "%ld", width);
    setenv(variable, text, 0);
}

int suite_parallelism_width(void) {
    const char *value = getenv(variable);
    return value == NULL ? 0 : atoi(value);
}
