// The floor of the content index's build method on this machine: what reading the files and
// marking their trigrams cost with nothing else (no rows gathered, nothing encoded or written).
// Built and run by content_floor.py; see there. Each mode is one run over the files listed on
// standard input, on THREADS threads taking files in turn:
//   read  open, fstat, read whole, close: what any indexer and `rg` pay
//   mark  read, then each byte sets its file's bit in the byte of its trigram's key, as
//         SearchIndex's SegmentBuilder does for an ASCII file (keys of three six-bit codes, a
//         byte a key, eight files a group); `markvec` the same with AVX-512 VBMI making the keys
//   keep  mark, then each group of eight files' marked keys walked into rows, as
//         SegmentBuilder.keepGroup does (a row a key met, a byte a row for the group)
// Prints: MODE wall user sys bytes
#define _GNU_SOURCE
#include <fcntl.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>
#if defined(__x86_64__)
#include <immintrin.h>
#endif

enum { KEYS = 1 << 19, ASCII_KEYS = 1 << 18, GROUP = 8, SEGMENT_ROWS = 1 << 18 };

static uint8_t codes[256];
static char **paths;
static int path_count;
static int next_path;
static int mode_mark, mode_vector, mode_keep;

static double now(void) {
    struct timespec time;
    clock_gettime(CLOCK_MONOTONIC, &time);
    return time.tv_sec + time.tv_nsec * 1e-9;
}

// The codes of TrigramKeys: letters of either case and digits their own, 27 common spaces and
// punctuation their own, the rest of ASCII one shared code.
static void make_codes(void) {
    memset(codes, 63, sizeof codes);
    for (int c = 'a'; c <= 'z'; c++) codes[c] = codes[c - 32] = (uint8_t)(c - 'a');
    for (int c = '0'; c <= '9'; c++) codes[c] = (uint8_t)(26 + c - '0');
    const char *marks = " \n\t.,;:'\"-_()/\\[]{}<>=+*#!?";
    for (int k = 0; marks[k]; k++) codes[(uint8_t)marks[k]] = (uint8_t)(36 + k);
    codes['\r'] = codes['\n'];
}

static void mark_scalar(const uint8_t *text, size_t count, uint8_t bit, uint8_t *seen) {
    if (count < 3) return;
    size_t first = (size_t)codes[text[0]] << 12, second = (size_t)codes[text[1]] << 6;
    for (size_t index = 2; index < count; index++) {
        size_t third = codes[text[index]];
        seen[first | second | third] |= bit;
        first = second << 6;
        second = third << 6;
    }
}

#if defined(__x86_64__)
__attribute__((target("avx512f,avx512bw,avx512vbmi"))) static void mark_vector(
    const uint8_t *text, size_t count, uint8_t bit, uint8_t *seen) {
    if (count < 3) return;
    const __m512i low = _mm512_loadu_si512((const void *)codes), high = _mm512_loadu_si512((const void *)(codes + 64));
    uint32_t keys[64];
    size_t index = 0;
    for (; index + 66 <= count; index += 64) {
        __m512i c0 = _mm512_permutex2var_epi8(low, _mm512_loadu_si512((const void *)(text + index)), high);
        __m512i c1 = _mm512_permutex2var_epi8(low, _mm512_loadu_si512((const void *)(text + index + 1)), high);
        __m512i c2 = _mm512_permutex2var_epi8(low, _mm512_loadu_si512((const void *)(text + index + 2)), high);
#define QUARTER(q)                                                                                   \
    {                                                                                                \
        __m512i a = _mm512_cvtepu8_epi32(_mm512_extracti32x4_epi32(c0, q));                          \
        __m512i b = _mm512_cvtepu8_epi32(_mm512_extracti32x4_epi32(c1, q));                          \
        __m512i c = _mm512_cvtepu8_epi32(_mm512_extracti32x4_epi32(c2, q));                          \
        _mm512_storeu_si512((void *)(keys + 16 * (q)),                                               \
                            _mm512_or_si512(_mm512_or_si512(_mm512_slli_epi32(a, 12), _mm512_slli_epi32(b, 6)), c)); \
    }
        QUARTER(0) QUARTER(1) QUARTER(2) QUARTER(3)
#undef QUARTER
        for (int k = 0; k < 64; k++) seen[keys[k]] |= bit;
    }
    if (index < count) mark_scalar(text + index, count - index, bit, seen);
}
#endif

