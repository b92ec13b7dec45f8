/*
 * Replay driver: a main() for a fuzz target built without libFuzzer (gcc,
 * or any compiler): it calls LLVMFuzzerTestOneInput once on every regular
 * file of the directories (or files) named on the command line, in name
 * order, so the kept corpus and crash reproducers (tests/fuzz/corpus/T,
 * tests/fuzz/crashes/T) run as an ordinary ctest test, also under the
 * sanitizers.  A missing directory counts as empty (a target may have no
 * reproducer).  An oracle violation traps, which fails the test; the
 * input being run is printed first so that the failure names it.
 */
#define _POSIX_C_SOURCE 200809L /* opendir, stat */
#include <dirent.h>
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static int cmp_names(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Run the target on one file: 0 on success, 1 if it cannot be read. */
static int replay_file(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (f == NULL) {
        fprintf(stderr, "fuzz_replay: %s: %s\n", path, strerror(errno));
        return 1;
    }
    size_t cap = 4096, len = 0;
    uint8_t *buf = malloc(cap);
    size_t got;
    while (buf != NULL && (got = fread(buf + len, 1, cap - len, f)) > 0) {
        len += got;
        if (len == cap) {
            uint8_t *nb = realloc(buf, 2 * cap);
            if (nb == NULL) {
                free(buf);
                buf = NULL;
                break;
            }
            buf = nb;
            cap *= 2;
        }
    }
    const int bad = buf == NULL || ferror(f);
    fclose(f);
    if (bad) {
        fprintf(stderr, "fuzz_replay: %s: cannot read\n", path);
        free(buf);
        return 1;
    }
    /* a line per input before running it: a trap then names the input */
    printf("fuzz_replay: %s (%zu bytes)\n", path, len);
    fflush(stdout);
    LLVMFuzzerTestOneInput(buf, len);
    free(buf);
    return 0;
}

/* Every regular file directly in dir, sorted; *count gets how many ran. */
static int replay_dir(const char *dir, int *count)
{
    DIR *d = opendir(dir);
    if (d == NULL) {
        if (errno == ENOENT) {
            printf("fuzz_replay: %s: no such directory (nothing to replay)\n",
                   dir);
            return 0;
        }
        fprintf(stderr, "fuzz_replay: %s: %s\n", dir, strerror(errno));
        return 1;
    }
    char **names = NULL;
    size_t n = 0, cap = 0;
    int failed = 0;
    struct dirent *e;
    while ((e = readdir(d)) != NULL) {
        if (e->d_name[0] == '.') { /* ., .., and hidden files (.gitkeep) */
            continue;
        }
        if (n == cap) {
            cap = cap ? 2 * cap : 64;
            char **nn = realloc(names, cap * sizeof *names);
            if (nn == NULL) {
                failed = 1;
                break;
            }
            names = nn;
        }
        const size_t len = strlen(dir) + strlen(e->d_name) + 2;
        names[n] = malloc(len);
        if (names[n] == NULL) {
            failed = 1;
            break;
        }
        snprintf(names[n], len, "%s/%s", dir, e->d_name);
        ++n;
    }
    closedir(d);
    if (n > 0) {
        qsort(names, n, sizeof *names, cmp_names);
    }
    for (size_t i = 0; i < n; ++i) {
        struct stat sb;
        if (!failed && stat(names[i], &sb) == 0 && S_ISREG(sb.st_mode)) {
            failed |= replay_file(names[i]);
            ++*count;
        }
        free(names[i]);
    }
    free(names);
    return failed;
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        fprintf(stderr, "usage: %s DIR_OR_FILE...\n", argv[0]);
        return 2;
    }
    int failed = 0, count = 0;
    for (int a = 1; a < argc; ++a) {
        struct stat sb;
        if (stat(argv[a], &sb) == 0 && S_ISREG(sb.st_mode)) {
            failed |= replay_file(argv[a]);
            ++count;
        } else {
            failed |= replay_dir(argv[a], &count);
        }
    }
    printf("fuzz_replay: %d inputs replayed%s\n", count,
           failed ? ", some could not be read" : "");
    return failed ? 1 : 0;
}
