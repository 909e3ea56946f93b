// Helpers for tests that need the kernel directly.
#ifndef CTESTSUPPORT_H
#define CTESTSUPPORT_H

/// Drops (or restores) CAP_DAC_OVERRIDE and CAP_DAC_READ_SEARCH from the calling thread's
/// effective set, so that a root test process meets permission checks like an ordinary user on
/// that one thread. Returns 0, or the errno value.
int cts_set_file_access_override(int enabled);

/// A pipe whose two ends are close-on-exec from the start (`pipe2` with `O_CLOEXEC`, which
/// Swift's Glibc module does not offer): no program another thread starts meanwhile inherits
/// an end. Returns 0, or -1 with errno set.
int cts_pipe_cloexec(int ends[2]);

#endif
