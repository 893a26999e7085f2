// Guest helper of tests/vm/guest_f2fs_fdp.sh (ctest vm_f2fs_fdp): writes
// files into placement directories of an F2FS mount, frees half of them,
// makes F2FS clean segments, and prints what the checker needs.
//
//   fdp_files write MNT ID...   mkdir MNT/p<ID> for each ID; 8 files of 2 MiB
//                               per ID, written in 128 KiB pieces that rotate
//                               over all files, each piece fsync'ed (so the
//                               IDs interleave in F2FS's logs); prints
//                               "file PATH ID INO" and "t_written NS"
//   fdp_files delete-odd MNT ID...  unlinks the odd-numbered files
//   fdp_files gc MNT ROUNDS     "t_gc NS", then ROUNDS x F2FS_IOC_GARBAGE_COLLECT
//                               (foreground); prints "gc_rounds OK_COUNT"
//   fdp_files checkpoints MNT K  "t_cp NS", then K times: a 4 KiB file in MNT
//                               (ID 0) and an fsync of it and of MNT (an fsync
//                               of a directory is a checkpoint); "t_cp_end NS"
//   fdp_files extents PATH...   "ext PATH PHYS_BLOCK NBLOCKS" per FIEMAP extent
//   fdp_files sb DEV            "ssa_blkaddr N", "main_blkaddr N" from the F2FS superblock
// NS: CLOCK_MONOTONIC in ns, the clock of hinttrace's time_ns.
#define _GNU_SOURCE
#include <fcntl.h>
#include <linux/fiemap.h>
#include <linux/fs.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

enum { kFilesPerId = 8, kFileBytes = 2 << 20, kPiece = 128 << 10 };
#define F2FS_IOC_GARBAGE_COLLECT _IOW(0xf5, 6, uint32_t)
#define F2FS_SUPER_OFFSET 1024
#define F2FS_SSA_BLKADDR_OFFSET 88  // struct f2fs_super_block.ssa_blkaddr
#define F2FS_MAIN_BLKADDR_OFFSET 92 // struct f2fs_super_block.main_blkaddr

static void die(const char *what) {
  perror(what);
  exit(1);
}

