#define _GNU_SOURCE
#include "CFileTreeSystem.h"

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <string.h>
#include <stdio.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/uio.h>
#include <sys/xattr.h>
#include <unistd.h>

static void cft_from_stat(const struct stat *st, cft_status *out) {
    out->mode = st->st_mode;
    out->uid = st->st_uid;
    out->gid = st->st_gid;
    out->nlink = (uint64_t)st->st_nlink;
    out->inode = (uint64_t)st->st_ino;
    out->device = (uint64_t)st->st_dev;
    out->size = (int64_t)st->st_size;
    out->blocks = (int64_t)st->st_blocks;
#if defined(__APPLE__)
    out->access_sec = st->st_atimespec.tv_sec;
    out->access_nsec = st->st_atimespec.tv_nsec;
    out->modify_sec = st->st_mtimespec.tv_sec;
    out->modify_nsec = st->st_mtimespec.tv_nsec;
    out->change_sec = st->st_ctimespec.tv_sec;
    out->change_nsec = st->st_ctimespec.tv_nsec;
    out->birth_sec = st->st_birthtimespec.tv_sec;
    out->birth_nsec = st->st_birthtimespec.tv_nsec;
    out->has_birth_time = 1;
#else
    out->access_sec = st->st_atim.tv_sec;
    out->access_nsec = st->st_atim.tv_nsec;
    out->modify_sec = st->st_mtim.tv_sec;
    out->modify_nsec = st->st_mtim.tv_nsec;
    out->change_sec = st->st_ctim.tv_sec;
    out->change_nsec = st->st_ctim.tv_nsec;
    out->birth_sec = 0;
    out->birth_nsec = 0;
    out->has_birth_time = 0;
#endif
}

#if defined(__linux__) && defined(STATX_BTIME)
static int cft_statx_missing = 0;
#endif

int cft_status_at(int dirfd, const char *path, int follow, cft_status *out) {
    int flags = follow ? 0 : AT_SYMLINK_NOFOLLOW;
#if defined(__linux__) && defined(STATX_BTIME)
    if (!__atomic_load_n(&cft_statx_missing, __ATOMIC_RELAXED)) {
        struct statx sx;
        if (statx(dirfd, path, flags | AT_STATX_SYNC_AS_STAT, STATX_BASIC_STATS | STATX_BTIME, &sx) == 0) {
            out->mode = sx.stx_mode;
            out->uid = sx.stx_uid;
            out->gid = sx.stx_gid;
            out->nlink = sx.stx_nlink;
            out->inode = sx.stx_ino;
            out->device = ((uint64_t)sx.stx_dev_major << 32) | sx.stx_dev_minor;
            out->size = (int64_t)sx.stx_size;
            out->blocks = (int64_t)sx.stx_blocks;
            out->access_sec = sx.stx_atime.tv_sec;
            out->access_nsec = sx.stx_atime.tv_nsec;
            out->modify_sec = sx.stx_mtime.tv_sec;
            out->modify_nsec = sx.stx_mtime.tv_nsec;
            out->change_sec = sx.stx_ctime.tv_sec;
            out->change_nsec = sx.stx_ctime.tv_nsec;
            out->has_birth_time = (sx.stx_mask & STATX_BTIME) ? 1 : 0;
            out->birth_sec = out->has_birth_time ? sx.stx_btime.tv_sec : 0;
            out->birth_nsec = out->has_birth_time ? sx.stx_btime.tv_nsec : 0;
            return 0;
        }
        if (errno != ENOSYS) {
            return errno;
        }
        __atomic_store_n(&cft_statx_missing, 1, __ATOMIC_RELAXED);
    }
#endif
    struct stat st;
    if (fstatat(dirfd, path, &st, flags) != 0) {
        return errno;
    }
    cft_from_stat(&st, out);
    return 0;
}

const char *cft_next_entry(DIR *dir, unsigned char *type, int *error) {
    errno = 0;
    struct dirent *entry = readdir(dir);
    if (entry == NULL) {
        *error = errno;
        return NULL;
    }
    *type = entry->d_type;
    *error = 0;
    return entry->d_name;
}

int cft_rename_noreplace(int olddirfd, const char *oldpath, int newdirfd, const char *newpath) {
#if defined(__linux__)
#if defined(RENAME_NOREPLACE)
    if (renameat2(olddirfd, oldpath, newdirfd, newpath, RENAME_NOREPLACE) == 0) {
        return 0;
    }
    return errno;
#else
    if (syscall(SYS_renameat2, olddirfd, oldpath, newdirfd, newpath, 1) == 0) {
        return 0;
    }
    return errno;
#endif
#elif defined(__APPLE__)
    if (renameatx_np(olddirfd, oldpath, newdirfd, newpath, RENAME_EXCL) == 0) {
        return 0;
    }
    return errno;
#else
    (void)olddirfd; (void)oldpath; (void)newdirfd; (void)newpath;
    return ENOSYS;
#endif
}

int cft_rename_exchange(int olddirfd, const char *oldpath, int newdirfd, const char *newpath) {
#if defined(__linux__)
#if defined(RENAME_EXCHANGE)
    if (renameat2(olddirfd, oldpath, newdirfd, newpath, RENAME_EXCHANGE) == 0) {
        return 0;
    }
    return errno;
#else
    if (syscall(SYS_renameat2, olddirfd, oldpath, newdirfd, newpath, 2) == 0) {
        return 0;
    }
    return errno;
#endif
#elif defined(__APPLE__)
    if (renameatx_np(olddirfd, oldpath, newdirfd, newpath, RENAME_SWAP) == 0) {
        return 0;
    }
    return errno;
#else
    (void)olddirfd; (void)oldpath; (void)newdirfd; (void)newpath;
    return ENOSYS;
#endif
}

long cft_list_extended_attributes(const char *path, char *buffer, unsigned long size) {
#if defined(__APPLE__)
    return (long)listxattr(path, buffer, size, XATTR_NOFOLLOW);
#else
    return (long)llistxattr(path, buffer, size);
#endif
}

void cft_set_thread_name(const char *name) {
#if defined(__APPLE__)
    pthread_setname_np(name);
#else
    char cut[16];
    strncpy(cut, name, sizeof cut - 1);
    cut[sizeof cut - 1] = 0;
    pthread_setname_np(pthread_self(), cut);
#endif
}

long cft_read_cached(int fd, void *buffer, unsigned long count, long long offset) {
#if defined(__linux__) && defined(RWF_NOWAIT)
    struct iovec vector = {.iov_base = buffer, .iov_len = count};
    return (long)preadv2(fd, &vector, 1, (off_t)offset, RWF_NOWAIT);
#else
    (void)fd; (void)buffer; (void)count; (void)offset;
    errno = ENOTSUP;
    return -1;
#endif
}

int cft_start_writeback(int fd, long long offset, long long length) {
#if defined(__linux__)
    return sync_file_range(fd, (off_t)offset, (off_t)length, SYNC_FILE_RANGE_WRITE) == 0 ? 0 : errno;
#else
    (void)fd; (void)offset; (void)length;
    return 0;
#endif
}

