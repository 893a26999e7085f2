// hinted_write: the guest-side twin of tests/capture/write_hinted.py --direct
// (the VM has no Python): for write-lifetime hint h in 0..5, a buffered
// file DIR/buffered_h of (h + 1) MiB and an O_DIRECT file DIR/direct_h of
// (h + 1) x 512 KiB, each written in 256 KiB chunks after
// fcntl(F_SET_RW_HINT, h) and fsync'ed. Prints "buffered H BYTES" and
// "direct H BYTES" per file. Built static by the VM tests.
#define _GNU_SOURCE
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#ifndef F_SET_RW_HINT
#define F_SET_RW_HINT 1036  // linux/fcntl.h: F_LINUX_SPECIFIC_BASE + 12
#endif

int main(int argc, char** argv) {
  if (argc != 2) {
    fprintf(stderr, "usage: hinted_write DIR\n");
    return 2;
  }
  static char chunk[256 * 1024] __attribute__((aligned(4096)));
  for (int pass = 0; pass < 12; ++pass) {
    const int direct = pass >= 6;
    uint64_t h = (uint64_t)(pass % 6);
    char path[4096];
    snprintf(path, sizeof path, "%s/%s_%llu", argv[1], direct ? "direct" : "buffered", (unsigned long long)h);
    const int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | (direct ? O_DIRECT : 0), 0644);
    if (fd < 0 || fcntl(fd, F_SET_RW_HINT, &h) != 0) {
      perror(path);
      return 1;
    }
    memset(chunk, 'A' + (int)h, sizeof chunk);
    const uint64_t size = direct ? (h + 1) << 19 : (h + 1) << 20;
    for (uint64_t done = 0; done < size; done += sizeof chunk) {
      if (write(fd, chunk, sizeof chunk) != (ssize_t)sizeof chunk) {
        perror(path);
        return 1;
      }
    }
    if (fsync(fd) != 0 || close(fd) != 0) {
      perror(path);
      return 1;
    }
    printf("%s %llu %llu\n", direct ? "direct" : "buffered", (unsigned long long)h, (unsigned long long)size);
  }
  return 0;
}
