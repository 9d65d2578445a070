#!/usr/bin/env python3
"""Raw RPC clients for usernfsd's transport tests (integ_transport.sh).

usage: transport_probe.py HOST PORT MODE [ARGS]
  badcred udp|tcp CREDLEN [BODYLEN]
        a NULL call whose AUTH_SYS credential claims CREDLEN bytes and
        carries BODYLEN of them (default CREDLEN); prints
        "ms=N rpc=AUTH_BADCRED", "ms=N closed", "ms=N reply=HEX" or
        "timeout" (after 2 s)
  short udp|tcp
        a call cut short after its third word (xid, CALL, rpcvers 2);
        prints "ms=N closed", "ms=N reply=HEX" or "timeout" (after 2 s)
  flood N K FHHEX SECONDS
        N TCP connections, each sending K pipelined 1 MiB NFSv3 READs of
        the file FHHEX (offsets spread over 64 MiB) and never reading a
        reply; prints "connected=N sent=M" once all were sent, holds them
        SECONDS, then closes them
Loopback only; every mode ends by itself.
"""
import os
import select
import socket
import struct
import sys
import time

NFS_PROG = 100003
CALL = 0
REPLY = 1
MSG_DENIED = 1
AUTH_ERROR = 1
AUTH_BADCRED = 1
AUTH_SYS = 1


def call_header(xid, prog, vers, proc, cred_flavor, cred):
    """RFC 5531 call header; cred is (claimed length, body bytes)."""
    claimed, body = cred
    pad = (4 - len(body) % 4) % 4
    return (struct.pack(">IIIIIIII", xid, CALL, 2, prog, vers, proc, cred_flavor, claimed)
            + body + b"\0" * pad + struct.pack(">II", 0, 0))


def auth_sys_body():
    name = b"probe"
    return struct.pack(">II", 0, len(name)) + name + b"\0" * 3 + struct.pack(">III", 0, 0, 0)


def open_sock(host, port, proto):
    fam = socket.AF_INET6 if ":" in host else socket.AF_INET
    if proto == "udp":
        s = socket.socket(fam, socket.SOCK_DGRAM)
        s.connect((host, port))
    else:
        s = socket.create_connection((host, port), timeout=5)
    return s


def send_msg(s, proto, msg):
    if proto == "udp":
        s.send(msg)
    else:
        s.sendall(struct.pack(">I", 0x80000000 | len(msg)) + msg)


def await_reply(s, proto, t0, timeout=2.0):
    """The first reply (bytes), b"" when the stream closed, None on timeout."""
    buf = b""
    deadline = t0 + timeout
    while True:
        left = deadline - time.monotonic()
        if left <= 0 or not select.select([s], [], [], left)[0]:
            return None
        try:
            data = s.recv(65536)
        except ConnectionResetError:
            return b""
        if proto == "udp":
            return data
        if not data:
            return b""
        buf += data
        if len(buf) >= 4:
            n = struct.unpack(">I", buf[:4])[0] & 0x7FFFFFFF
            if len(buf) >= 4 + n:
                return buf[4:4 + n]


def report(reply, xid, t0):
    ms = int((time.monotonic() - t0) * 1000)
    if reply is None:
        print("timeout")
    elif reply == b"":
        print("ms=%d closed" % ms)
    elif (len(reply) >= 20 and struct.unpack(">IIIII", reply[:20]) ==
          (xid, REPLY, MSG_DENIED, AUTH_ERROR, AUTH_BADCRED)):
        print("ms=%d rpc=AUTH_BADCRED" % ms)
    else:
        print("ms=%d reply=%s" % (ms, reply[:24].hex()))


def badcred(host, port, proto, credlen, bodylen):
    xid = int.from_bytes(os.urandom(4), "big")
    msg = call_header(xid, NFS_PROG, 3, 0, AUTH_SYS, (credlen, b"\0" * bodylen))
    s = open_sock(host, port, proto)
    t0 = time.monotonic()
    send_msg(s, proto, msg)
    report(await_reply(s, proto, t0), xid, t0)


def short(host, port, proto):
    xid = int.from_bytes(os.urandom(4), "big")
    s = open_sock(host, port, proto)
    t0 = time.monotonic()
    send_msg(s, proto, struct.pack(">III", xid, CALL, 2))
    report(await_reply(s, proto, t0), xid, t0)


def read_call(xid, fh, offset, count):
    body = struct.pack(">I", len(fh)) + fh + b"\0" * ((4 - len(fh) % 4) % 4)
    body += struct.pack(">QI", offset, count)
    cred = auth_sys_body()
    return call_header(xid, NFS_PROG, 3, 6, AUTH_SYS, (len(cred), cred)) + body


def flood(host, port, n, k, fh, seconds):
    socks, sent = [], 0
    for i in range(n):
        s = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        # a small receive buffer: the server's replies back up sooner
        s.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 65536)
        try:
            s.settimeout(5)
            s.connect((host, port))
        except OSError:
            s.close()
            continue
        batch = b""
        for j in range(k):
            msg = read_call((i << 16) | j, fh, ((i * k + j) % 64) << 20, 1 << 20)
            batch += struct.pack(">I", 0x80000000 | len(msg)) + msg
        try:
            s.sendall(batch)
            sent += k
        except OSError:
            pass
        s.setblocking(False)
        socks.append(s)
    print("connected=%d sent=%d" % (len(socks), sent), flush=True)
    time.sleep(seconds)
    for s in socks:
        s.close()


def main():
    if len(sys.argv) < 4:
        sys.exit(__doc__)
    host, port, mode = sys.argv[1], int(sys.argv[2]), sys.argv[3]
    a = sys.argv[4:]
    if mode == "badcred":
        credlen = int(a[1], 0)
        badcred(host, port, a[0], credlen, int(a[2], 0) if len(a) > 2 else credlen)
    elif mode == "short":
        short(host, port, a[0])
    elif mode == "flood":
        flood(host, port, int(a[0]), int(a[1]), bytes.fromhex(a[2]), float(a[3]))
    else:
        sys.exit(__doc__)


if __name__ == "__main__":
    main()
