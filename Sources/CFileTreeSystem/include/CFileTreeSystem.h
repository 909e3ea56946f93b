// System calls that Swift's Glibc module does not expose (statx, renameat2) or that are awkward
// from Swift (readdir's d_name), wrapped with plain types so FileTree can call them directly.
#ifndef CFILETREESYSTEM_H
#define CFILETREESYSTEM_H

#include <stdint.h>
#include <dirent.h>

/// One item's status, as read by statx (Linux) or fstatat (elsewhere).
typedef struct cft_status {
    uint32_t mode;
    uint32_t uid;
    uint32_t gid;
    uint32_t has_birth_time;
    uint64_t nlink;
    uint64_t inode;
    uint64_t device;
    int64_t size;
    int64_t blocks;
    int64_t access_sec;
    int64_t access_nsec;
    int64_t modify_sec;
    int64_t modify_nsec;
    int64_t change_sec;
    int64_t change_nsec;
    int64_t birth_sec;
    int64_t birth_nsec;
} cft_status;

/// Reads the status of `path` relative to `dirfd` without following a final symlink unless
/// `follow` is non-zero. Returns 0, or the errno value.
int cft_status_at(int dirfd, const char *path, int follow, cft_status *out);

/// Reads the status of `count` names in the open folder `dirfd`, never following a link: name
/// `i` is the NUL-terminated text at `names + offsets[i]`; `status[i]` is its status and
/// `errors[i]` 0 or the errno value; for a link, `leads_to_folder[i]` says whether what it leads
/// to is a folder. With `threads` above 1 and enough names, a second thread shares the work,
/// both taking chunks of 256 names as they go, and is ended before this returns (a large
/// folder's reading is mostly these calls).
void cft_status_batch(int dirfd, const char *names, const uint32_t *offsets, long count, cft_status *status,
                      int *errors, uint8_t *leads_to_folder, int threads);

/// Reads the status of what the open descriptor `fd` is (fstat). Returns 0, or the errno value.
int cft_status_of_descriptor(int fd, cft_status *out);

/// Reads the next entry of `dir`. Returns its name (valid until the next call), or NULL at the
/// end or on error (then `*error` holds errno, or 0 at the end). `*type` is readdir's d_type.
const char *cft_next_entry(DIR *dir, unsigned char *type, int *error);

/// Renames without ever replacing an existing destination (renameat2 RENAME_NOREPLACE on Linux,
/// renamex_np RENAME_EXCL on Apple platforms). Returns 0, or the errno value; ENOSYS or EINVAL
/// when the file system cannot do it atomically.
int cft_rename_noreplace(int olddirfd, const char *oldpath, int newdirfd, const char *newpath);

/// Swaps two existing items in one step (renameat2 RENAME_EXCHANGE on Linux, renamex_np
/// RENAME_SWAP on Apple platforms): each name then holds what the other held. Returns 0, or the
/// errno value; ENOSYS or EINVAL when the file system cannot do it.
int cft_rename_exchange(int olddirfd, const char *oldpath, int newdirfd, const char *newpath);

/// Lists the extended attribute names of `path` (a final symlink not followed) into `buffer`
/// as NUL-separated names; with `size` 0, returns the size needed. Returns -1 on error.
long cft_list_extended_attributes(const char *path, char *buffer, unsigned long size);

/// Reads up to `count` bytes at `offset` only as far as they are in the page cache, never
/// waiting for a disk (preadv2 with RWF_NOWAIT on Linux). Returns the bytes read (0 at the end of
/// the file), or -1 with errno set: EAGAIN when the next byte would need the disk, ENOTSUP
/// (or EOPNOTSUPP, ENOSYS) where the system cannot tell.
long cft_read_cached(int fd, void *buffer, unsigned long count, long long offset);

/// Starts writing a range of a file's dirty pages to disk without waiting for it
/// (sync_file_range with SYNC_FILE_RANGE_WRITE on Linux; nothing elsewhere), so that a later fsync
/// has little left to do. Returns 0, or the errno value.
int cft_start_writeback(int fd, long long offset, long long length);

