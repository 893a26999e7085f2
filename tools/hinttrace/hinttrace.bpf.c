// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
// hinttrace: log the write-lifetime hint of every bio queued to one block
// device, so a block trace can be tagged with the placement the application
// asked for through fcntl(F_SET_RW_HINT).
//
// Attached to tp_btf/block_bio_queue, the same tracepoint the blk tracer's
// `Q` action comes from, so records match `Q` events one to one (before any
// split or merge). Every field is read with CO-RE so one object runs on any
// kernel with BTF; fields a kernel lacks read as 0.
#include "vmlinux.h"
#include <bpf/bpf_core_read.h>
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_tracing.h>

#include "hinttrace.h"

char LICENSE[] SEC("license") = "Dual BSD/GPL";

// Set by the loader before load. target_dev is a kernel dev_t
// (major << 20 | minor); 0 traces every device.
const volatile __u32 target_dev = 0;
const volatile bool all_ops = false;

// Ring buffer records that could not be reserved (buffer full).
__u64 lost = 0;

struct {
	__uint(type, BPF_MAP_TYPE_RINGBUF);
	__uint(max_entries, 16 << 20); // resized by the loader (-b)
} events SEC(".maps");

// bi_write_hint was `unsigned short` in 4.13 .. 5.17, absent in 5.18 .. 6.8,
// and `enum rw_hint` since 6.9; bi_write_stream exists since 6.16. These
// flavours let the object compile against any vmlinux.h and let CO-RE find
// whichever variant the running kernel has (or neither).
enum rw_hint___ht { WRITE_LIFE_NOT_SET___ht = 0 };
struct bio___enum_hint {
	enum rw_hint___ht bi_write_hint;
} __attribute__((preserve_access_index));
struct bio___short_hint {
	unsigned short bi_write_hint;
} __attribute__((preserve_access_index));
struct bio___stream {
	__u8 bi_write_stream;
} __attribute__((preserve_access_index));

#define MINORBITS 20

static __always_inline __u8 classify(__u32 opf)
{
	__u32 op = opf & 0xff; // REQ_OP_MASK: REQ_OP_BITS = 8
	if (op == bpf_core_enum_value(enum req_op, REQ_OP_WRITE) ||
	    op == bpf_core_enum_value(enum req_op, REQ_OP_ZONE_APPEND))
		return HT_OP_WRITE;
	if (op == bpf_core_enum_value(enum req_op, REQ_OP_READ))
		return HT_OP_READ;
	if (op == bpf_core_enum_value(enum req_op, REQ_OP_DISCARD))
		return HT_OP_DISCARD;
	if (op == bpf_core_enum_value(enum req_op, REQ_OP_FLUSH))
		return HT_OP_FLUSH;
	return HT_OP_OTHER;
}

// Inode number of the file whose page starts the bio, when that file lives in
// the file system on the traced device; else 0. That is the case for buffered
// writes. O_DIRECT bios carry the caller's buffer pages, whose owner (anon
// memory, shmem, another file system) says nothing about the target file;
// metadata and journal writes through the block device's own page cache
// belong to the bdev inode. All of these read as 0.
static __always_inline __u64 bio_inode(struct bio *bio, __u32 dev)
{
	struct bio_vec *vec = BPF_CORE_READ(bio, bi_io_vec);
	if (!vec || BPF_CORE_READ(bio, bi_vcnt) == 0)
		return 0;
	__u32 idx = BPF_CORE_READ(bio, bi_iter.bi_idx);
	if (idx >= BPF_CORE_READ(bio, bi_vcnt))
		return 0;
	struct page *page = NULL;
	bpf_core_read(&page, sizeof(page), &vec[idx].bv_page);
	if (!page)
		return 0;
	// A tail page of a large folio has no mapping of its own: go to the head.
	unsigned long head = BPF_CORE_READ(page, compound_head);
	if (head & 1)
		page = (struct page *)(head - 1);
	unsigned long mapping = (unsigned long)BPF_CORE_READ(page, mapping);
	// Low bits flag anon / movable / KSM mappings, which have no host inode.
	if (!mapping || (mapping & 3))
		return 0;
	struct inode *host = BPF_CORE_READ((struct address_space *)mapping, host);
	if (!host || BPF_CORE_READ(host, i_sb, s_dev) != dev)
		return 0;
	return BPF_CORE_READ(host, i_ino);
}

SEC("tp_btf/block_bio_queue")
int BPF_PROG(on_bio_queue, struct bio *bio)
{
	__u32 dev = BPF_CORE_READ(bio, bi_bdev, bd_dev);
	if (target_dev && dev != target_dev) {
		// Accept bios sent to a partition of the traced disk too.
		struct gendisk *disk = BPF_CORE_READ(bio, bi_bdev, bd_disk);
		__u32 disk_dev = ((__u32)BPF_CORE_READ(disk, major) << MINORBITS) |
				 (__u32)BPF_CORE_READ(disk, first_minor);
		if (disk_dev != target_dev)
			return 0;
	}

	__u8 op = classify(BPF_CORE_READ(bio, bi_opf));
	__u32 size = BPF_CORE_READ(bio, bi_iter.bi_size);
	// A write without data is an empty preflush, not a placement decision.
	if (!all_ops && (op != HT_OP_WRITE || size == 0))
		return 0;

	struct hint_event *e = bpf_ringbuf_reserve(&events, sizeof(*e), 0);
	if (!e) {
		__sync_fetch_and_add(&lost, 1);
		return 0;
	}
	e->time_ns = bpf_ktime_get_ns();
	e->dev = dev;
	e->sector = BPF_CORE_READ(bio, bi_iter.bi_sector);
	e->sectors = size >> 9;
	e->op = op;
	e->pad = 0;
	e->hint = 0;
	if (bpf_core_field_exists(((struct bio___enum_hint *)bio)->bi_write_hint))
		e->hint = (__u8)BPF_CORE_READ_BITFIELD_PROBED(
			(struct bio___enum_hint *)bio, bi_write_hint);
	else if (bpf_core_field_exists(((struct bio___short_hint *)bio)->bi_write_hint))
		e->hint = (__u8)BPF_CORE_READ_BITFIELD_PROBED(
			(struct bio___short_hint *)bio, bi_write_hint);
	e->stream = 0;
	if (bpf_core_field_exists(((struct bio___stream *)bio)->bi_write_stream))
		e->stream = BPF_CORE_READ((struct bio___stream *)bio, bi_write_stream);
	e->ino = bio_inode(bio, dev);
	e->pid = (__u32)bpf_get_current_pid_tgid();
	bpf_get_current_comm(e->comm, sizeof(e->comm));
	bpf_ringbuf_submit(e, 0);
	return 0;
}