// Each key the group's files hold, in key order, finds its row (a new one if none) and the
// group keeps its byte for the row; the table of keys is cleared as it is read.
static void keep_group(uint8_t *seen, uint32_t *table, uint8_t *marks, uint32_t *rows) {
    uint64_t *words = (uint64_t *)seen;
    for (int quad = 0; quad < ASCII_KEYS / 8; quad += 4) {
        if ((words[quad] | words[quad + 1] | words[quad + 2] | words[quad + 3]) == 0) continue;
        for (int word = quad; word < quad + 4; word++) {
            uint64_t value = words[word];
            if (!value) continue;
            words[word] = 0;
            const uint64_t low = 0x7F7F7F7F7F7F7F7FULL;
            uint64_t held = (((value & low) + low) | value) & ~low;
            do {
                int shift = __builtin_ctzll(held) - 7;
                held &= held - 1;
                int key = word << 3 | shift >> 3;
                int row = (int)table[key] - 1;
                if (row < 0) {
                    row = (int)*rows;
                    *rows += 1;
                    table[key] = *rows;
                }
                marks[row] = (uint8_t)(value >> shift);
            } while (held);
        }
    }
}

static void *work(void *unused) {
    (void)unused;
    size_t capacity = 8 << 20;
    uint8_t *buffer = malloc(capacity);
    uint8_t *seen = aligned_alloc(64, KEYS);
    uint32_t *table = calloc(KEYS, sizeof(uint32_t));
    uint8_t *marks = calloc(SEGMENT_ROWS, 1);
    memset(seen, 0, KEYS);
    uint32_t rows = 0;
    int in_group = 0, in_segment = 0;
    long total = 0;
    for (;;) {
        int index = __atomic_fetch_add(&next_path, 1, __ATOMIC_RELAXED);
        if (index >= path_count) break;
        int descriptor = open(paths[index], O_RDONLY | O_NOFOLLOW | O_CLOEXEC | O_NONBLOCK);
        if (descriptor < 0) continue;
        struct stat status;
        if (fstat(descriptor, &status) != 0 || (size_t)status.st_size >= capacity) {
            close(descriptor);
            continue;
        }
        size_t count = 0;
        ssize_t done;
        while ((done = read(descriptor, buffer + count, capacity - count)) > 0) count += (size_t)done;
        close(descriptor);
        total += (long)count;
        if (!mode_mark) continue;
#if defined(__x86_64__)
        if (mode_vector)
            mark_vector(buffer, count, (uint8_t)(1 << in_group), seen);
        else
#endif
            mark_scalar(buffer, count, (uint8_t)(1 << in_group), seen);
        if (++in_group < GROUP) continue;
        in_group = 0;
        if (mode_keep)
            keep_group(seen, table, marks, &rows);
        else
            memset(seen, 0, ASCII_KEYS);
        // A segment of 4,096 files: its rows begin anew.
        if (++in_segment == 4096 / GROUP) {
            in_segment = 0;
            memset(table, 0, KEYS * sizeof(uint32_t));
            rows = 0;
        }
    }
    free(buffer);
    free(seen);
    free(table);
    free(marks);
    return (void *)total;
}

int main(int argc, char **argv) {
    if (argc < 3) {
        fprintf(stderr, "usage: content_floor read|mark|markvec|keep|keepvec THREADS < list\n");
        return 2;
    }
    const char *mode = argv[1];
    int threads = atoi(argv[2]);
    mode_mark = strcmp(mode, "read") != 0;
    mode_vector = strstr(mode, "vec") != NULL;
    mode_keep = strncmp(mode, "keep", 4) == 0;
#if defined(__x86_64__)
    if (mode_vector && !(__builtin_cpu_supports("avx512vbmi") && __builtin_cpu_supports("avx512bw"))) {
        printf("%s unsupported\n", mode);
        return 0;
    }
#else
    if (mode_vector) {
        printf("%s unsupported\n", mode);
        return 0;
    }
#endif
    make_codes();
    size_t allocated = 1024;
    paths = malloc(allocated * sizeof(char *));
    char line[8192];
    while (fgets(line, sizeof line, stdin)) {
        line[strcspn(line, "\n")] = 0;
        if (path_count == (int)allocated) paths = realloc(paths, (allocated *= 2) * sizeof(char *));
        paths[path_count++] = strdup(line);
    }
    double began = now();
    pthread_t running[64];
    if (threads < 1 || threads > 64) threads = 2;
    for (int k = 0; k < threads; k++) pthread_create(&running[k], NULL, work, NULL);
    long total = 0;
    for (int k = 0; k < threads; k++) {
        void *result;
        pthread_join(running[k], &result);
        total += (long)result;
    }
    double wall = now() - began;
    struct rusage usage;
    getrusage(RUSAGE_SELF, &usage);
    printf("%s %.3f %.2f %.2f %ld\n", mode, wall, usage.ru_utime.tv_sec + usage.ru_utime.tv_usec * 1e-6,
           usage.ru_stime.tv_sec + usage.ru_stime.tv_usec * 1e-6, total);
    return 0;
}
