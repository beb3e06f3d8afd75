#ifndef SUITE_PARALLELISM_H
#define SUITE_PARALLELISM_H

/// How many test cases Swift Testing runs at once in this test process: the value of
/// SWT_EXPERIMENTAL_MAXIMUM_PARALLELIZATION_WIDTH as the process started, set by
/// SuiteParallelism.c unless the person running the tests set it, or 0 when it is not a
/// number.
int suite_parallelism_width(void);

#endif
