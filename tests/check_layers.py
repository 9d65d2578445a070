#!/usr/bin/env python3
"""The layer rules of DESIGN.md's map, read from the #include lines of src/.

Run by tests/check_layout.sh. Every #include "..." of a file under src/ is
checked against the folder it is in: a lower layer never includes a higher
layer's header, an include names the header's folder unless it is the
includer's own or src/ itself, and no include cycle spans two folders.
There are no exceptions: a crossing fails the check wherever it is.
"""
import os, re, sys

ALLOWED = {
    'admin': {'admin', 'proto', 'exports', 'state', 'fs', 'rpc', 'shared'},
    'proto': {'proto', 'exports', 'state', 'fs', 'rpc', 'shared'},
    'exports': {'exports', 'fs', 'shared'},
    'state': {'state', 'fs', 'shared'},
    'fs': {'fs', 'shared'},
    'rpc': {'rpc', 'shared'},
    'shared': {'shared'},
    'bind': {'admin', 'proto', 'exports', 'state', 'fs', 'rpc', 'shared', 'bind'},
}
# What binds the layers together: may include anything, included by nothing else.
BINDERS = {'main', 'daemon', 'share'}
GENERATED = re.compile(r'^(nfs3|mount|nfs|nlm|nlm4|sm_inter)_prot$')

def layer_of(path):
    d = os.path.dirname(path)
    if d == 'src':
        return 'bind' if module_of(path) in BINDERS else 'shared'
    return d[len('src/'):]

def module_of(path):
    b = os.path.basename(path)
    return re.sub(r'(_impl)?\.[ch]$', '', b)

files = []
for root, _, names in os.walk('src'):
    for n in names:
        if n.endswith(('.c', '.h')) and not n.endswith('_xdr.c') and not GENERATED.match(n[:-2]):
            files.append(os.path.join(root, n))
where = {}
for f in files:
    where[os.path.basename(f)] = f
for g in ('nfs3', 'mount', 'nfs', 'nlm', 'nlm4', 'sm_inter'):
    where[g + '_prot.h'] = 'src/rpc/' + g + '_prot.h'

# file -> layers it may still use (one cut of issue 26 not yet made: the
# fs layer's fs_ctx still carries the call and the export entry, and the
# lock manager still calls NSM and reads the worker's identity).
failed = 0
edges = {}
for f in sorted(files):
    src_layer = layer_of(f)
    for ln, line in enumerate(open(f), 1):
        m = re.match(r'\s*#\s*include\s+"([^"]+)"', line)
        if not m or m.group(1) == 'config.h':
            continue
        inc = m.group(1)
        base = os.path.basename(inc)
        target = where.get(base)
        if target is None:
            print('not ok: %s:%d includes %s, which is not in src/' % (f, ln, inc))
            failed += 1
            continue
        tl = layer_of(target)
        # The folder in the include must be the header's own.
        want = base if os.path.dirname(target) in ('src', os.path.dirname(f)) else \
            os.path.relpath(target, 'src')
        if inc != want:
            print('not ok: %s:%d includes "%s"; write "%s"' % (f, ln, inc, want))
            failed += 1
        if tl not in ALLOWED[src_layer]:
            print('not ok: %s:%d: %s may not use %s (%s)' % (f, ln, src_layer, tl, inc))
            failed += 1
        a, b = (os.path.dirname(f), module_of(f)), (os.path.dirname(target), module_of(target))
        if a != b:
            edges.setdefault(a, set()).add(b)

# Cycles between modules (x.c with x.h and x_impl.h): Tarjan's strongly
# connected components. One that spans two folders is an error; one inside
# a folder must be named in TOLERATED (with why, in DESIGN.md).
TOLERATED = {
    # The cache resolves a handle it lacks by beneath (open_by_handle_at,
    # or a search), which builds candidates' handles with fh_build, which
    # asks the cache for a kernel handle it already holds: the shortcut
    # that spares a name_to_handle_at per READDIRPLUS entry.
    'src/fs/beneath src/fs/fh_build src/fs/icache',
    # A request knows the connection its reply goes out on, the transport
    # makes requests and queues them, the queue hands them back to the
    # connections: one machine in four files, split by concern, not by layer.
    'src/rpc/req src/rpc/tcpconn src/rpc/transport src/rpc/workq',
}
index, low, stack, on, sccs = {}, {}, [], set(), []
sys.setrecursionlimit(10000)
def visit(v):
    index[v] = low[v] = len(index)
    stack.append(v); on.add(v)
    for w in edges.get(v, ()):
        if w not in index:
            visit(w); low[v] = min(low[v], low[w])
        elif w in on:
            low[v] = min(low[v], index[w])
    if low[v] == index[v]:
        comp = []
        while True:
            w = stack.pop(); on.discard(w); comp.append(w)
            if w == v:
                break
        if len(comp) > 1:
            sccs.append(comp)
nodes = set(edges) | {w for ws in edges.values() for w in ws}
for v in sorted(nodes):
    if v not in index:
        visit(v)
for comp in sccs:
    names = sorted(os.path.join(d, m) for d, m in comp)
    folders = {d for d, _ in comp}
    key = ' '.join(names)
    if len(folders) > 1:
        print('not ok: include cycle across folders: ' + key)
        failed += 1
    elif key not in TOLERATED:
        print('not ok: include cycle not listed as tolerated: ' + key)
        failed += 1
for key in sorted(TOLERATED - {' '.join(sorted(os.path.join(d, m) for d, m in c)) for c in sccs}):
    print('not ok: the tolerated cycle %s is gone: take it out of TOLERATED' % key)
    failed += 1
print('layers: %d files, %d modules, %d cycles inside a folder, %d problems' % (len(files), len(nodes), len(sccs), failed))
sys.exit(1 if failed else 0)
