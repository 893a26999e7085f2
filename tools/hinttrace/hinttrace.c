// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
// hinttrace: user-space side. Loads hinttrace.bpf.o (through its generated
// skeleton), filters to one device, and prints one CSV line per bio:
//
//   time_ns,dev,sector,sectors,hint,stream,ino,pid,comm
//
// (with -a a trailing `op` column: W R D F O). The format is documented in
// README.md beside this file; ftlsim's importers read it through
// `ftlsim convert --hints FILE`.
//
// Runs until SIGINT or SIGTERM, then drains the ring buffer and prints a
// summary line with the number of records and of lost events on stderr.
#include <errno.h>
#include <stdarg.h>
#include <getopt.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include <bpf/libbpf.h>

#include "hinttrace.h"
#include "hinttrace.skel.h"

static volatile sig_atomic_t g_stop = 0;

static void on_signal(int sig)
{
	(void)sig;
	g_stop = 1;
}

struct ctx {
	FILE *out;
	bool all_ops;
	unsigned long long records;
};

static void usage(FILE *f)
{
	fprintf(f,
		"usage: hinttrace [-d MAJ:MIN | -d /dev/X] [-a] [-o FILE] [-b MIB] [-r READY_FILE]\n"
		"  -d DEV   trace only this block device (and its partitions); default: all\n"
		"  -a       all operations, not only writes; adds an `op` column (W R D F O)\n"
		"  -o FILE  write the CSV to FILE (default: standard output)\n"
		"  -b MIB   ring buffer size in MiB, a power of two (default 16)\n"
		"  -r FILE  create FILE once the probe is attached (for scripts)\n"
		"Stops on SIGINT/SIGTERM; prints `hinttrace: N records, M lost` on stderr.\n");
}

// Parses "MAJ:MIN" or a block device path into a kernel dev_t
// (major << 20 | minor, the encoding of bio->bi_bdev->bd_dev).
static int parse_dev(const char *s, unsigned int *kdev, char *label, size_t label_len)
{
	unsigned int maj, min;
	char tail;
	if (sscanf(s, "%u:%u%c", &maj, &min, &tail) != 2) {
		struct stat st;
		if (stat(s, &st) != 0) {
			fprintf(stderr, "hinttrace: device '%s': %s (want MAJ:MIN or a block device path)\n",
				s, strerror(errno));
			return -1;
		}
		if (!S_ISBLK(st.st_mode)) {
			fprintf(stderr, "hinttrace: %s is not a block device\n", s);
			return -1;
		}
		maj = major(st.st_rdev);
		min = minor(st.st_rdev);
	}
	if (maj >= (1u << 12) || min >= (1u << 20)) {
		fprintf(stderr, "hinttrace: device number %u:%u out of range\n", maj, min);
		return -1;
	}
	*kdev = (maj << 20) | min;
	snprintf(label, label_len, "%u:%u", maj, min);
	return 0;
}

static const char *op_name(unsigned char op)
{
	switch (op) {
	case HT_OP_WRITE: return "W";
	case HT_OP_READ: return "R";
	case HT_OP_DISCARD: return "D";
	case HT_OP_FLUSH: return "F";
	default: return "O";
	}
}

static int on_event(void *vctx, void *data, size_t len)
{
	struct ctx *c = vctx;
	const struct hint_event *e = data;
	if (len < sizeof(*e))
		return 0;
	// comm is free text: keep the CSV one record per line and fixed-width
	// in columns by replacing separators, quotes and control characters.
	char comm[HINTTRACE_COMM_LEN + 1];
	size_t i;
	for (i = 0; i < HINTTRACE_COMM_LEN && e->comm[i]; i++) {
		unsigned char ch = (unsigned char)e->comm[i];
		comm[i] = (ch < 0x20 || ch == 0x7f || ch == ',' || ch == '"') ? '_' : (char)ch;
	}
	comm[i] = '\0';
	fprintf(c->out, "%llu,%u:%u,%llu,%u,%u,%u,%llu,%u,%s", e->time_ns, e->dev >> 20,
		e->dev & ((1u << 20) - 1), e->sector, e->sectors, e->hint, e->stream, e->ino,
		e->pid, comm);
	if (c->all_ops)
		fprintf(c->out, ",%s", op_name(e->op));
	fputc('\n', c->out);
	c->records++;
	return 0;
}

static int print_libbpf(enum libbpf_print_level level, const char *fmt, va_list args)
{
	if (level == LIBBPF_DEBUG)
		return 0;
	return vfprintf(stderr, fmt, args);
}

