#!/usr/bin/env python3
"""CPU per message and voluntary context switches per message of every thread of a stream's two processes.

cpu.sh gives each process's CPU per message; this splits it per thread (BENCHMARKS.md, twentieth figures): which
thread of the sender and of the receiver spends what, so that a gap to the raw floor can be put on a thread. It runs
remote_thr -> local_thr of one implementation (ours, libzmq or the raw floor), reads every thread's run time and
switch count from /proc twice while the stream is steady (after WARMUP seconds, then WINDOW seconds later), and
divides by the messages that passed meanwhile (the receiver's mean rate over the whole run times the window).

    python3 benchmarks/thread-split/run.py IMPL TRANSPORT [SIZE] [COUNT]

IMPL is ours, libzmq or raw; TRANSPORT tcp or ipc; SIZE in bytes (default 65536); COUNT messages (default 400000,
long enough that the window falls inside the stream at this machine's rates; the script says when it did not).
Needs the tools compare.sh builds: run compare.sh (or cpu.sh) once first. Linux only (/proc).
"""
import os
import re
import subprocess
import sys
import time

WARMUP = 2.5
WINDOW = 3.0

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
DLL = os.path.join(ROOT, 'benchmarks/Managed.Zmq.Perf/bin/Release/net10.0/Managed.Zmq.Perf.dll')
NATIVE = os.path.join(ROOT, 'benchmarks/native/build')


def commands(impl):
    if impl == 'ours':
        return ['dotnet', DLL, 'local_thr'], ['dotnet', DLL, 'remote_thr']
    prefix = 'raw_' if impl == 'raw' else ''
    return [os.path.join(NATIVE, prefix + 'local_thr')], [os.path.join(NATIVE, prefix + 'remote_thr')]


def snapshot(pids):
    """(side, tid) -> (thread name, run time in ns, voluntary switches) for every thread of the given processes."""
    threads = {}
    for side, pid in pids:
        try:
            tids = os.listdir(f'/proc/{pid}/task')
        except OSError:
            continue  # the process ended
        for tid in tids:
            base = f'/proc/{pid}/task/{tid}'
            try:
                name = open(f'{base}/comm').read().strip()
                run_ns = int(open(f'{base}/schedstat').read().split()[0])
                status = open(f'{base}/status').read()
            except OSError:
                continue  # the thread ended meanwhile
            voluntary = int(re.search(r'voluntary_ctxt_switches:\s+(\d+)', status).group(1))
            threads[(side, tid)] = (name, run_ns, voluntary)
    return threads


def main():
    if len(sys.argv) < 3 or sys.argv[1] not in ('ours', 'libzmq', 'raw') or sys.argv[2] not in ('tcp', 'ipc'):
        sys.exit(__doc__)
    impl, transport = sys.argv[1], sys.argv[2]
    size = sys.argv[3] if len(sys.argv) > 3 else '65536'
    count = sys.argv[4] if len(sys.argv) > 4 else '400000'
    local, remote = commands(impl)
    if not os.path.exists(local[-1] if impl != 'ours' else DLL):
        sys.exit('the tools are not built: run benchmarks/compare.sh once first')

    endpoint = (f'ipc:///tmp/thread-split-{os.getpid()}' if transport == 'ipc'
                else f'tcp://127.0.0.1:{20000 + os.getpid() % 20000}')
    env = dict(os.environ, PERF_BUFFER='message', PERF_WARMUP='0')
    receiver = subprocess.Popen(local + [endpoint, size, count], env=env, stdout=subprocess.PIPE, text=True)
    time.sleep(1)  # the receiver binds before the sender connects (libzmq's tools do not retry a refused ipc connect)
    sender = subprocess.Popen(remote + [endpoint, size, count], env=env, stdout=subprocess.DEVNULL)
    pids = [('receiver', receiver.pid), ('sender', sender.pid)]

    time.sleep(WARMUP)
    first, started = snapshot(pids), time.monotonic()
    time.sleep(WINDOW)
    second, ended = snapshot(pids), time.monotonic()
    output = receiver.communicate()[0]
    sender.wait()
    if {side for side, _ in second} != {'receiver', 'sender'}:
        sys.exit('the stream ended inside the window: raise COUNT')

    rate = int(re.search(r'mean throughput: (\d+) \[msg/s\]', output).group(1))
    messages = rate * (ended - started)
    print(f'{impl} {transport} {size} B: {rate} msg/s; per message over a {ended - started:.1f} s window')
    print('| side | thread | CPU [us/msg] | voluntary switches / msg |')
    print('|---|---|---:|---:|')
    for key in sorted(second):
        if key not in first:
            continue
        name, run_ns, voluntary = second[key]
        cpu_us = (run_ns - first[key][1]) / messages / 1000
        if cpu_us >= 0.1:
            print(f'| {key[0]} | {name} | {cpu_us:.2f} | {(voluntary - first[key][2]) / messages:.3f} |')


if __name__ == '__main__':
    main()
