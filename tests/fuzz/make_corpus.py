#!/usr/bin/env python3
"""Writes the seed corpus of every fuzz target into tests/fuzz/corpus/<target>/.

Small valid inputs (from tests/trace/data and hand-written) and invalid ones
(one defect each: truncation, CRLF, wrong columns, overflow, zero length,
unknown op, binary garbage, a long line). Rerun after changing a format;
libFuzzer's own finds are not kept here (only bugs go to regressions/).
"""
import os
import struct
import sys
import zlib

HERE = os.path.dirname(os.path.abspath(__file__))
DATA = os.path.join(HERE, "..", "trace", "data")


def data(name):
    with open(os.path.join(DATA, name), "rb") as f:
        return f.read()


def write(target, name, content):
    d = os.path.join(HERE, "corpus", target)
    os.makedirs(d, exist_ok=True)
    if isinstance(content, str):
        content = content.encode()
    with open(os.path.join(d, name), "wb") as f:
        f.write(content)


GARBAGE = bytes(range(256)) + b"\x00\xff\n\x00"
LONG = b"1 0 0 8 0 " + b"9" * 5000 + b"\n"


def common(target, valid):
    """The defects every text format gets, applied to a valid text."""
    write(target, "valid", valid)
    write(target, "empty", b"")
    write(target, "crlf", valid.replace(b"\n", b"\r\n"))
    write(target, "truncated", valid[: len(valid) * 2 // 3])
    write(target, "no_final_newline", valid.rstrip(b"\n"))
    write(target, "garbage", GARBAGE)
    write(target, "long_line", valid + LONG)


def ftr(records, meta=(("source", "fuzz"),), names=((1, "wal"),), sector=512, count=None):
    """A .ftr file as docs/trace_format.md specifies it."""
    body = b""
    for k, v in meta:
        body += struct.pack("<HHI", len(k), 0, len(v)) + k.encode() + v.encode()
    for pid, n in names:
        body += struct.pack("<HH", pid, len(n)) + n.encode()
    hb = 48 + len(body)
    hb = (hb + 7) // 8 * 8
    body += b"\0" * (hb - 48 - len(body))
    n = len(records) if count is None else count
    head = b"FTLTRACE" + struct.pack("<HHIIIIIQII", 1, 0, 0, hb, 24, sector, 0, n, len(meta), len(names))
    header = bytearray(head + body)
    crc = zlib.crc32(bytes(header)) & 0xFFFFFFFF
    header[28:32] = struct.pack("<I", crc)
    recs = b"".join(struct.pack("<QQIHBB", *r) for r in records)
    return bytes(header) + recs


def main():
    # .ftr
    good = [(0, 0, 8, 0, 0, 0), (10, 8, 8, 1, 1, 0), (20, 0, 0, 0, 3, 0), (30, 7, 0, 0, 4, 0), (40, 16, 8, 2, 2, 0)]
    write("ftr", "golden_v1.ftr", data("golden_v1.ftr"))
    write("ftr", "valid.ftr", ftr(good))
    write("ftr", "no_records.ftr", ftr([]))
    write("ftr", "no_meta.ftr", ftr(good[:2], meta=(), names=()))
    write("ftr", "sector4k.ftr", ftr(good, sector=4096))
    write("ftr", "truncated_record.ftr", ftr(good)[:-5])
    write("ftr", "count_too_big.ftr", ftr(good, count=9))
    write("ftr", "bad_records.ftr", ftr([(0, 0, 0, 0, 0, 0), (0, 2**64 - 4, 8, 0, 0, 0), (0, 0, 1, 0, 9, 0), (0, 0, 4, 0, 3, 0)]))
    write("ftr", "bad_magic.ftr", b"FTLTRACX" + ftr(good)[8:])
    write("ftr", "short.ftr", b"FTLTRACE\x01\x00")
    write("ftr", "empty", b"")
    write("ftr", "garbage", GARBAGE)

    # disksim
    common("disksim", data("mixed_whitespace.disksim"))
    write("disksim", "crlf_file", data("crlf.disksim"))
    write("disksim", "bad_type", data("bad_type.disksim"))
    write("disksim", "defects",
          "# comment\n\n0 0 0 8 0\n1 0 0 0 0\n2 0 -5 8 0\n3 0 18446744073709551615 8 1\n"
          "4 0 0 4294967296 0\n5 0 0 8\n6 0 0 8 0 extra\n1 0 8 8 1\n")

    # blkparse: default output and a -f format
    common("blkparse", data("small.blkparse"))
    write("blkparse", "format",
          "-f %D %2c %8s %5T.%9t %5p %2a %3d %S + %n [%C]\\n\n"
          "8,16  0        1     0.000000000  4242  D  WS 2048 + 8 [geth]\n"
          "8,16  0        2     1.000000000  4242  D   R 4096 + 16 [geth worker]\n")
    write("blkparse", "format_bytes",
          "-f %M %m %T.%t %a %d %S %N %p %C\n8 16 0.000000100 D W 0 4096 17 kworker/0:1\n8 16 0.1 D R 8 100 1 x\n")
    write("blkparse", "defects",
          "8,16 0 1 0.000000001 1 D W 0 + 0 [x]\n8,16 0 2 0.000000002 1 D Z 0 + 8 [x]\n"
          "8:16 0 3 -1.0 1 D W 0 + 8 [x]\n8,16 0 4 0.1 1 D W 18446744073709551615 + 8 [x]\n"
          "8,16 0 5 0.2 1 D W 8 + 8\n8,16 0 6 0.0000001 1 D W 8 + 8 [x]\n")

    # ftrace-blk
    common("ftrace_blk", data("small.ftrace"))
    write("ftrace_blk", "events",
          "  fio-100 [000] ..... 10.000001: block_rq_issue: 8,16 W 4096 () 2048 + 8 [fio]\n"
          "  fio-100 [000] ..... 10.000002: block_rq_complete: 8,16 W () 2048 + 8 [0]\n"
          "  fio-100 [000] ..... 10.000003: block_bio_queue: 8,16 WS 8 + 8 [fio]\n"
          "  fio-100 [000] ..... 10.000004: block_plug: [fio]\n")
    write("ftrace_blk", "defects",
          "no cpu column here\n  x-1 [000] 5.0 8,16 D W 0 + 8 [x]\n  x-1 [000] 5.0: 8-16 D W 0 + 8 [x]\n"
          "  x-y [000] 5.0: 8,16 D W 0 + 8 [x]\n  x-1 [000] 4.0: 8,16 D W 0 + 8\nCPU:0 [LOST many EVENTS]\n")

    # blktrace: struct blk_io_trace records (linux/blktrace_api.h, version 7)
    def blk(time, cpu, pid, action, sector, nbytes, pdu=b"", magic=0x65617407, order="<"):
        return struct.pack(order + "IIQQIIIIIHH", magic, 0, time, sector, nbytes, action, pid, 7 << 20, cpu, 0,
                           len(pdu)) + pdu
    issue_w, issue_r, queue_w = 7 | (0x42 << 16), 7 | (0x41 << 16), 1 | (0x12 << 16)
    note = 0x400 << 16  # BLK_TN_PROCESS
    recs = [blk(0, 0, 9, note, 0, 0, b"fio\0"), blk(1, 0, 9, queue_w, 8, 4096), blk(2, 0, 9, issue_w, 8, 4096),
            blk(3, 1, 9, issue_r, 64, 8192), blk(5, 1, 9, 8 | (0x81 << 16), 64, 8192), blk(4, 0, 9, issue_w, 16, 512)]
    write("blktrace", "valid", b"".join(recs))
    write("blktrace", "cpus_interleaved", recs[3] + recs[0] + recs[1] + recs[4] + recs[2] + recs[5])
    write("blktrace", "big_endian", b"".join(blk(t, 0, 1, issue_w, 8 * t, 4096, order=">") for t in range(4)))
    write("blktrace", "empty", b"")
    write("blktrace", "garbage", GARBAGE)
    write("blktrace", "truncated", b"".join(recs)[:100])
    write("blktrace", "version8", recs[2] + blk(6, 0, 9, issue_w, 8, 4096, magic=0x65617408))
    write("blktrace", "overflow", recs[2] + blk(6, 0, 9, issue_w, 2**64 - 2, 4096) + recs[5])
    write("blktrace", "kernel_capture", data("loop0.blktrace.1"))
    write("blktrace", "discard_flush", blk(1, 0, 1, 7 | (0x2040 << 16), 0, 1 << 20) + blk(2, 0, 1, 7 | (0x44 << 16), 0, 0))

    # msr, alibaba, tencent
    common("msr", data("small.msr"))
    write("msr", "defects",
          "1,h,0,Write,0,0,1\n1,h,0,Flush,0,512,1\n1,h,0,Write,-512,512,1\n1,h,0,Write,0,512\n"
          "184467440737095516,h,0,Read,0,512,1\n1,h,0,Read,18446744073709551615,512,1\n0,h,0,Read,0,512,1\n")
    common("alibaba", data("small.alibaba"))
    write("alibaba", "defects",
          "device_id,opcode,offset,length,timestamp\n0,W,0,0,1\n0,X,0,512,1\n0,W,0,512\n0,W,0,512,1.5\n"
          "0,R,0,512,18446744073709551615\n4294967296,W,0,512,2\n0,W,0,512,0\n")
    common("tencent", data("small.tencent"))
    write("tencent", "defects",
          "1,0,0,1,1\n1,0,8,2,1\n1,0,8,1\n1,18446744073709551615,8,1,1\n1,0,4294967296,1,1\n"
          "1.5.2,0,8,1,1\n0.9,0,8,1,1\n")

    # csv: line 1 --columns, line 2 --op-map, then the file
    cols = "time=ts_us:us,lba=offset:bytes,length=size:bytes,op=type,pid=stream"
    ops = "W=write,R=read,T=trim,F=flush,X=skip"
    common("csv", (cols + "\n" + ops + "\n").encode() + data("small.csv"))
    write("csv", "numbered", "time=#1:ms,lba=#2:4k,length=#3,op=#4,device=#5\n\n0,1,8,w,3\n1.5,2,8,r,3\n2,3,8,d,3\n")
    write("csv", "numbered_tab", "time=#1:s,lba=#2,length=#3:bytes\n\n1\t0\t4096\n0.5\t8\t100\n")
    write("csv", "bad_options", "lba=offset,length=size:parsecs\nW=write\noffset,size\n0,8\n")
    write("csv", "missing_column", "time=t,lba=offset,length=size\n\nt,offset\n1,2\n")
    write("csv", "defects",
          "lba=#1,length=#2:bytes,op=#3\n\n0,0,w\n0,512,q\n-1,512,w\n18446744073709551615,512,w\n"
          "0,18446744073709551615,r\n0,512\n1,512,f\n")

    # pid map
    write("pid_map", "valid", data("small.pidmap"))
    write("pid_map", "empty", b"")
    write("pid_map", "garbage", GARBAGE)
    write("pid_map", "crlf", data("small.pidmap").replace(b"\n", b"\r\n"))
    write("pid_map", "prefixes", "comm:kworker*=1\ncomm:k*=2\ncomm:*=3\npid:0=4\nlba:0-1=5\nname:5=five\n")
    write("pid_map", "overlap", "lba:0-100=1\nlba:50-150=2\n")
    write("pid_map", "defects", "default=1\ndefault=2\n")
    write("pid_map", "bad_id", "comm:a=70000\n")
    write("pid_map", "bad_rule", "foo:bar=1\n")
    write("pid_map", "empty_range", "lba:10-10=1\n")

    # write-hint log
    log = ("time_ns,dev,sector,sectors,hint,stream,ino,pid,comm\n"
           "100000000000,7:0,1000,8,2,1,12,1,w\n100000050000,7:0,2000,16,3,0,13,1,w\n"
           "100000690000,7:0,6200,8,1,0,14,1,w\n100000000000,7:0,9000,0,3,0,0,1,flush\n")
    write("hint_log", "valid", log)
    write("hint_log", "reordered", "dev,sectors,sector,time_ns,hint\n7340032,8,100,5000,3\n8:1,256,0,1,4\n")
    write("hint_log", "no_header", "5,8:0,0,8,1,2\n6,8:0,8,8,2,3\n")
    write("hint_log", "with_map", "map:2=1,3=2, 4 = 9\n" + log)
    write("hint_log", "bad_map", "map:2=x\n" + log)
    write("hint_log", "wide_row", "1,8:0,0,4294967295,1,0\n2,8:0,100,8,2,0\n")
    write("hint_log", "defects",
          log + "100,7:0,1000\nx,7:0,0,8,1,0\n1,7-0,0,8,1,0\n1,7:0,0,8,70000,0\n1,7:0,18446744073709551615,8,1,0\n")
    write("hint_log", "empty", b"")
    write("hint_log", "garbage", GARBAGE)
    write("hint_log", "missing_column", "time_ns,dev,sector,sectors\n1,7:0,0,8\n")

    # marker sidecar (convert --markers)
    write("markers", "valid", "# t_ns block\n1000 0\n2000 1\n\n2000 2\n  3500\t3  \n")
    write("markers", "crlf", "1000 0\r\n2000 1\r\n")
    write("markers", "backwards", "2000 0\n1000 1\n")
    write("markers", "one_column", "1000\n")
    write("markers", "three_columns", "1000 1 2\n")
    write("markers", "negative", "-5 1\n")
    write("markers", "overflow", "18446744073709551616 1\n")
    write("markers", "control_bytes", b"1000 \x01\x1b[31m\n")
    write("markers", "long_line", "1 " + "9" * 5000 + "\n")
    write("markers", "empty", b"")
    write("markers", "garbage", GARBAGE)
    return 0


if __name__ == "__main__":
    sys.exit(main())