/// Names the calling thread (shown by `top -H`, debuggers, crash reports); longer names are cut
/// to what the system keeps.
void cft_set_thread_name(const char *name);

/// File type constants of readdir's d_type, for Swift.
enum {
    CFT_DT_UNKNOWN = DT_UNKNOWN,
    CFT_DT_DIR = DT_DIR,
    CFT_DT_REG = DT_REG,
    CFT_DT_LNK = DT_LNK,
};

/// Opens `path` (relative, `/`-separated) below the folder `rootfd` without ever leaving it:
/// every component is looked up relative to the folder before it, `..` and symlinks are followed
/// only while they stay below `rootfd`, and an absolute symlink counts as inside only when its
/// text starts with `root_real` (the root's real path), where it continues from `rootfd`.
/// Linux 5.6+ resolves with openat2(RESOLVE_BENEATH | RESOLVE_NO_MAGICLINKS); elsewhere, and
/// for absolute links, a walk of openat(O_NOFOLLOW) calls, one component at a time.
/// `flags` and `mode` are open(2)'s (O_NOFOLLOW applies to the last component).
/// Returns the descriptor, or -1 with errno set: EXDEV when the path leads out of `rootfd`,
/// ELOOP past 40 links.
int cft_open_beneath(int rootfd, const char *root_real, const char *path, int flags, unsigned int mode);

/// The flags that open an item only to read its status: `O_PATH` where there is one (no read
/// permission needed, nothing read), else a non-blocking read-only open (a FIFO does not wait).
int cft_status_open_flags(void);

/// Extended attributes of an open descriptor (Swift's Glibc module does not expose
/// <sys/xattr.h>; Apple's calls take two more arguments). Each returns what the system call
/// does (-1 with errno on failure).
long cft_get_attribute(int fd, const char *name, void *value, unsigned long size);
int cft_set_attribute(int fd, const char *name, const void *value, unsigned long size);
int cft_remove_attribute(int fd, const char *name);
/// The extended attribute `attribute` of `name` inside the open folder `dirfd`, never through a
/// symlink there: one system call on Linux (lgetxattr through /proc/self/fd), otherwise an
/// openat with O_NOFOLLOW around fgetxattr. Returns what getxattr does (-1 with errno).
long cft_get_attribute_at(int dirfd, const char *name, const char *attribute, void *value, unsigned long size);

/// Whether this kernel can confine a child to some folders (Linux's Landlock, ABI 1 or later):
/// the ABI version, or 0 when it cannot.
int cft_confinement_version(void);

/// Starts `path` with `argv` and `envp` as posix_spawn would, standard input `stdin_fd` (-1:
/// /dev/null), standard output `stdout_fd`, standard error /dev/null, no other descriptor,
/// confined before it runs (Landlock, with no new privileges) to reading and running what lies
/// beneath the `read_count` paths of `read_paths` and the `read_fd_count` open descriptors of
/// `read_fds` (a rule on what each is, not on a path), and to anything beneath the
/// `write_count` paths of `write_paths`: whatever it opens elsewhere, or through a link that
/// leads elsewhere, fails with EACCES. A path that does not exist is passed by; one that is a
/// file is allowed as a file. The child makes no socket, a connected pair aside (seccomp, on
/// x86-64 and arm64), and where the kernel can (Landlock ABI 4 and 6) it binds and connects no TCP
/// socket, and signals no process and reaches no abstract Unix socket outside its
/// confinement. Returns 0 with the child's id in `pid_out`, or an errno when
/// nothing runs: ENOSYS when the kernel cannot confine, or why confining or starting failed.
int cft_spawn_confined(const char *path, char *const argv[], char *const envp[], int stdin_fd, int stdout_fd,
                       const char *const *read_paths, int read_count, const int *read_fds, int read_fd_count,
                       const char *const *write_paths, int write_count, int *pid_out);

/// Asks the processor to start loading the cache line at `address` (a hint: it never faults).
/// A listing reads its entries' statuses in name order, which is not the order they were read
/// in, so each would otherwise wait on memory.
static inline void cft_prefetch(const void *address) { __builtin_prefetch(address, 0, 3); }

#endif