static long long now_ns(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

static void file_path(char *buf, size_t n, const char *mnt, int id, int i) {
  snprintf(buf, n, "%s/p%d/f%d", mnt, id, i);
}

static int cmd_write(const char *mnt, int nids, char **ids) {
  static char piece[kPiece];
  int fds[64][kFilesPerId];
  char path[512];
  if (nids > 64) return 2;
  for (int k = 0; k < nids; k++) {
    int id = atoi(ids[k]);
    snprintf(path, sizeof path, "%s/p%d", mnt, id);
    if (mkdir(path, 0755) != 0) die(path);
    for (int i = 0; i < kFilesPerId; i++) {
      file_path(path, sizeof path, mnt, id, i);
      fds[k][i] = open(path, O_CREAT | O_WRONLY | O_TRUNC, 0644);
      if (fds[k][i] < 0) die(path);
    }
  }
  for (int off = 0; off < kFileBytes; off += kPiece)
    for (int i = 0; i < kFilesPerId; i++)
      for (int k = 0; k < nids; k++) {
        memset(piece, 'a' + (off / kPiece + i + k) % 26, sizeof piece);
        if (pwrite(fds[k][i], piece, sizeof piece, off) != (ssize_t)sizeof piece) die("pwrite");
        if (fsync(fds[k][i]) != 0) die("fsync");
      }
  for (int k = 0; k < nids; k++)
    for (int i = 0; i < kFilesPerId; i++) {
      struct stat st;
      if (fstat(fds[k][i], &st) != 0) die("fstat");
      file_path(path, sizeof path, mnt, atoi(ids[k]), i);
      printf("file %s %d %llu\n", path, atoi(ids[k]), (unsigned long long)st.st_ino);
      close(fds[k][i]);
    }
  sync();
  printf("t_written %lld\n", now_ns());
  return 0;
}

static int cmd_delete_odd(const char *mnt, int nids, char **ids) {
  char path[512];
  for (int k = 0; k < nids; k++)
    for (int i = 1; i < kFilesPerId; i += 2) {
      file_path(path, sizeof path, mnt, atoi(ids[k]), i);
      if (unlink(path) != 0) die(path);
    }
  sync();
  return 0;
}

static int cmd_gc(const char *mnt, int rounds) {
  int fd = open(mnt, O_RDONLY | O_DIRECTORY);
  if (fd < 0) die(mnt);
  printf("t_gc %lld\n", now_ns());
  int ok = 0;
  for (int r = 0; r < rounds; r++) {
    uint32_t sync_gc = 1;
    if (ioctl(fd, F2FS_IOC_GARBAGE_COLLECT, &sync_gc) == 0) ok++;
  }
  syncfs(fd);
  close(fd);
  printf("gc_rounds %d\n", ok);
  return 0;
}

static int cmd_checkpoints(const char *mnt, int rounds) {
  int dir = open(mnt, O_RDONLY | O_DIRECTORY);
  if (dir < 0) die(mnt);
  char path[512], page[4096];
  memset(page, 'c', sizeof page);
  printf("t_cp %lld\n", now_ns());
  for (int r = 0; r < rounds; r++) {
    snprintf(path, sizeof path, "%s/cp%d", mnt, r);
    int fd = open(path, O_CREAT | O_WRONLY | O_TRUNC, 0644);
    if (fd < 0) die(path);
    if (pwrite(fd, page, sizeof page, 0) != (ssize_t)sizeof page) die("pwrite");
    if (fsync(fd) != 0 || fsync(dir) != 0) die("fsync");
    close(fd);
  }
  printf("t_cp_end %lld\n", now_ns());
  close(dir);
  return 0;
}

static int cmd_extents(int n, char **paths) {
  for (int p = 0; p < n; p++) {
    int fd = open(paths[p], O_RDONLY);
    if (fd < 0) die(paths[p]);
    size_t sz = sizeof(struct fiemap) + 256 * sizeof(struct fiemap_extent);
    struct fiemap *fm = calloc(1, sz);
    fm->fm_length = ~0ULL;
    fm->fm_flags = FIEMAP_FLAG_SYNC;
    fm->fm_extent_count = 256;
    if (ioctl(fd, FS_IOC_FIEMAP, fm) != 0) die("FIEMAP");
    for (unsigned e = 0; e < fm->fm_mapped_extents; e++)
      printf("ext %s %llu %llu\n", paths[p], (unsigned long long)(fm->fm_extents[e].fe_physical / 4096),
             (unsigned long long)(fm->fm_extents[e].fe_length / 4096));
    free(fm);
    close(fd);
  }
  return 0;
}

static int cmd_sb(const char *dev) {
  int fd = open(dev, O_RDONLY);
  if (fd < 0) die(dev);
  uint32_t ssa_blkaddr, main_blkaddr;
  if (pread(fd, &ssa_blkaddr, 4, F2FS_SUPER_OFFSET + F2FS_SSA_BLKADDR_OFFSET) != 4 ||
      pread(fd, &main_blkaddr, 4, F2FS_SUPER_OFFSET + F2FS_MAIN_BLKADDR_OFFSET) != 4)
    die("pread");
  printf("ssa_blkaddr %u\nmain_blkaddr %u\n", ssa_blkaddr, main_blkaddr);
  close(fd);
  return 0;
}

int main(int argc, char **argv) {
  setvbuf(stdout, NULL, _IOLBF, 0);
  if (argc >= 4 && !strcmp(argv[1], "write")) return cmd_write(argv[2], argc - 3, argv + 3);
  if (argc >= 4 && !strcmp(argv[1], "delete-odd")) return cmd_delete_odd(argv[2], argc - 3, argv + 3);
  if (argc == 4 && !strcmp(argv[1], "gc")) return cmd_gc(argv[2], atoi(argv[3]));
  if (argc == 4 && !strcmp(argv[1], "checkpoints")) return cmd_checkpoints(argv[2], atoi(argv[3]));
  if (argc >= 3 && !strcmp(argv[1], "extents")) return cmd_extents(argc - 2, argv + 2);
  if (argc == 3 && !strcmp(argv[1], "sb")) return cmd_sb(argv[2]);
  fprintf(stderr, "usage: fdp_files write|delete-odd MNT ID... | gc MNT ROUNDS | checkpoints MNT K | extents PATH... | sb DEV\n");
  return 2;
}
