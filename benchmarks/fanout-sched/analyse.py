#!/usr/bin/env python3
"""Reads run.sh's trace: the publisher's I/O threads (named "Managed.Zmq I/O n", 15 characters in the kernel's
comm), their sleeps (switched out in state S or D) and wake-ups (sched_waking, which runs in the waking thread), how
long a woken thread waits to run and then runs until it is switched out (by a sleep or a preemption), its sends in
that time, and the messages per data send (a sendto's length over 66 octets, the size of a 64 B message with its
short frame header on the wire), with the share of the messages each size of send carried.

    python3 analyse.py TIDS TRACE
"""
import collections
import re
import statistics
import sys

LINE = re.compile(r'^\s*(.+?)\s+(\d+)\s+([\d.]+):\s+(\S+):\s*(.*)$')
WIRE_MESSAGE = 66


def percentile(values, share):
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(len(ordered) * share))]


def main(tids_path, trace_path):
    process = {int(t) for t in open(tids_path).read().split()}
    events = []
    for line in open(trace_path):
        match = LINE.match(line)
        if match:
            events.append((float(match[3]), int(match[2]), match[1], match[4], match[5]))
    events.sort()
    io = {tid for _, tid, comm, _, _ in events if tid in process and comm.startswith('Managed.Zmq I')}
    others = process - io

    state, running = {}, {}
    runs, sleeps, wakers = [], collections.Counter(), collections.Counter()
    wake_to_run, asleep = [], []
    per_send = collections.Counter()
    for time, tid, comm, event, trace in events:
        if event == 'sched:sched_switch':
            previous = int(re.search(r'prev_pid=(\d+)', trace)[1])
            prev_state = re.search(r'prev_state=(\S+)', trace)[1]
            following = int(re.search(r'next_pid=(\d+)', trace)[1])
            if previous in io:
                run = running.pop(previous, None)
                slept = prev_state[0] in 'SD'
                if run:
                    runs.append((time - run[0], run[1], run[2], slept))
                state[previous] = ('asleep' if slept else 'preempted', time)
                sleeps[previous] += slept
            if following in io:
                before = state.get(following)
                woken = before is not None and before[0] == 'woken'
                if woken:
                    wake_to_run.append(time - before[1])
                running[following] = [time, 0, woken]
        elif event == 'sched:sched_waking':
            woken_tid = int(re.search(r' pid=(\d+)', trace)[1])
            if woken_tid in io:
                before = state.get(woken_tid)
                if before is not None and before[0] == 'asleep':
                    asleep.append(time - before[1])
                wakers['the publisher\'s other threads' if tid in others else 'its I/O threads' if tid in io else comm.strip()] += 1
                state[woken_tid] = ('woken', time)
        elif event == 'syscalls:sys_enter_sendto' and tid in io:
            length = int(re.search(r'len: (0x[0-9a-f]+)', trace)[1], 16)
            if tid in running:
                running[tid][1] += 1
            per_send[length // WIRE_MESSAGE] += 1

    print(f'I/O threads {len(io)}; sleeps in the second traced {sum(sleeps.values())}; woken by {dict(wakers)}')
    if wake_to_run:
        print(f'wake-up to running: median {statistics.median(wake_to_run) * 1e6:.0f} us, p90 {percentile(wake_to_run, 0.9) * 1e6:.0f} us')
    if asleep:
        print(f'asleep: median {statistics.median(asleep) * 1e6:.0f} us, p90 {percentile(asleep, 0.9) * 1e6:.0f} us')
    for woken, name in ((True, 'woken'), (False, 'resumed after preemption')):
        chosen = [r for r in runs if r[2] == woken]
        if chosen:
            print(f'{name} runs {len(chosen)}: median {statistics.median(r[0] for r in chosen) * 1e6:.0f} us and '
                  f'{statistics.median(r[1] for r in chosen):g} sends; ended by a sleep {sum(r[3] for r in chosen)}')
    short = per_send.pop(0, 0)
    total = sum(per_send.values())
    messages = sum(carried * n for carried, n in per_send.items())
    print(f'data sends {total} carrying {messages} messages (and {short} sends shorter than one message), by messages carried:')
    for low, high in ((1, 2), (2, 5), (5, 20), (20, 100), (100, 300), (300, 10**9)):
        count = sum(n for carried, n in per_send.items() if low <= carried < high)
        carried_here = sum(carried * n for carried, n in per_send.items() if low <= carried < high)
        label = str(low) if high == low + 1 else f'{low}-{high - 1}' if high < 10**9 else f'{low}+'
        print(f'  {label}: {count} sends ({100 * count / max(1, total):.0f} %), '
              f'{100 * carried_here / max(1, messages):.0f} % of the messages')


if __name__ == '__main__':
    main(sys.argv[1], sys.argv[2])
