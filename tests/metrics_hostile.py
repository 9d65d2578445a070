#!/usr/bin/env python3
"""Hostile clients for usernfsd's metrics listener (integ_metrics_hostile.sh).

usage: metrics_hostile.py PORT MODE [ARG]
  garbage N     N connections, each sending 4 KiB of random bytes
  bigline       one request line of 1 MiB; prints what came back
  slowloris N S N connections sending a header a byte every 0.5 s for S
                seconds; prints how many the server closed, and when
  many N S      N connections held open S seconds; prints how many the
                server closed at once
  stuckctl PATH S   a control-socket client that connects and says
                nothing for S seconds
Loopback only; every mode ends by itself.
"""
import os
import resource
import socket
import sys
import time

HOST = "127.0.0.1"


def connect(port):
    s = socket.create_connection((HOST, port), timeout=5)
    return s


def garbage(port, n):
    sent = 0
    for _ in range(n):
        try:
            s = connect(port)
            s.sendall(os.urandom(4096))
            s.settimeout(2)
            try:
                s.recv(4096)
            except OSError:
                pass
            s.close()
            sent += 1
        except OSError:
            pass
    print("garbage_sent=%d" % sent)


def bigline(port):
    s = connect(port)
    line = b"GET /" + b"A" * (1 << 20) + b" HTTP/1.1\r\n\r\n"
    try:
        s.sendall(line)
    except OSError as e:
        print("send_error=%s" % e.__class__.__name__)
    s.settimeout(5)
    try:
        got = s.recv(200)
    except OSError as e:
        got = ("error:%s" % e.__class__.__name__).encode()
    first = got.split(b"\r\n", 1)[0].decode("latin-1") if got else "closed"
    print("reply=%s" % first.replace(" ", "_"))


def slowloris(port, n, secs):
    socks = []
    for _ in range(n):
        try:
            s = connect(port)
            s.sendall(b"GET /metrics HTTP/1.1\r\nHost: x\r\n")
            s.setblocking(False)
            socks.append(s)
        except OSError:
            pass
    t0 = time.time()
    closed_at = {}
    while time.time() - t0 < secs and len(closed_at) < len(socks):
        for i, s in enumerate(socks):
            if i in closed_at:
                continue
            try:
                data = s.recv(4096)
                if data == b"":
                    closed_at[i] = time.time() - t0
                    continue
            except BlockingIOError:
                pass
            except OSError:
                closed_at[i] = time.time() - t0
                continue
            try:
                s.send(b"X")
            except BlockingIOError:
                pass
            except OSError:
                closed_at[i] = time.time() - t0
        time.sleep(0.5)
    for s in socks:
        s.close()
    latest = max(closed_at.values()) if closed_at else -1
    print("opened=%d closed_by_server=%d latest_close=%.1f" % (len(socks), len(closed_at), latest))


def many(port, n, secs):
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    want = min(hard, n + 64)
    if soft < want:
        resource.setrlimit(resource.RLIMIT_NOFILE, (want, hard))
    socks = []
    for _ in range(n):
        try:
            socks.append(connect(port))
        except OSError:
            break
    time.sleep(0.5)
    closed = 0
    for s in socks:
        s.setblocking(False)
        try:
            if s.recv(1) == b"":
                closed += 1
        except BlockingIOError:
            pass
        except OSError:
            closed += 1
    print("opened=%d closed_at_once=%d" % (len(socks), closed))
    sys.stdout.flush()
    time.sleep(max(0.0, secs - 0.5))
    for s in socks:
        s.close()


def stuckctl(path, secs):
    s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    s.connect(path)
    print("connected=1")
    sys.stdout.flush()
    time.sleep(secs)
    s.close()


def main():
    mode = sys.argv[2]
    if mode == "stuckctl":
        stuckctl(sys.argv[1], float(sys.argv[3]))
        return
    port = int(sys.argv[1])
    if mode == "garbage":
        garbage(port, int(sys.argv[3]))
    elif mode == "bigline":
        bigline(port)
    elif mode == "slowloris":
        slowloris(port, int(sys.argv[3]), float(sys.argv[4]))
    elif mode == "many":
        many(port, int(sys.argv[3]), float(sys.argv[4]))
    else:
        sys.exit("unknown mode " + mode)


if __name__ == "__main__":
    main()
