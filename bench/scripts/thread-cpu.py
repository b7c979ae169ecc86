#!/usr/bin/env python3
"""CPU and context switches per thread of one process over a window, from /proc/<pid>/task.

Usage: bench/scripts/thread-cpu.py PID SECONDS [PROBES_PER_SECOND]

Threads are grouped by name with their numbers removed (all "C2 CompilerThreadN" together). The kernel keeps 15
characters of a name; for a JVM the full names come from `jcmd PID Thread.print` when jcmd answers. With a probe rate
the CPU is also printed in microseconds per probe, so that a thread's share of a probe's cost can be read
against the load harness's "CPU µs per probe".
"""
import os
import re
import subprocess
import sys
import time

TICK = os.sysconf("SC_CLK_TCK")


def sample(pid):
    threads = {}
    for tid in os.listdir(f"/proc/{pid}/task"):
        try:
            with open(f"/proc/{pid}/task/{tid}/stat") as f:
                stat = f.read()
            with open(f"/proc/{pid}/task/{tid}/status") as f:
                status = f.read()
        except OSError:
            continue   # the thread ended meanwhile
        name = stat[stat.index("(") + 1:stat.rindex(")")]
        fields = stat[stat.rindex(")") + 2:].split()
        user, system = int(fields[11]), int(fields[12])
        voluntary = int(re.search(r"^voluntary_ctxt_switches:\s+(\d+)", status, re.M).group(1))
        involuntary = int(re.search(r"^nonvoluntary_ctxt_switches:\s+(\d+)", status, re.M).group(1))
        threads[tid] = (name, user, system, voluntary, involuntary)
    return threads


def java_names(pid):
    """Full thread names of a JVM by native thread id, from jcmd's thread dump; empty when it does not answer."""
    try:
        dump = subprocess.run(["jcmd", str(pid), "Thread.print"], capture_output=True, text=True, timeout=30).stdout
    except (OSError, subprocess.SubprocessError):
        return {}
    names = {}
    for m in re.finditer(r'^"(.*?)".* nid=(0x[0-9a-f]+)', dump, re.M):
        names[str(int(m.group(2), 16))] = m.group(1)
    return names


def main():
    if len(sys.argv) < 3:
        sys.exit(__doc__)
    pid, seconds = int(sys.argv[1]), float(sys.argv[2])
    rate = float(sys.argv[3]) if len(sys.argv) > 3 else 0
    names = java_names(pid)
    before = sample(pid)
    time.sleep(seconds)
    after = sample(pid)
    groups = {}
    for tid, (name, user, system, vol, invol) in after.items():
        b = before.get(tid, (name, 0, 0, 0, 0))
        key = re.sub(r"\d+", "N", names.get(tid, name))
        g = groups.setdefault(key, [0, 0, 0, 0, 0])
        g[0] += user - b[1]
        g[1] += system - b[2]
        g[2] += vol - b[3]
        g[3] += invol - b[4]
        g[4] += 1
    total = sum(g[0] + g[1] for g in groups.values())
    print(f"{'thread (grouped)':34} {'n':>3} {'user s':>7} {'sys s':>7} {'share':>6} {'vol cs/s':>9} {'invol/s':>8}"
          + (f" {'us/probe':>9}" if rate else ""))
    for key, (user, system, vol, invol, n) in sorted(groups.items(), key=lambda kv: -(kv[1][0] + kv[1][1])):
        cpu = (user + system) / TICK
        if cpu == 0 and vol == 0:
            continue
        line = (f"{key[:34]:34} {n:>3} {user / TICK:7.2f} {system / TICK:7.2f} "
                f"{100 * (user + system) / max(total, 1):5.1f}% {vol / seconds:9.0f} {invol / seconds:8.0f}")
        if rate:
            line += f" {1e6 * cpu / seconds / rate:9.1f}"
        print(line)
    print(f"total {total / TICK:.2f} s CPU in {seconds:.0f} s = {total / TICK / seconds:.2f} cores"
          + (f", {1e6 * total / TICK / seconds / rate:.1f} us per probe at {rate:.0f}/s" if rate else ""))


if __name__ == "__main__":
    main()
