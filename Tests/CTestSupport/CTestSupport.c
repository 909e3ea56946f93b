#define _GNU_SOURCE
#include "CTestSupport.h"

#include <fcntl.h>

#include <errno.h>
#include <string.h>
#include <unistd.h>
#if defined(__linux__)
#include <linux/capability.h>
#include <sys/syscall.h>
#endif

int cts_set_file_access_override(int enabled) {
#if defined(__linux__)
    struct __user_cap_header_struct header;
    struct __user_cap_data_struct data[2];
    memset(&header, 0, sizeof(header));
    memset(data, 0, sizeof(data));
    header.version = _LINUX_CAPABILITY_VERSION_3;
    header.pid = 0;
    // The raw system call changes only the calling thread; glibc's wrappers would change all.
    if (syscall(SYS_capget, &header, data) != 0) {
        return errno;
    }
    unsigned mask = (1u << CAP_DAC_OVERRIDE) | (1u << CAP_DAC_READ_SEARCH);
    if (enabled) {
        data[0].effective |= (mask & data[0].permitted);
    } else {
        data[0].effective &= ~mask;
    }
    if (syscall(SYS_capset, &header, data) != 0) {
        return errno;
    }
    return 0;
#else
    (void)enabled;
    return ENOSYS;
#endif
}

int cts_pipe_cloexec(int ends[2]) {
#if defined(__linux__)
    return pipe2(ends, O_CLOEXEC);
#else
    if (pipe(ends) != 0) return -1;
    fcntl(ends[0], F_SETFD, FD_CLOEXEC);
    fcntl(ends[1], F_SETFD, FD_CLOEXEC);
    return 0;
#endif
}
