/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/* Record shared by hinttrace.bpf.c (producer) and hinttrace.c (consumer). */
#ifndef FTLSIM_HINTTRACE_H
#define FTLSIM_HINTTRACE_H

#define HINTTRACE_COMM_LEN 16

/* Operation classes carried in hint_event.op (only with -a; otherwise
 * every record is a write). */
enum hinttrace_op {
	HT_OP_WRITE = 0,
	HT_OP_READ = 1,
	HT_OP_DISCARD = 2,
	HT_OP_FLUSH = 3,
	HT_OP_OTHER = 4,
};

struct hint_event {
	unsigned long long time_ns; /* bpf_ktime_get_ns(): CLOCK_MONOTONIC */
	unsigned long long sector;  /* bio->bi_iter.bi_sector, 512-byte units */
	unsigned long long ino;     /* page->mapping->host->i_ino, 0 if none */
	unsigned int dev;           /* kernel dev_t: major << 20 | minor */
	unsigned int sectors;       /* bio->bi_iter.bi_size >> 9 */
	unsigned int pid;           /* thread id of the submitter, as ftrace prints */
	unsigned char hint;         /* bio->bi_write_hint (enum rw_hint, 0..5) */
	unsigned char stream;       /* bio->bi_write_stream, 0 if the kernel lacks it */
	unsigned char op;           /* enum hinttrace_op */
	unsigned char pad;
	char comm[HINTTRACE_COMM_LEN];
};

#endif
