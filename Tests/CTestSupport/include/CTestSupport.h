// Helpers for tests that need the kernel directly.
#ifndef CTESTSUPPORT_H
#define CTESTSUPPORT_H

/// Drops (or restores) CAP_DAC_OVERRIDE and CAP_DAC_READ_SEARCH from the calling thread's
/// effective set, so that a root test process meets permission checks like an ordinary user on
/// that one thread. Returns 0, or the errno value.
int cts_set_file_access_override(int enabled);

#endif
