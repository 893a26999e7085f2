#!/usr/bin/python3
"""Extract the shell commands of a Markdown document, block by block.

A command is a line starting with "$ " inside a fenced code block; the lines
after it, up to the next command or the end of the block, are its shown
output. A block whose preceding paragraph contains "**As root**" is marked
root; one whose paragraph contains "**Needs a device**" is never run
(it names hardware such as an FDP NVMe namespace). Used to rerun the commands of docs/guide.md and README.md from the
repository root:

  tools/doc_commands.py docs/guide.md            # list: block number, root flag, command
  tools/doc_commands.py --run docs/guide.md      # run each block in one bash, stop at the first failure

With --run, a command may fail only when its shown output says so (an
"ftlsim: error:" line or an "exit N" line with N != 0); root blocks are
skipped, with a note, unless running as root.
"""
import argparse
import os
import re
import subprocess
import sys


def blocks(path):
    """Yields (line number, "-" | "root" | "device", [(command, [shown output lines])]) per block with commands."""
    lines = open(path, encoding="utf-8").read().split("\n")
    para = []  # the last paragraph before the current line
    para_done = False
    i = 0
    while i < len(lines):
        if lines[i].startswith("```"):
            start = i
            root = any("**As root**" in p for p in para)
            device = any("**Needs a device**" in p for p in para)
            body = []
            i += 1
            while i < len(lines) and not lines[i].startswith("```"):
                body.append(lines[i])
                i += 1
            cmds = []
            for line in body:
                if line.startswith("$ "):
                    cmds.append((line[2:], []))
                elif cmds:
                    cmds[-1][1].append(line)
            if cmds:
                yield start + 1, "device" if device else "root" if root else "-", cmds
            para = []
        elif lines[i].strip() == "":
            para_done = True
        else:
            if para_done:
                para = []
            para_done = False
            para.append(lines[i])
        i += 1


def may_fail(shown):
    return any(l.startswith("ftlsim: error:") or re.match(r"^exit [1-9]", l) for l in shown)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("doc")
    ap.add_argument("--run", action="store_true", help="run the commands (from the current directory)")
    args = ap.parse_args()
    failures = 0
    for line, root, cmds in blocks(args.doc):
        if not args.run:
            for cmd, _ in cmds:
                print(f"{line}\t{root}\t{cmd}")
            continue
        if root == "device":
            print(f"SKIP {args.doc}:{line}: needs a device this machine may not have")
            continue
        if root == "root" and os.geteuid() != 0:
            print(f"SKIP {args.doc}:{line}: a root block, not root")
            continue
        script = []
        for n, (cmd, shown) in enumerate(cmds, 1):
            # Commands whose output shows a failure may fail; others must succeed.
            script.append(f"{{ {cmd}\n}} || true" if may_fail(shown) else f"{{ {cmd}\n}} || {{ echo 'FAILED: command {n} of the block'; exit 1; }}")
        r = subprocess.run(["bash", "-c", "\n".join(script)], capture_output=True, text=True)
        status = "ok" if r.returncode == 0 else "FAIL"
        print(f"{status} {args.doc}:{line} ({len(cmds)} commands)")
        if r.returncode != 0:
            failures += 1
            sys.stdout.write(r.stdout[-2000:] + r.stderr[-2000:])
    sys.exit(1 if failures else 0)


if __name__ == "__main__":
    main()
