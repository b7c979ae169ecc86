#!/usr/bin/env python3
"""Summary of an async-profiler profile in collapsed form, recorded with its 'threads' option.

Usage: bench/scripts/profile-summary.py FILE.collapsed [TOP]

Each line of the file is one stack, root first, the thread's name as its first frame ("[name tid=N]"), and a sample
count. Threads are grouped by name with their numbers removed (both "healthmesh-probe-2-1" and "-2-2" together);
for each group: its share of all samples, the share of its samples whose innermost frame is in the kernel, and its
TOP innermost frames.
"""
import collections
import re
import sys


def group_of(thread):
    name = re.sub(r"\s*tid=\d+\]$", "", thread).lstrip("[")
    return re.sub(r"\d+", "N", name)


def main():
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    top = int(sys.argv[2]) if len(sys.argv) > 2 else 12
    samples = collections.Counter()
    kernel = collections.Counter()
    leaves = collections.defaultdict(collections.Counter)
    with open(sys.argv[1]) as f:
        for line in f:
            stack, _, count = line.rstrip("\n").rpartition(" ")
            if not stack:
                continue
            frames = stack.split(";")
            named = " tid=" in frames[0]
            group = group_of(frames[0]) if named else "(no thread name: record with the threads option)"
            n = int(count)
            samples[group] += n
            if frames[-1].endswith("_[k]"):
                kernel[group] += n
            leaves[group][frames[-1]] += n
    total = sum(samples.values())
    if total == 0:
        sys.exit("no samples in " + sys.argv[1])
    print(f"{total} samples")
    print(f"{'share':>6} {'kernel':>7}  thread group")
    for group, n in samples.most_common():
        print(f"{100 * n / total:5.1f}% {100 * kernel[group] / n:6.1f}%  {group}")
    for group, n in samples.most_common(6):
        print(f"\n{group}: top frames ({n} samples)")
        for frame, c in leaves[group].most_common(top):
            print(f"  {100 * c / n:5.1f}%  {frame[:140]}")


if __name__ == "__main__":
    main()