int main(int argc, char **argv)
{
	unsigned int kdev = 0;
	char dev_label[32] = "all";
	const char *out_path = NULL;
	const char *ready_path = NULL;
	unsigned long buf_mib = 16;
	struct ctx c = {.out = stdout};
	int opt;

	while ((opt = getopt(argc, argv, "d:ao:b:r:h")) != -1) {
		switch (opt) {
		case 'd':
			if (parse_dev(optarg, &kdev, dev_label, sizeof(dev_label)) != 0)
				return 2;
			break;
		case 'a': c.all_ops = true; break;
		case 'o': out_path = optarg; break;
		case 'b': {
			char *end;
			buf_mib = strtoul(optarg, &end, 10);
			if (*end || buf_mib == 0 || (buf_mib & (buf_mib - 1)) || buf_mib > 1024) {
				fprintf(stderr, "hinttrace: -b wants a power of two from 1 to 1024 (MiB), got '%s'\n", optarg);
				return 2;
			}
			break;
		}
		case 'r': ready_path = optarg; break;
		case 'h': usage(stdout); return 0;
		default: usage(stderr); return 2;
		}
	}
	if (optind != argc) {
		fprintf(stderr, "hinttrace: unexpected argument '%s'\n", argv[optind]);
		usage(stderr);
		return 2;
	}
	if (geteuid() != 0) {
		fprintf(stderr, "hinttrace: must run as root (loads a BPF program)\n");
		return 2;
	}

	libbpf_set_print(print_libbpf);
	struct hinttrace_bpf *skel = hinttrace_bpf__open();
	if (!skel) {
		fprintf(stderr, "hinttrace: cannot open the BPF object: %s\n", strerror(errno));
		return 1;
	}
	skel->rodata->target_dev = kdev;
	skel->rodata->all_ops = c.all_ops;
	int err = bpf_map__set_max_entries(skel->maps.events, (__u32)(buf_mib << 20));
	if (!err)
		err = hinttrace_bpf__load(skel);
	if (err) {
		fprintf(stderr, "hinttrace: cannot load the BPF program: %s\n", strerror(-err));
		hinttrace_bpf__destroy(skel);
		return 1;
	}

	if (out_path) {
		c.out = fopen(out_path, "w");
		if (!c.out) {
			fprintf(stderr, "hinttrace: %s: %s\n", out_path, strerror(errno));
			hinttrace_bpf__destroy(skel);
			return 1;
		}
	}
	static char outbuf[1 << 20];
	setvbuf(c.out, outbuf, _IOFBF, sizeof(outbuf));
	fprintf(c.out, "time_ns,dev,sector,sectors,hint,stream,ino,pid,comm%s\n",
		c.all_ops ? ",op" : "");

	struct ring_buffer *rb =
		ring_buffer__new(bpf_map__fd(skel->maps.events), on_event, &c, NULL);
	if (!rb) {
		fprintf(stderr, "hinttrace: cannot create the ring buffer reader: %s\n", strerror(errno));
		hinttrace_bpf__destroy(skel);
		return 1;
	}

	struct sigaction sa = {.sa_handler = on_signal};
	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);

	err = hinttrace_bpf__attach(skel);
	if (err) {
		fprintf(stderr, "hinttrace: cannot attach to tp_btf/block_bio_queue: %s\n", strerror(-err));
		ring_buffer__free(rb);
		hinttrace_bpf__destroy(skel);
		return 1;
	}
	if (ready_path) {
		FILE *r = fopen(ready_path, "w");
		if (!r) {
			fprintf(stderr, "hinttrace: %s: %s\n", ready_path, strerror(errno));
			g_stop = 1;
		} else {
			fprintf(r, "%d\n", (int)getpid());
			fclose(r);
		}
	}
	fprintf(stderr, "hinttrace: tracing %s on %s\n", c.all_ops ? "all bios" : "write bios", dev_label);

	int rc = 0;
	while (!g_stop) {
		err = ring_buffer__poll(rb, 100 /* ms */);
		if (err < 0 && err != -EINTR) {
			fprintf(stderr, "hinttrace: ring buffer poll: %s\n", strerror(-err));
			rc = 1;
			break;
		}
	}
	// Detach first so the drain below sees everything that was produced.
	hinttrace_bpf__detach(skel);
	ring_buffer__consume(rb);
	unsigned long long lost = skel->bss->lost;

	if (fflush(c.out) != 0 || ferror(c.out)) {
		fprintf(stderr, "hinttrace: writing the CSV failed: %s\n", strerror(errno));
		rc = 1;
	}
	if (c.out != stdout)
		fclose(c.out);
	fprintf(stderr, "hinttrace: %llu records, %llu lost\n", c.records, lost);
	if (lost)
		fprintf(stderr, "hinttrace: WARNING: %llu events lost (ring buffer full); "
				"rerun with a larger -b\n", lost);
	ring_buffer__free(rb);
	hinttrace_bpf__destroy(skel);
	return rc;
}
